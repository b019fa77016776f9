import { csvText } from "@/lib/csv";
import { fileSlug } from "@/lib/download";
import type { DqlResult } from "./dql";

/**
 * A DQL result as CSV, one row per point of each series (the "long" form spreadsheets and
 * pandas read directly): `series`, one column per tag key of any series, `time` (ISO 8601,
 * UTC), then one column per value column of any series, in the order they first appear.
 * Missing values are empty. With `seriesRefs` (the query each series came from, when Explore
 * ran several), a first column `query` says which.
 */
export function resultCsv(result: DqlResult, seriesRefs?: readonly string[]): string {
  const tagKeys = [...new Set(result.series.flatMap((s) => Object.keys(s.tags ?? {})))].sort();
  const valueColumns: string[] = [];
  for (const s of result.series) for (const c of s.columns) if (c !== "time" && !valueColumns.includes(c)) valueColumns.push(c);
  const byQuery = seriesRefs !== undefined;
  const rows: string[][] = [[...(byQuery ? ["query"] : []), "series", ...tagKeys, "time", ...valueColumns]];
  for (const [n, s] of result.series.entries()) {
    const tags = tagKeys.map((k) => s.tags?.[k] ?? "");
    const timeIdx = s.columns.indexOf("time");
    const idx = valueColumns.map((c) => s.columns.indexOf(c));
    for (const row of s.values) {
      const t = timeIdx >= 0 ? row[timeIdx] : undefined;
      rows.push([
        ...(byQuery ? [seriesRefs[n] ?? ""] : []),
        s.name,
        ...tags,
        typeof t === "number" ? new Date(t).toISOString() : t === undefined || t === null ? "" : String(t),
        ...idx.map((i) => (i < 0 || row[i] === null || row[i] === undefined ? "" : String(row[i]))),
      ]);
    }
  }
  return csvText(rows);
}

/** A file name for a download of `title`'s data, with the minute it was taken: `cpu-usage-2026-11-22T10-04Z.csv`. */
export function csvFileName(title: string, at: Date = new Date()): string {
  return `${fileSlug(title, "data", 60)}-${at.toISOString().slice(0, 16).replace(":", "-")}Z.csv`;
}
