import type { ReactElement } from "react";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { toUserMessage } from "@/lib/apiError";

export interface SaveProblemProps {
  /** Someone saved a newer version meanwhile (the save was refused with 409). */
  conflict: boolean;
  /** The newer version's number. */
  version: number;
  /** Why the last save failed, if it did. */
  error: unknown;
  onSaveAnyway: () => void;
  onDiscardMine: () => void;
}

/**
 * Why the dashboard was not saved: a newer version saved by someone else (Save anyway, or
 * discard these changes), or the API's message.
 */
export function SaveProblem({ conflict, version, error, onSaveAnyway, onDiscardMine }: SaveProblemProps): ReactElement | null {
  if (conflict) {
    return (
      <Alert title="Someone saved this dashboard meanwhile">
        <p>
          Version {version} is newer than the one you edited. Save anyway to replace it with your changes, or discard
          yours.
        </p>
        <div className="row">
          <Button variant="danger" size="sm" onClick={onSaveAnyway}>
            Save anyway
          </Button>
          <Button size="sm" onClick={onDiscardMine}>
            Discard my changes
          </Button>
        </div>
      </Alert>
    );
  }
  return error === undefined ? null : <Alert title="The dashboard was not saved">{toUserMessage(error)}</Alert>;
}
