import { useState, type FormEvent, type ReactElement } from "react";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { toUserMessage } from "@/lib/apiError";
import { formatBytes } from "@/lib/format";
import { LIMIT_FIELDS } from "@/lib/limitFields";
import type { Limits } from "../api";
import { useUpdateLimits } from "../hooks/useLimits";
import { ceilingHint, diffLimits, toDraft, type LimitsDraft } from "../limitFields";

export interface LimitsFormProps {
  workspaceId: string;
  limits: Limits;
  editable: boolean;
  onSaved: () => void;
  onEdit: () => void;
}

/**
 * The workspace's limits as a form: each value checked as it is typed (a refused one says why
 * beside its field), saved together; read-only for those who may not change them.
 */
export function LimitsForm({ workspaceId, limits, editable, onSaved, onEdit }: LimitsFormProps): ReactElement {
  const update = useUpdateLimits(workspaceId);
  const [draft, setDraft] = useState<LimitsDraft>(() => toDraft(limits));
  // Checked as the user types: a refused value says why at once, beside its field.
  const { changes, errors } = diffLimits(limits, draft);
  const invalid = LIMIT_FIELDS.filter((f) => errors[f.key] !== undefined);
  const changed = Object.keys(changes).length > 0;
  // Anything typed that is not the saved text, valid or not, can be thrown away.
  const edited = LIMIT_FIELDS.some((f) => draft[f.key] !== String(limits[f.key]));
  const canSave = changed && invalid.length === 0 && !update.isPending;

  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    // Enter in a field submits too: never with a refused value (the disabled Save says why).
    if (!canSave) return;
    // The form re-mounts with the saved limits before `mutate`'s callbacks would run: use the promise.
    update.mutateAsync(changes).then(onSaved, () => undefined);
  };

  return (
    <form className="stack" onSubmit={onSubmit} noValidate aria-label="Limits">
      <div className="limits-grid">
        {LIMIT_FIELDS.map((f) => {
          const id = `limit-${f.key}`;
          const msg = errors[f.key];
          return (
            <div className="field" key={f.key}>
              <label htmlFor={id}>{f.label}</label>
              <div className="limit-input">
                <input
                  id={id}
                  name={f.key}
                  inputMode="numeric"
                  value={draft[f.key]}
                  readOnly={!editable}
                  aria-invalid={msg ? true : undefined}
                  aria-describedby={`${id}-msg`}
                  onChange={(e) => {
                    onEdit();
                    setDraft({ ...draft, [f.key]: e.target.value });
                  }}
                />
                <span className="unit">{f.unit}</span>
              </div>
              <span id={`${id}-msg`} className={msg ? "field-error" : "field-hint"} data-testid={`${id}-msg`}>
                {msg ??
                  `${f.key === "max_body_bytes" ? `${formatBytes(limits[f.key])}. ` : ""}${f.help} ${ceilingHint(limits, f)}`}
              </span>
            </div>
          );
        })}
      </div>
      {update.isError ? <Alert>{toUserMessage(update.error)}</Alert> : null}
      {editable ? (
        <div className="row">
          <Button
            type="submit"
            variant="primary"
            disabled={!canSave}
            aria-describedby={invalid.length > 0 ? "limits-save-blocked" : undefined}
          >
            Save limits
          </Button>
          <Button variant="ghost" disabled={!edited || update.isPending} onClick={() => setDraft(toDraft(limits))}>
            Discard changes
          </Button>
          {invalid.length > 0 ? (
            <span id="limits-save-blocked" className="field-error" data-testid="limits-save-blocked">
              {invalid.length === 1
                ? `Correct ${invalid[0].label} to save.`
                : `Correct ${invalid.length} fields to save: ${invalid.map((f) => f.label).join(", ")}.`}
            </span>
          ) : null}
        </div>
      ) : null}
    </form>
  );
}
