import { useId, useRef, useState, type ReactElement } from "react";
import { Button } from "@/components/ui/Button";
import { InfoIcon } from "@/components/ui/icons";
import { useDismiss } from "@/components/ui/useDismiss";

/**
 * A panel's description behind an ⓘ button in its header: shown on a click or Enter, hidden
 * again by Escape, a second press or a press elsewhere. Screen readers also get it as the
 * panel's description (`descriptionId`, always in the page).
 */
export function PanelDescription({
  title,
  text,
  descriptionId,
}: {
  title: string;
  text: string;
  descriptionId: string;
}): ReactElement {
  const [open, setOpen] = useState(false);
  const popoverId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useDismiss(open, rootRef, (by) => {
    setOpen(false);
    if (by === "escape") buttonRef.current?.focus();
  });

  return (
    <div className="panel-description no-drag" ref={rootRef}>
      <Button
        ref={buttonRef}
        variant="ghost"
        size="sm"
        aria-label={`About ${title}`}
        aria-expanded={open}
        aria-controls={open ? popoverId : undefined}
        title={text}
        onClick={() => setOpen((o) => !o)}
      >
        <InfoIcon />
      </Button>
      <p id={descriptionId} className="sr-only">
        {text}
      </p>
      {open ? (
        <div id={popoverId} className="popover panel-description-text" aria-hidden="true">
          {text}
        </div>
      ) : null}
    </div>
  );
}
