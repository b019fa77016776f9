import type { EChartsOption } from "echarts";
import { useMemo, useState, type CSSProperties, type ReactElement } from "react";
import { ChartLegend, legendEntries } from "./ChartLegend";
import { EChart } from "./EChart";
import { mergeLines } from "./mergeLines";
import { withoutFixedBounds } from "./valueAxis";

/**
 * Above this many series the legend is drawn as HTML beside the chart (ChartLegend) instead
 * of on the canvas: its entries are buttons, reached with Tab and named to screen readers,
 * which a canvas legend's are not (and a canvas legend lays out every entry on each draw).
 * A single series keeps its name on the canvas: there is nothing to choose between.
 */
export const CANVAS_LEGEND_MAX = 1;

/**
 * Above this many series the lines are drawn merged (`mergeLines`), which keeps a chart of
 * hundreds of series about as cheap as one of a few.
 */
export const MERGE_LINES_MIN = 30;

/** Where a chart's legend goes for this many series: on the canvas, or in HTML beside it. */
export function legendModeFor(seriesCount: number): "canvas" | "html" {
  return seriesCount > CANVAS_LEGEND_MAX ? "html" : "canvas";
}

/**
 * The option with its canvas legend off and the `hidden` series switched off in the legend's
 * selection, which is set in full (an empty selection shows every series).
 */
export function withHtmlLegend(option: EChartsOption, hidden: ReadonlySet<string>): EChartsOption {
  if (Array.isArray(option.legend)) return option;
  const selected = Object.fromEntries([...hidden].map((name) => [name, false]));
  return { ...option, legend: { ...option.legend, show: false, selected } };
}

export interface LinesChartProps {
  option: EChartsOption;
  label: string;
  /** `auto`: on the canvas for one series, in HTML for more; `none`: no legend. */
  legend?: "auto" | "none";
  legendPosition?: "bottom" | "right";
  onBrushX?: (range: [number, number]) => void;
  style?: CSSProperties;
  testId?: string;
}

/**
 * A line, area or bar chart with a legend that can switch series off: an HTML legend beside
 * the chart for more than one series, whose selection (by series name) survives new data,
 * auto refresh included. Many series are drawn merged.
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
  const many = entries.length > MERGE_LINES_MIN;
  const html = legendModeFor(entries.length) === "html" && legend === "auto";
  // series switched off in the HTML legend, by name: new data for the same series keeps them
  // off; names that are gone no longer count (and are off again if they come back)
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const hiddenNow = useMemo(
    () => new Set(entries.filter((e) => hidden.has(e.name)).map((e) => e.name)),
    [entries, hidden],
  );
  const shown = useMemo(() => {
    // with series hidden, the value axis fits the ones left (valueAxisBounds)
    const fitted = hiddenNow.size > 0 ? withoutFixedBounds(option) : option;
    return many ? mergeLines(fitted, hiddenNow) : html ? withHtmlLegend(fitted, hiddenNow) : fitted;
  }, [option, many, html, hiddenNow]);

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
          const next = new Set(hidden);
          if (!next.delete(name)) next.add(name);
          setHidden(next);
        }}
      />
    </div>
  );
}
