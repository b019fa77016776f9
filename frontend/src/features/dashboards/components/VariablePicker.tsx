import { useQuery } from "@tanstack/react-query";
import { useEffect, type ReactElement } from "react";
import { queryRaw } from "@/features/explore/api";
import { columnValues } from "@/features/explore/dql";
import type { DashboardVariable } from "../api";

export interface VariablePickerProps {
  workspaceId: string;
  variable: DashboardVariable;
  value: string[];
  onChange: (value: string[]) => void;
}

/** A variable's selector; `query` variables take their options from `show_tag_value(…)`. */
export function VariablePicker({ workspaceId, variable, value, onChange }: VariablePickerProps): ReactElement {
  const options = useQuery({
    queryKey: ["dashboard-variable", workspaceId, variable.type, variable.query],
    queryFn: async ({ signal }) => {
      if (variable.type !== "query" || !variable.query) return variable.options ?? [];
      const res = await queryRaw(workspaceId, { queries: [{ query: variable.query, disable_slimit: true }] }, signal);
      const result = res.content[0] ?? { series: [] };
      const values = columnValues(result, "value");
      return values.length > 0 ? values : columnValues(result);
    },
    staleTime: 60_000,
  });
  const label = variable.label || variable.name;
  const mustPick = !variable.multi && !variable.include_all;
  const first = options.data?.[0];
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
        size={variable.multi ? Math.min(4, Math.max(2, options.data?.length ?? 2)) : undefined}
      >
        {!variable.multi && variable.include_all ? <option value="">All</option> : null}
        {(options.data ?? []).map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
}
