import type { ReactElement } from "react";
import { DataTable, type DataTableColumn } from "@/components/ui/DataTable";
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
  const columns: DataTableColumn<FigureRow>[] = [
    {
      id: "metric",
      header: "Metric",
      rowHeader: true,
      cell: (row) => (
        <>
          {metricTitle(row.metric)}
          {row.better ? <span className="muted small"> ({row.better} is better)</span> : null}
        </>
      ),
    },
  ];
  if (rows.some((r) => r.labels)) columns.push({ id: "labels", header: "Labels", className: "labels-cell", cell: (row) => row.labels });
  if (rows.some((r) => r.x !== null)) columns.push({ id: "x", header: sweepName ?? "x", numeric: true, cell: (row) => row.x ?? "" });
  for (const s of shown) columns.push(subjectColumn(s, reference));
  return (
    <div className="table-scroll">
      <DataTable
        caption={`Figures per system, with the ratio to ${reference}`}
        className="summary-table"
        testId="summary-table"
        rows={rows}
        rowKey={(row) => row.key}
        columns={columns}
      />
    </div>
  );
}

/** A system's figures: the value, its note, and (but for the reference) the ratio to the reference. */
function subjectColumn(subject: string, reference: string): DataTableColumn<FigureRow> {
  const isReference = subject === reference;
  return {
    id: `subject-${subject}`,
    header: (
      <>
        {subject}
        {isReference ? <span className="muted small"> (reference)</span> : null}
      </>
    ),
    headerClassName: isReference ? "reference-col" : undefined,
    numeric: true,
    className: (row) => (row.cells.has(subject) ? undefined : "muted"),
    title: (row) => {
      const cell = row.cells.get(subject);
      if (!cell) return undefined;
      return [
        cell.value === null ? "no value" : `${cell.value} ${row.unit}`,
        ...(cell.parts && cell.parts.length > 1 ? cell.parts.map((p) => `${p.process}: ${formatValue(p.value, row.unit)}`) : []),
        cell.note ?? "",
      ]
        .filter(Boolean)
        .join("\n");
    },
    cell: (row) => {
      const cell = row.cells.get(subject);
      if (!cell) return "—";
      const ratio = isReference ? undefined : ratioTo(cell.value, row.cells.get(reference)?.value);
      return (
        <>
          <span className="figure">{cell.value === null && cell.note ? cell.note : formatValue(cell.value, row.unit)}</span>
          {cell.value !== null && cell.note ? <span className="cell-note">{cell.note}</span> : null}
          {isReference ? null : <span className={ratioClass(ratio, row.better)}>{formatRatio(ratio)}</span>}
        </>
      );
    },
  };
}
