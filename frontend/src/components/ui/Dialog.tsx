import {
  useEffect,
  useId,
  useRef,
  type KeyboardEvent,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
  type SyntheticEvent,
} from "react";
import { createPortal } from "react-dom";
import { focusableIn, wrapTab } from "./focusTrap";
import "./ConfirmDialog.css";

export interface DialogProps {
  /** Names the dialog, e.g. "New workspace". */
  title: string;
  /** A sentence under the title; it describes the dialog. */
  description?: ReactNode;
  children: ReactNode;
  /** Escape, or whatever close button the content has. */
  onClose: () => void;
  testId?: string;
  /** `alertdialog` for a question that interrupts (ConfirmDialog). */
  role?: "dialog" | "alertdialog";
  /** A selector for where focus starts; the first field (or control) when not given. */
  initialFocus?: string;
  /** The description's class: `muted` unless said otherwise. */
  descriptionClassName?: string;
  /** More classes on the dialog box, e.g. `dialog-wide` for a table. */
  className?: string;
}

const stop = (e: SyntheticEvent): void => e.stopPropagation();

/**
 * A small modal form above everything else (rendered into `document.body`), drawn like the
 * confirmation dialog: focus starts in its first field and stays inside, Escape closes it, and
 * focus goes back to the button that opened it. For questions before destructive actions use
 * `useConfirm` instead.
 */
export function Dialog({
  title,
  description,
  children,
  onClose,
  testId,
  role = "dialog",
  initialFocus,
  descriptionClassName = "confirm-message muted",
  className,
}: DialogProps): ReactElement {
  const titleId = useId();
  const descriptionId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const dialog = dialogRef.current;
    if (dialog) {
      const fields = focusableIn(dialog);
      const chosen = initialFocus ? dialog.querySelector<HTMLElement>(initialFocus) : null;
      (chosen ?? fields.find((el) => el instanceof HTMLInputElement) ?? fields[0] ?? dialog).focus();
    }
    return () => {
      if (opener?.isConnected) opener.focus();
    };
    // Focus is placed once, when the dialog opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    e.stopPropagation();
    if (e.key === "Escape") {
      e.preventDefault();
      onClose();
      return;
    }
    wrapTab(e, dialogRef.current);
  };

  // A press on the backdrop must not take focus out of the dialog (Escape would then miss it).
  const onMouseDown = (e: MouseEvent<HTMLDivElement>): void => {
    e.stopPropagation();
    if (e.target === e.currentTarget) e.preventDefault();
  };

  return createPortal(
    <div className="confirm-backdrop" onClick={stop} onMouseDown={onMouseDown} onPointerDown={stop} onKeyDown={onKeyDown}>
      <div
        ref={dialogRef}
        // Focusable, so a click on its text keeps focus (and Escape) inside.
        tabIndex={-1}
        className={className ? `confirm-dialog card ${className}` : "confirm-dialog card"}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        data-testid={testId}
      >
        <h2 id={titleId}>{title}</h2>
        {description ? (
          <div id={descriptionId} className={descriptionClassName}>
            {description}
          </div>
        ) : null}
        {children}
      </div>
    </div>,
    document.body,
  );
}
