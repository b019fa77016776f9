import type { ReactElement } from "react";
import { formatValue } from "@/components/charts/units";
import type { DqlResult } from "@/lib/dql/dql";
import { formatDateTime } from "@/lib/time";
import { useTimeZone } from "@/lib/timeZone";

const MAX_ROWS = 500;

/**
 * A number as a table shows it: in `unit` when one is chosen; otherwise whole numbers as
 * they are and fractions without floating-point noise (16.072000000000003 → 16.072):
 * three decimals from 1 up, four significant digits below.
 */
export function formatCellNumber(v: number, unit?: string): string {
  if (unit && unit !== "none") return formatValue(v, unit);
  if (!Number.isFinite(v) || Number.isInteger(v)) return String(v);
  return String(Math.abs(v) >= 1 ? +v.toFixed(3) : +v.toPrecision(4));
}

function cell(v: unknown, column: string, unit: string | undefined, timeZone: string): string {
  if (v === null || v === undefined) return "–";
  if (column === "time" && typeof v === "number") return formatDateTime(v, timeZone);
  if (typeof v === "number") return formatCellNumber(v, unit);
  return String(v);
}

/**
 * The raw result, one table per series, with its tags as the caption; values in `unit`.
 * The tables scroll inside their box, a region named `label` that takes keyboard focus so
 * the arrow keys scroll it without a mouse. `seriesRefs` (the query each series came from, when
 * Explore ran several) starts each caption with its query: `B · mem · host=a`.
 */
export function ResultTable({
  result,
  unit,
  label = "Result table",
  seriesRefs,
}: {
  result: DqlResult;
  unit?: string;
  label?: string;
  seriesRefs?: readonly string[];
}): ReactElement {
  const timeZone = useTimeZone();
  let shown = 0;
  return (
    <div className="result-tables" data-testid="result-table" role="region" aria-label={label} tabIndex={0}>
      {result.series.map((s, i) => {
        const rows = s.values.slice(0, Math.max(0, MAX_ROWS - shown));
        shown += rows.length;
        const tags = Object.entries(s.tags ?? {})
          .map(([k, v]) => `${k}=${v}`)
          .join(", ");
        return (
          <table key={i} className="data-table">
            <caption>
              {seriesRefs?.[i] ? `${seriesRefs[i]} · ` : ""}
              {s.name}
              {tags ? ` · ${tags}` : ""}
            </caption>
            <thead>
              <tr>
                {s.columns.map((c) => (
                  <th key={c} scope="col">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row, r) => (
                <tr key={r}>
                  {row.map((v, c) => (
                    <td key={c}>{cell(v, s.columns[c], unit, timeZone)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        );
      })}
      {shown >= MAX_ROWS ? <p className="muted small">Showing the first {MAX_ROWS} rows.</p> : null}
    </div>
  );
}
