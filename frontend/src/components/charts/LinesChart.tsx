import type { EChartsOption } from "echarts";
import { useMemo, useState, type CSSProperties, type ReactElement } from "react";
import { ChartLegend, legendEntries } from "./ChartLegend";
import { EChart } from "./EChart";
import { mergeLines } from "./mergeLines";

/**
 * Above this many series the legend is drawn as HTML beside the chart (ChartLegend) instead
 * of on the canvas, whose layout of every entry on each draw dominates a big chart's cost,
 * and the lines are drawn merged (`mergeLines`).
 */
export const CANVAS_LEGEND_MAX = 30;

/** Where a chart's legend goes for this many series: on the canvas, or in HTML beside it. */
export function legendModeFor(seriesCount: number): "canvas" | "html" {
  return seriesCount > CANVAS_LEGEND_MAX ? "html" : "canvas";
}

export interface LinesChartProps {
  option: EChartsOption;
  label: string;
  /** `auto`: on the canvas for a few series, in HTML for many; `none`: no legend for many. */
  legend?: "auto" | "none";
  legendPosition?: "bottom" | "right";
  onBrushX?: (range: [number, number]) => void;
  style?: CSSProperties;
  testId?: string;
}

/**
 * A line, area or bar chart with a legend that can switch series off. Few series keep
 * ECharts' own legend; many get an HTML legend and are drawn merged, which keeps a chart of
 * hundreds of series about as cheap as one of a few.
 */
export function LinesChart({
  option,
  label,
  legend = "auto",
  legendPosition = "bottom",
  onBrushX,
  style,
  testId,
}: LinesChartProps): ReactElement {
  const entries = useMemo(() => legendEntries(option), [option]);
  const many = legendModeFor(entries.length) === "html";
  const html = many && legend === "auto";
  // series switched off in the HTML legend; names that are gone no longer count
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const hiddenNow = useMemo(
    () => new Set(entries.filter((e) => hidden.has(e.name)).map((e) => e.name)),
    [entries, hidden],
  );
  const shown = useMemo(() => (many ? mergeLines(option, hiddenNow) : option), [option, many, hiddenNow]);

  const chart = (
    <EChart
      option={shown}
      label={label}
      onBrushX={onBrushX}
      style={html ? { height: "100%" } : style}
      testId={testId}
    />
  );
  if (!html) return chart;
  return (
    <div className={`chart-with-legend legend-${legendPosition}`} style={style}>
      <div className="chart-area">{chart}</div>
      <ChartLegend
        entries={entries}
        position={legendPosition}
        hidden={hiddenNow}
        label={`${label} legend`}
        onToggle={(name) => {
          const next = new Set(hiddenNow);
          if (!next.delete(name)) next.add(name);
          setHidden(next);
        }}
      />
    </div>
  );
}
