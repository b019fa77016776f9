import type { DqlResult } from "@/client/types.gen";

/** Request and response of `POST …/query/raw` (DQL.md §2), as the backend's OpenAPI types them. */
export type { DqlQuery, DqlRequest, DqlResponse, DqlResult, DqlSeries } from "@/client/types.gen";

/** What Explore opens with, and what a new panel starts from. */
export const DEFAULT_QUERY = "M::cpu:(avg(usage_user)) [15m::1m] BY host";

/** The values of `column` (or the first column) across all series, de-duplicated. */
export function columnValues(result: DqlResult, column?: string): string[] {
  const out = new Set<string>();
  for (const s of result.series) {
    const idx = column ? s.columns.indexOf(column) : 0;
    if (idx < 0) continue;
    for (const row of s.values) {
      const v = row[idx];
      if (typeof v === "string") out.add(v);
    }
  }
  return [...out].sort();
}

const DURATION_PART = /(\d+(?:\.\d+)?)(h|ms|m|s|µs|us|ns)/g;
const PART_MS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, µs: 1e-3, us: 1e-3, ns: 1e-6 };

/**
 * A result's `cost` (a Go duration such as `10.492164ms`, `1m2.5s` or `850µs`) for people:
 * `10.5 ms`, `62.5 s`, `0.85 ms`. Anything else is shown as it came.
 */
export function formatCost(cost: string): string {
  const text = cost.trim();
  let ms = 0;
  let matched = "";
  for (const m of text.matchAll(DURATION_PART)) {
    ms += Number(m[1]) * PART_MS[m[2]];
    matched += m[0];
  }
  if (matched === "" || matched !== text) return cost;
  if (ms < 10) return `${Number(ms.toPrecision(2))} ms`;
  const tenths = Math.round(ms * 10) / 10;
  return tenths < 1000 ? `${tenths} ms` : `${Number((ms / 1000).toPrecision(3))} s`;
}
