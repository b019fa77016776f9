import {
  useEffect,
  useId,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
  type SyntheticEvent,
} from "react";
import { createPortal } from "react-dom";
import { Button } from "./Button";
import { wrapTab } from "./focusTrap";
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
  /**
   * For what cannot be undone and costs a lot (a whole workspace): the user types this text
   * (e.g. the workspace's name) before the confirm button works; focus starts in that field.
   */
  typeToConfirm?: string;
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
 * With `typeToConfirm`, the confirm button works only once that text has been typed.
 * Open it through `useConfirm`.
 */
export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  cancelLabel = "Cancel",
  destructive = true,
  typeToConfirm,
  onConfirm,
  onCancel,
}: ConfirmDialogProps): ReactElement {
  const titleId = useId();
  const messageId = useId();
  const typedId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const [typed, setTyped] = useState("");
  const confirmed = typeToConfirm === undefined || typed === typeToConfirm;

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const first = typeToConfirm !== undefined ? "[data-typed]" : destructive ? "[data-cancel]" : "[data-confirm]";
    dialogRef.current?.querySelector<HTMLElement>(first)?.focus();
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
        {typeToConfirm !== undefined ? (
          <div className="field">
            <label htmlFor={typedId}>
              Type <strong className="confirm-typed-text">{typeToConfirm}</strong> to confirm
            </label>
            <input
              id={typedId}
              data-typed
              value={typed}
              autoComplete="off"
              spellCheck={false}
              onChange={(e) => setTyped(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === "Enter" && confirmed) {
                  e.preventDefault();
                  onConfirm();
                }
              }}
            />
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
            disabled={!confirmed}
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
