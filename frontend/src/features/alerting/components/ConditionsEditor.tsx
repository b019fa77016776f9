import { useId, type ReactElement } from "react";
import type { ConditionOp, Severity } from "../api";
import { isRange, type ConditionDraft } from "../conditions";
import { OPS, SEVERITY_LABELS } from "../severity";
import { SeverityBadge } from "./Badges";

export interface ConditionsEditorProps {
  conditions: readonly ConditionDraft[];
  onChange: (conditions: ConditionDraft[]) => void;
  /** Each severity's problem (`conditions.<severity>` of the form's errors). */
  errors?: Partial<Record<Severity, string>>;
  /** Severities a worse condition always overrides. */
  unreachable?: Partial<Record<Severity, string>>;
  /** The whole set is wrong (none on). */
  formError?: string;
  /** Change detection is on: the values compared are changes. */
  changeUnit?: string;
  readOnly?: boolean;
}

/**
 * One row per severity, worst first (as Guance and the evaluator rank them): switched on, an
 * operator and a threshold (two for `between` and `outside`, both included in `between`).
 * When several hold, the worst is reported.
 */
export function ConditionsEditor({
  conditions,
  onChange,
  errors = {},
  unreachable = {},
  formError,
  changeUnit,
  readOnly = false,
}: ConditionsEditorProps): ReactElement {
  const id = useId();
  const set = (i: number, patch: Partial<ConditionDraft>): void =>
    onChange(conditions.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  return (
    <div className="stack">
      <table className="conditions-table" aria-label="Conditions per severity">
        <thead>
          <tr>
            <th scope="col">Severity</th>
            <th scope="col">When the value is</th>
            <th scope="col">Threshold</th>
            <th scope="col">
              <span className="sr-only">Upper bound</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {conditions.map((c, i) => {
            const name = SEVERITY_LABELS[c.severity];
            const noteId = `${id}-${c.severity}-note`;
            const note = errors[c.severity] ?? (c.enabled ? unreachable[c.severity] : undefined);
            return (
              <tr key={c.severity} data-testid={`condition-${c.severity}`}>
                <th scope="row">
                  <label className="check">
                    <input
                      type="checkbox"
                      checked={c.enabled}
                      disabled={readOnly}
                      onChange={(e) => set(i, { enabled: e.target.checked })}
                      aria-label={`Alert at ${name.toLowerCase()} severity`}
                    />
                    <SeverityBadge severity={c.severity} />
                  </label>
                </th>
                <td>
                  <select
                    value={c.op}
                    disabled={readOnly || !c.enabled}
                    aria-label={`${name} operator`}
                    onChange={(e) => set(i, { op: e.target.value as ConditionOp })}
                  >
                    {OPS.map((o) => (
                      <option key={o.value} value={o.value}>
                        {o.label}
                      </option>
                    ))}
                  </select>
                </td>
                <td>
                  <input
                    type="text"
                    inputMode="decimal"
                    value={c.threshold}
                    disabled={readOnly || !c.enabled}
                    aria-label={`${name} threshold`}
                    aria-invalid={errors[c.severity] ? true : undefined}
                    aria-describedby={note ? noteId : undefined}
                    onChange={(e) => set(i, { threshold: e.target.value })}
                  />
                  {changeUnit ? <span className="muted small"> {changeUnit}</span> : null}
                </td>
                <td>
                  {isRange(c.op) ? (
                    <span className="row">
                      <span className="muted small">and</span>
                      <input
                        type="text"
                        inputMode="decimal"
                        value={c.threshold2}
                        disabled={readOnly || !c.enabled}
                        aria-label={`${name} upper bound`}
                        onChange={(e) => set(i, { threshold2: e.target.value })}
                      />
                    </span>
                  ) : null}
                  {note ? (
                    <div
                      id={noteId}
                      className={errors[c.severity] ? "field-error cond-note" : "field-hint cond-note"}
                      data-testid={`condition-${c.severity}-note`}
                    >
                      {note}
                    </div>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {formError ? (
        <span className="field-error" role="alert" data-testid="conditions-error">
          {formError}
        </span>
      ) : null}
    </div>
  );
}
