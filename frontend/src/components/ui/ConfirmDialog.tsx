import { useId, useState, type ReactElement, type ReactNode } from "react";
import { Button } from "./Button";
import { Dialog } from "./Dialog";

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
  const typedId = useId();
  const [typed, setTyped] = useState("");
  const confirmed = typeToConfirm === undefined || typed === typeToConfirm;
  const first = typeToConfirm !== undefined ? "[data-typed]" : destructive ? "[data-cancel]" : "[data-confirm]";

  return (
    <Dialog
      title={title}
      description={message}
      descriptionClassName="confirm-message"
      onClose={onCancel}
      role="alertdialog"
      initialFocus={first}
      testId="confirm-dialog"
    >
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
    </Dialog>
  );
}
