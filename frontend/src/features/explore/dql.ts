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
