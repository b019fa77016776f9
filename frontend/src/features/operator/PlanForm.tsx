import { useState, type FormEvent, type ReactElement } from "react";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { Dialog } from "@/components/ui/Dialog";
import { TextField } from "@/components/ui/TextField";
import { toUserMessage } from "@/lib/apiError";
import type { Plan, PlanCreate } from "./api";
import { formatBound, parsePlanDraft, PLAN_FIELDS, toPlanDraft, type PlanDraft } from "./planFields";

interface PlanFormProps {
  /** The plan edited, or the one a new plan starts as a copy of. */
  plan: Plan;
  mode: "create" | "edit";
  pending: boolean;
  error: Error | null;
  onSubmit: (body: PlanCreate) => void;
  onClose: () => void;
}

/** A plan's name, description and every bound, checked as they are typed. */
export function PlanForm({ plan, mode, pending, error, onSubmit, onClose }: PlanFormProps): ReactElement {
  const [draft, setDraft] = useState<PlanDraft>(() => toPlanDraft(plan, mode === "create" ? "" : plan.name));
  const [submitted, setSubmitted] = useState(false);
  const { body, errors } = parsePlanDraft(draft);
  const shown = (key: keyof typeof errors): string | undefined => (submitted || key !== "name" ? errors[key] : undefined);
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    setSubmitted(true);
    if (body) onSubmit(body);
  };
  return (
    <Dialog
      title={mode === "create" ? "New plan" : `Edit the plan ${plan.name}`}
      description={
        mode === "create"
          ? `It starts as a copy of ${plan.name}. Workspaces set their limits up to each ceiling.`
          : "Lowering a ceiling lowers that limit of every workspace on the plan that is above it."
      }
      onClose={onClose}
      className="dialog-wide"
      testId="plan-form"
    >
      <form className="stack" onSubmit={submit} noValidate aria-label="Plan">
        <TextField
          label="Name"
          value={draft.name}
          maxLength={64}
          error={shown("name")}
          onChange={(e) => setDraft({ ...draft, name: e.target.value })}
        />
        <TextField
          label="Description"
          value={draft.description}
          maxLength={500}
          onChange={(e) => setDraft({ ...draft, description: e.target.value })}
        />
        <div className="plan-grid">
          {PLAN_FIELDS.map((f) => (
            <TextField
              key={f.key}
              label={f.label}
              inputMode="numeric"
              value={draft.bounds[f.key]}
              error={shown(f.key)}
              hint={`${f.direction === "floor" ? "Floor" : "Ceiling"}, in ${f.unit}; now ${formatBound(f, plan[f.key])}.`}
              onChange={(e) => setDraft({ ...draft, bounds: { ...draft.bounds, [f.key]: e.target.value } })}
            />
          ))}
        </div>
        {error ? <Alert testId="plan-form-error">{toUserMessage(error)}</Alert> : null}
        <div className="row">
          <Button type="submit" variant="primary" disabled={pending}>
            {mode === "create" ? "Create plan" : "Save plan"}
          </Button>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
