import type { ReactElement } from "react";
import { Button } from "@/components/ui/Button";
import { useConfirm } from "@/components/ui/useConfirm";

export interface ConfirmDeleteButtonProps {
  /** What is deleted, for the button's accessible name ("Delete <name>"). */
  name: string;
  /** The question the dialog asks, e.g. `Delete the channel "Ops"?`. */
  question: string;
  /** What deleting it does. */
  message: string;
  onDelete: () => void;
  size?: "sm" | "md";
}

/** A red Delete that asks first, in the app's dialog (a row's or a page's). */
export function ConfirmDeleteButton({ name, question, message, onDelete, size = "sm" }: ConfirmDeleteButtonProps): ReactElement {
  const [confirm, confirmDialog] = useConfirm();
  return (
    <>
      <Button
        size={size}
        variant="danger"
        aria-label={`Delete ${name}`}
        onClick={async () => {
          if (await confirm({ title: question, message, confirmLabel: "Delete" })) onDelete();
        }}
      >
        Delete
      </Button>
      {confirmDialog}
    </>
  );
}
