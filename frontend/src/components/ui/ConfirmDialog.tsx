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
import { Button } from "./Button";
import "./ConfirmDialog.css";

export interface ConfirmOptions {
  /** The question, e.g. `Delete "Host overview"?`; it names the dialog. */
  title: string;
  /** What follows from confirming, in a sentence or two; it describes the dialog. */
  message?: ReactNode;
  /** The verb on the confirm button: "Delete", "Revoke", "Remove", "Leave". */
  confirmLabel: string;
  cancelLabel?: string;
  /**
   * Something is lost or someone loses access: the confirm button is red and focus starts
   * on Cancel, so Enter right away is the safe choice. True unless said otherwise.
   */
  destructive?: boolean;
}

export interface ConfirmDialogProps extends ConfirmOptions {
  onConfirm: () => void;
  onCancel: () => void;
}

const stop = (e: SyntheticEvent): void => e.stopPropagation();

/**
 * A modal question with two answers, above everything else (rendered into `document.body`).
 * Focus moves into it and stays there (Tab cycles through its buttons); Escape cancels; when
 * it closes, focus goes back to whatever had it before (the button that asked). Events inside
 * it do not reach the page's own handlers, so Escape here does not also close an editor below.
 * Open it through `useConfirm`.
 */
export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  cancelLabel = "Cancel",
  destructive = true,
  onConfirm,
  onCancel,
}: ConfirmDialogProps): ReactElement {
  const titleId = useId();
  const messageId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialogRef.current?.querySelector<HTMLButtonElement>(destructive ? "[data-cancel]" : "[data-confirm]")?.focus();
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
      onCancel();
      return;
    }
    if (e.key !== "Tab" || !dialogRef.current) return;
    const focusable = Array.from(dialogRef.current.querySelectorAll<HTMLElement>("button:not(:disabled)"));
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    // From the first button back, or the last one on (or from the dialog itself), wrap around.
    const at = focusable.indexOf(document.activeElement as HTMLElement);
    if (e.shiftKey && at <= 0) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && (at === -1 || at === focusable.length - 1)) {
      e.preventDefault();
      first.focus();
    }
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
        className="confirm-dialog card"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={message ? messageId : undefined}
        data-testid="confirm-dialog"
      >
        <h2 id={titleId}>{title}</h2>
        {message ? (
          <div id={messageId} className="confirm-message">
            {message}
          </div>
        ) : null}
        <div className="confirm-actions">
          <Button data-cancel onClick={onCancel}>
            {cancelLabel}
          </Button>
          <Button
            data-confirm
            variant={destructive ? "danger" : "primary"}
            className={destructive ? "btn-danger-solid" : undefined}
            onClick={onConfirm}
          >
            {confirmLabel}
          </Button>
        </div>
      </div>
    </div>,
    document.body,
  );
}
