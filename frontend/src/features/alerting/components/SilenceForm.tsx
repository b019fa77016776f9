import { useId, useMemo, useState, type FormEvent, type ReactElement } from "react";
import { Button } from "@/components/ui/Button";
import { Dialog } from "@/components/ui/Dialog";
import { RadioGroup } from "@/components/ui/RadioGroup";
import { TextField } from "@/components/ui/TextField";
import { fieldErrors, toUserMessage } from "@/lib/apiError";
import type { Monitor, Silence } from "../api";
import { useCreateSilence } from "../hooks/useSilences";
import {
  MATCHER_OPS,
  timeZones,
  toSilenceRequest,
  WEEKDAYS,
  type MatcherDraft,
  type MatcherOp,
  type SilenceDraft,
} from "../silenceForm";

export interface SilenceFormProps {
  workspaceId: string;
  monitors: readonly Pick<Monitor, "id" | "name">[];
  initial: SilenceDraft;
  onCreated: (silence: Silence) => void;
  onCancel: () => void;
}

const MODES = [
  { value: "once", label: "Once" },
  { value: "weekly", label: "Every week" },
] as const;

/**
 * A new silence: a monitor and/or tag matchers (`=`, `!=`, `=~`, `!~`), once (start, end) or
 * every week (days, start time, duration), in a time zone. Muted events are still recorded.
 */
export function SilenceForm({ workspaceId, monitors, initial, onCreated, onCancel }: SilenceFormProps): ReactElement {
  const id = useId();
  const [draft, setDraft] = useState<SilenceDraft>(initial);
  const [submitted, setSubmitted] = useState(false);
  const create = useCreateSilence(workspaceId);
  const zones = useMemo(() => {
    const all = timeZones();
    return all.includes(draft.timeZone) ? all : [draft.timeZone, ...all];
  }, [draft.timeZone]);
  const checked = toSilenceRequest(draft);
  const server = fieldErrors(create.error);
  const err = (key: string): string | undefined => (submitted ? checked.errors[key] : undefined) ?? server[key];
  const set = (patch: Partial<SilenceDraft>): void => {
    setDraft((d) => ({ ...d, ...patch }));
    create.reset();
  };
  const setMatcher = (i: number, patch: Partial<MatcherDraft>): void =>
    set({ matchers: draft.matchers.map((m, j) => (j === i ? { ...m, ...patch } : m)) });

  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    setSubmitted(true);
    if (!checked.body || create.isPending) return;
    create.mutate(checked.body, { onSuccess: onCreated });
  };
  const otherError = create.error && Object.keys(server).length === 0 ? toUserMessage(create.error) : undefined;

  return (
    <form className="stack" onSubmit={onSubmit} noValidate aria-label="New silence" data-testid="silence-form">
      <TextField
        label="Comment"
        name="comment"
        placeholder="Maintenance of web-1"
        value={draft.comment}
        onChange={(e) => set({ comment: e.target.value })}
        error={err("comment")}
      />
      <label className="field">
        Monitor
        <select name="monitor" value={draft.monitorId} onChange={(e) => set({ monitorId: e.target.value })}>
          <option value="">Every monitor (matched by tags)</option>
          {monitors.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name}
            </option>
          ))}
        </select>
      </label>
      <fieldset className="stack editor-fieldset">
        <legend className="small">Tag matchers (all must match the group&apos;s tags)</legend>
        {draft.matchers.map((m, i) => (
          <div className="matcher-row" key={i} data-testid="matcher-row">
            <TextField
              label={`Tag ${i + 1}`}
              value={m.label}
              onChange={(e) => setMatcher(i, { label: e.target.value })}
              error={err(`matchers.${i}.label`)}
              placeholder="host"
            />
            <label className="field">
              <span>
                Operator <span className="sr-only">{i + 1}</span>
              </span>
              <select value={m.op} onChange={(e) => setMatcher(i, { op: e.target.value as MatcherOp })}>
                {MATCHER_OPS.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            </label>
            <TextField
              label={`Value ${i + 1}`}
              value={m.value}
              onChange={(e) => setMatcher(i, { value: e.target.value })}
              error={err(`matchers.${i}.value`)}
              placeholder="web-1"
            />
            <Button size="sm" variant="ghost" onClick={() => set({ matchers: draft.matchers.filter((_, j) => j !== i) })}>
              Remove <span className="sr-only">matcher {i + 1}</span>
            </Button>
          </div>
        ))}
        <div>
          <Button size="sm" onClick={() => set({ matchers: [...draft.matchers, { label: "", op: "=", value: "" }] })}>
            Add matcher
          </Button>
        </div>
        {err("matchers") ? <span className="field-error">{err("matchers")}</span> : null}
      </fieldset>
      <RadioGroup label="When" options={MODES} value={draft.mode} onChange={(mode) => set({ mode })} />
      {draft.mode === "once" ? (
        <div className="editor-grid">
          <TextField
            label="Starts"
            type="datetime-local"
            value={draft.startsAt}
            onChange={(e) => set({ startsAt: e.target.value })}
            error={err("starts_at")}
            hint="Empty: now."
          />
          <TextField
            label="Ends"
            type="datetime-local"
            value={draft.endsAt}
            onChange={(e) => set({ endsAt: e.target.value })}
            error={err("ends_at")}
          />
        </div>
      ) : (
        <>
          <fieldset className="editor-fieldset">
            <legend className="small">On</legend>
            <div className="weekday-checks">
              {WEEKDAYS.map((day, i) => (
                <label key={day} className="check">
                  <input
                    type="checkbox"
                    checked={draft.weekdays.includes(i)}
                    onChange={(e) =>
                      set({ weekdays: e.target.checked ? [...draft.weekdays, i] : draft.weekdays.filter((d) => d !== i) })
                    }
                  />
                  {day}
                </label>
              ))}
            </div>
            {err("weekdays") ? <span className="field-error">{err("weekdays")}</span> : null}
          </fieldset>
          <div className="editor-grid">
            <TextField
              label="Starting at"
              type="time"
              value={draft.startTime}
              onChange={(e) => set({ startTime: e.target.value })}
              error={err("start")}
            />
            <TextField
              label="For"
              value={draft.duration}
              onChange={(e) => set({ duration: e.target.value })}
              error={err("duration")}
              hint="e.g. 2h or 90m"
            />
            <TextField
              label="Until (optional)"
              type="datetime-local"
              value={draft.until}
              onChange={(e) => set({ until: e.target.value })}
              error={err("until")}
            />
          </div>
        </>
      )}
      <div className="field">
        <label htmlFor={`${id}-tz`}>Time zone</label>
        <select id={`${id}-tz`} value={draft.timeZone} onChange={(e) => set({ timeZone: e.target.value })}>
          {zones.map((z) => (
            <option key={z} value={z}>
              {z}
            </option>
          ))}
        </select>
        {err("timezone") ? <span className="field-error">{err("timezone")}</span> : null}
      </div>
      {otherError ? (
        <span className="field-error" role="alert">
          {otherError}
        </span>
      ) : null}
      <div className="row">
        <Button type="submit" variant="primary" disabled={create.isPending}>
          Create silence
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

export interface SilenceDialogProps extends Omit<SilenceFormProps, "onCancel"> {
  onClose: () => void;
  /** What it silences, in the dialog's description. */
  subject?: string;
}

/** The silence form in a dialog (the monitor's page opens it prefilled). */
export function SilenceDialog({ onClose, subject, ...form }: SilenceDialogProps): ReactElement {
  return (
    <Dialog
      title="New silence"
      description={subject ?? "Events are still recorded while it mutes them; only the notifications are held back."}
      onClose={onClose}
      testId="silence-dialog"
      className="dialog-wide-form"
      initialFocus="input[name='comment']"
    >
      <SilenceForm {...form} onCancel={onClose} />
    </Dialog>
  );
}
