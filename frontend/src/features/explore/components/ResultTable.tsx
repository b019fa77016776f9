import type { ReactElement } from "react";
import { formatDateTime } from "@/lib/time";
import type { DqlResult } from "../dql";

const MAX_ROWS = 500;

function cell(v: unknown, column: string): string {
  if (v === null || v === undefined) return "–";
  if (column === "time" && typeof v === "number") return formatDateTime(v);
  return String(v);
}

/** The raw result, one table per series, with its tags as the caption. */
export function ResultTable({ result }: { result: DqlResult }): ReactElement {
  let shown = 0;
  return (
    <div className="result-tables" data-testid="result-table">
      {result.series.map((s, i) => {
        const rows = s.values.slice(0, Math.max(0, MAX_ROWS - shown));
        shown += rows.length;
        const tags = Object.entries(s.tags ?? {})
          .map(([k, v]) => `${k}=${v}`)
          .join(", ");
        return (
          <table key={i} className="data-table">
            <caption>
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
                    <td key={c}>{cell(v, s.columns[c])}</td>
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
