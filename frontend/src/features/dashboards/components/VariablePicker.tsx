import { useEffect, type ReactElement } from "react";
import type { DashboardVariable } from "@/api/dashboards";
import { useVariableValues, variableSource } from "../hooks/useMetadataValues";

export interface VariablePickerProps {
  workspaceId: string;
  variable: DashboardVariable;
  value: string[];
  onChange: (value: string[]) => void;
  /** Every variable's selected values, filled into this one's query (`$job`). */
  values?: Record<string, string[]>;
}

/**
 * A variable's selector; `query` variables take their options from their query (DQL's
 * `show_tag_value(…)`, PromQL's `label_values(…)`, with the other variables filled in). A
 * value the link chose that is not among the options (`var-host=zzz`) is still what the panels
 * query, so it is shown selected, marked "(no such value)", rather than as the first option.
 */
const NO_VALUES: Record<string, string[]> = {};

export function VariablePicker({ workspaceId, variable, value, onChange, values = NO_VALUES }: VariablePickerProps): ReactElement {
  const queried = useVariableValues(workspaceId, variableSource(variable, values));
  const options = variable.type === "query" ? queried.data : (variable.options ?? []);
  const label = variable.label || variable.name;
  const mustPick = !variable.multi && !variable.include_all;
  const first = options?.[0];
  const known = new Set(options ?? []);
  const unknown = value.filter((v) => v !== "" && !known.has(v));
  useEffect(() => {
    // A single-value variable without "All" needs a value: take the first option, as Grafana does.
    if (mustPick && value.length === 0 && first !== undefined) onChange([first]);
  }, [mustPick, value.length, first, onChange]);
  return (
    <label className="inline-field variable">
      {label}
      <select
        multiple={variable.multi}
        aria-label={label}
        data-testid={`variable-${variable.name}`}
        value={variable.multi ? value : (value[0] ?? "")}
        onChange={(e) => onChange(Array.from(e.target.selectedOptions, (o) => o.value).filter(Boolean))}
        size={variable.multi ? Math.min(4, Math.max(2, options?.length ?? 2)) : undefined}
      >
        {!variable.multi && variable.include_all ? <option value="">All</option> : null}
        {unknown.map((v) => (
          <option key={`unknown-${v}`} value={v}>
            {options ? `${v} (no such value)` : v}
          </option>
        ))}
        {(options ?? []).map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
}
