import { useId, type ReactElement, type ReactNode } from "react";
import { Spinner } from "@/components/ui/Spinner";
import { PanelDescription } from "./PanelDescription";
import "./panels.css";

export interface PanelCardProps {
  /** The panel's id and type, for tests and styles (`data-panel-id`, `data-panel-type`). */
  id: string;
  type: string;
  /** The title as shown (variables filled in): the card's heading and accessible name. */
  title: string;
  /** Shown behind an ⓘ button beside the title, and given to screen readers. */
  description?: string | null;
  /**
   * A preview (the panel editor's): named "Preview of <title>" under a level-3 heading, below
   * the editor's own; otherwise a level-2 heading under the page's title.
   */
  preview?: boolean;
  /** Shows that the panel is asking for its data again. */
  busy?: boolean;
  /** Class of the header, e.g. a grid's drag handle. */
  headerClassName?: string;
  /** A note beside the title. */
  badge?: ReactNode;
  /** The header's buttons: a menu, edit, remove … */
  actions?: ReactNode;
  children: ReactNode;
}

/** A panel's card: its header (title, description, buttons) over its body. */
export function PanelCard({
  id,
  type,
  title,
  description,
  preview = false,
  busy = false,
  headerClassName,
  badge,
  actions,
  children,
}: PanelCardProps): ReactElement {
  const descriptionId = useId();
  const Heading = preview ? "h3" : "h2";
  return (
    <section
      className="panel card"
      aria-label={preview ? `Preview of ${title}` : title}
      aria-describedby={description ? descriptionId : undefined}
      data-testid="panel"
      data-panel-id={id}
      data-panel-type={type}
    >
      <header className={headerClassName ? `panel-header ${headerClassName}` : "panel-header"}>
        <div className="panel-title">
          <Heading>{title}</Heading>
          {description ? <PanelDescription title={title} text={description} descriptionId={descriptionId} /> : null}
          {badge}
        </div>
        <div className="panel-actions">
          {busy ? <Spinner label="Refreshing" /> : null}
          {actions}
        </div>
      </header>
      <div className="panel-body">{children}</div>
    </section>
  );
}
