import type { DqlQuery } from "./dql";
import { parseDuration } from "../time";

/*
 * PromQL beside DQL. A query of a panel or of Explore says its language; a PromQL one is sent
 * in the same request as the DQL ones (`qtype: "promql"`, DQL.md §16) and answers in the same
 * shape (series of `["time", "value"]`), so units, legends, comparisons, stat, table and
 * heatmap draw it alike. What only PromQL needs is here: its step, and Grafana's built-in
 * variables (`$__rate_interval` …), which imported dashboards use everywhere.
 */

/** The languages a query can be written in. */
export type QueryLanguage = "dql" | "promql";

export const QUERY_LANGUAGES: readonly { value: QueryLanguage; label: string }[] = [
  { value: "dql", label: "DQL" },
  { value: "promql", label: "PromQL" },
];

/** `"promql"` for a PromQL query; anything else (absent included) is DQL. */
export function languageOf(q: { language?: string | null }): QueryLanguage {
  return q.language === "promql" ? "promql" : "dql";
}

/** A query as a panel or Explore holds it: the text, its language and PromQL's min step. */
export interface LanguageQuery {
  query: string;
  language?: string | null;
  min_step?: string | null;
}

/** The scrape interval Grafana assumes for `$__rate_interval` when a data source names none. */
export const SCRAPE_INTERVAL_S = 15;

/**
 * The step of a PromQL query over `rangeMs`, in whole seconds: the range in at most
 * `maxPoints` points, never below `minStep` (`30s`) nor one second.
 */
export function promqlStepSeconds(rangeMs: number, maxPoints: number, minStep?: string | null): number {
  const fit = Math.ceil(Math.max(rangeMs, 0) / Math.max(maxPoints, 1) / 1000);
  const least = minStep ? Math.ceil((parseDuration(minStep.trim()) ?? 0) / 1000) : 0;
  return Math.max(fit, least, 1);
}

/**
 * Grafana's built-in variables of a PromQL query, filled in as Grafana does: `$__interval`
 * the step, `$__rate_interval` the larger of step + scrape interval and four scrape
 * intervals (so `rate()` always sees two samples), `$__range` the time range.
 */
export function fillPromqlBuiltins(query: string, stepS: number, rangeMs: number): string {
  const rangeS = Math.max(Math.round(rangeMs / 1000), 1);
  const values: Record<string, string> = {
    __rate_interval: `${Math.max(stepS + SCRAPE_INTERVAL_S, 4 * SCRAPE_INTERVAL_S)}s`,
    __interval_ms: String(stepS * 1000),
    __interval: `${stepS}s`,
    __range_ms: String(rangeS * 1000),
    __range_s: String(rangeS),
    __range: `${rangeS}s`,
  };
  return query.replace(/\$\{(__[a-z_]+)\}|\$(__[a-z_]+)/g, (whole, braced?: string, bare?: string) => {
    const name = braced ?? bare ?? "";
    return Object.hasOwn(values, name) ? values[name] : whole;
  });
}

/**
 * The request for one query over `range`: DQL as it is, with `max_point` so a long range
 * widens its interval; PromQL with `qtype`, its step and Grafana's built-in variables filled in.
 */
export function toDqlQuery(q: LanguageQuery, range: [number, number], maxPoints: number): DqlQuery {
  if (languageOf(q) === "dql") return { query: q.query, time_range: range, max_point: maxPoints };
  const span = range[1] - range[0];
  const step = promqlStepSeconds(span, maxPoints, q.min_step);
  return {
    query: fillPromqlBuiltins(q.query, step, span),
    qtype: "promql",
    time_range: range,
    step: `${step}s`,
    max_point: maxPoints,
  };
}
