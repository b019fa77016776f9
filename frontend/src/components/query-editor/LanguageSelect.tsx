import type { ReactElement } from "react";
import { QUERY_LANGUAGES, type QueryLanguage } from "@/lib/dql/promql";

export interface LanguageSelectProps {
  /** The select's id, for a `<label htmlFor>`; without one, `label` names it. */
  id?: string;
  value: QueryLanguage;
  onChange: (language: QueryLanguage) => void;
  /** The select's accessible name: "Language", or "Language of query B" among several. */
  label?: string;
  disabled?: boolean;
}

/** The switch between DQL and PromQL for one query: Explore's, a panel's, a monitor's. */
export function LanguageSelect({ id, value, onChange, label = "Language", disabled = false }: LanguageSelectProps): ReactElement {
  return (
    <select
      id={id}
      className="query-language-select"
      aria-label={id ? undefined : label}
      value={value}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value === "promql" ? "promql" : "dql")}
      data-testid="query-language"
    >
      {QUERY_LANGUAGES.map((l) => (
        <option key={l.value} value={l.value}>
          {l.label}
        </option>
      ))}
    </select>
  );
}

/** What a query editor shows while it is empty, per language. */
export const QUERY_PLACEHOLDERS: Readonly<Record<QueryLanguage, string>> = {
  dql: "M::cpu:(avg(usage_user)) [15m::1m] BY host",
  promql: 'sum by (instance) (rate(node_cpu_seconds_total{mode!="idle"}[$__rate_interval]))',
};
