import type { ReactElement } from "react";
import type { FigureRow } from "../report";
import { ratioTo } from "../report";
import { metricTitle } from "../charts";
import { formatRatio, formatValue } from "../units";

export interface SummaryTableProps {
  rows: FigureRow[];
  subjects: string[];
  reference: string;
  /** Name of the sweep position when rows have one (`clients`, `batch rows`). */
  sweepName?: string;
}

function ratioClass(ratio: number | undefined, better: FigureRow["better"]): string {
  if (ratio === undefined || better === undefined || Math.abs(ratio - 1) < 0.05) return "ratio";
  return (ratio > 1) === (better === "higher") ? "ratio ratio-better" : "ratio ratio-worse";
}

/** Figures per subject with their ratio to the reference subject (value ÷ reference). */
export function SummaryTable({ rows, subjects, reference, sweepName }: SummaryTableProps): ReactElement {
  const shown = subjects.filter((s) => rows.some((r) => r.cells.has(s)));
  const hasLabels = rows.some((r) => r.labels);
  const hasX = rows.some((r) => r.x !== null);
  return (
    <div className="table-scroll">
      <table className="data-table summary-table" data-testid="summary-table">
        <caption className="sr-only">Figures per system, with the ratio to {reference}</caption>
        <thead>
          <tr>
            <th scope="col">Metric</th>
            {hasLabels ? <th scope="col">Labels</th> : null}
            {hasX ? <th scope="col">{sweepName ?? "x"}</th> : null}
            {shown.map((s) => (
              <th key={s} scope="col" className={s === reference ? "num reference-col" : "num"}>
                {s}
                {s === reference ? <span className="muted small"> (reference)</span> : null}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const ref = row.cells.get(reference)?.value;
            return (
              <tr key={row.key}>
                <th scope="row">
                  {metricTitle(row.metric)}
                  {row.better ? <span className="muted small"> ({row.better} is better)</span> : null}
                </th>
                {hasLabels ? <td className="labels-cell">{row.labels}</td> : null}
                {hasX ? <td className="num">{row.x ?? ""}</td> : null}
                {shown.map((s) => {
                  const cell = row.cells.get(s);
                  if (!cell) return <td key={s} className="num muted">—</td>;
                  const ratio = s === reference ? undefined : ratioTo(cell.value, ref);
                  const title = [
                    cell.value === null ? "no value" : `${cell.value} ${row.unit}`,
                    ...(cell.parts && cell.parts.length > 1
                      ? cell.parts.map((p) => `${p.process}: ${formatValue(p.value, row.unit)}`)
                      : []),
                    cell.note ?? "",
                  ]
                    .filter(Boolean)
                    .join("\n");
                  return (
                    <td key={s} className="num" title={title}>
                      <span className="figure">{cell.value === null && cell.note ? cell.note : formatValue(cell.value, row.unit)}</span>
                      {cell.value !== null && cell.note ? <span className="cell-note">{cell.note}</span> : null}
                      {s !== reference ? <span className={ratioClass(ratio, row.better)}>{formatRatio(ratio)}</span> : null}
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
