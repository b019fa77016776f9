import type { ReactElement } from "react";
import { EChart } from "@/components/charts/EChart";
import type { ChartSpec } from "../charts";

/** Charts two to a row, each in its own labelled figure. */
export function ChartGrid({ charts, height = 320 }: { charts: ChartSpec[]; height?: number }): ReactElement {
  return (
    <div className="chart-grid">
      {charts.map((c) => (
        <figure key={c.id} className={c.wide ? "chart-figure wide" : "chart-figure"} data-testid="bench-figure" data-chart-id={c.id}>
          <figcaption>{c.title}</figcaption>
          <EChart option={c.option} label={c.label} style={{ height }} testId="bench-chart" />
        </figure>
      ))}
    </div>
  );
}
