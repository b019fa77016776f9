import type { EChartsOption, LineSeriesOption, BarSeriesOption } from "echarts";
import type { QueryPanel } from "@/api/dashboards";
import { legendModeFor } from "@/components/charts/LinesChart";
import { SERIES_COLORS } from "@/components/charts/palette";
import { reducePoints, type Reducer } from "@/components/charts/statReduce";
import { thresholdBands, sortThresholds } from "@/components/charts/thresholds";
import { formatValue } from "@/components/charts/units";
import {
  distinctTickFormat,
  valueAxisBounds,
  valueAxisScale,
  valueAxisSpace,
  valueExtent,
} from "@/components/charts/valueAxis";
import type { DqlResult } from "@/lib/dql/dql";
import { shiftPoints, timeShiftSuffix } from "@/lib/timeShift";
import {
  chartGrid,
  chartSeriesOption,
  MANY_SERIES,
  toChartSeries,
  type ChartSeries,
} from "./toLineSeriesOption";

export interface PanelCompare {
  /** The same queries over the range moved back by `shiftMs`. */
  result: DqlResult;
  shiftMs: number;
  /** The shift as the user wrote it (`1d`), for the legend suffix. */
  shift: string;
  /** How many of its series each visible query gave, in order. */
  perQuery?: number[];
}

export interface PanelOptionInput {
  panel: QueryPanel;
  result: DqlResult;
  /** The legend format of each series (`seriesLegends`), present then past. */
  legends?: { present?: (string | undefined)[]; past?: (string | undefined)[] };
  /** `toChartSeries(result)`, when the caller has it already. */
  series?: ChartSeries[];
  range: [number, number];
  compare?: PanelCompare;
  timeZone?: string;
}

/** Where a panel's legend goes: on the canvas, in HTML beside it (`LinesChart`), or nowhere. */
export function panelLegendMode(panel: QueryPanel, seriesCount: number): "canvas" | "html" | "none" {
  if (panel.legend?.show === false) return "none";
  return legendModeFor(seriesCount);
}

const LEGEND_VALUE_LABELS: Record<string, string> = { last: "last", min: "min", max: "max", avg: "mean", sum: "total" };

/**
 * The values the value axis spans: every line's, or for stacked panels the stacks' totals
 * (ECharts stacks series point by point; negatives stack downwards).
 */
function drawnExtent(current: ChartSeries[], past: ChartSeries[], stacked: boolean): [number, number] {
  const extent: [number, number] = [Infinity, -Infinity];
  if (!stacked) {
    for (const s of [...current, ...past]) valueExtent(s.points, extent);
    return extent;
  }
  const up = new Map<number, number>();
  const down = new Map<number, number>();
  for (const s of current) {
    for (const [t, v] of s.points) {
      if (v === null || !Number.isFinite(v)) continue;
      const sums = v >= 0 ? up : down;
      sums.set(t, (sums.get(t) ?? 0) + v);
    }
  }
  valueExtent([...up, ...down], extent);
  for (const s of past) valueExtent(s.points, extent);
  return extent;
}

/** Line, area and bar panels: series, then units, thresholds, legend and the past series. */
export function toPanelOption({ panel, result, series: given, legends, range, compare, timeZone }: PanelOptionInput): EChartsOption {
  const kind = panel.type === "area" ? "area" : panel.type === "bar" ? "bar" : "line";
  const current = given ?? toChartSeries(result, legends?.present);
  const base = chartSeriesOption(current, { range, kind, timeZone });
  const unit = panel.unit ?? "none";
  const decimals = panel.decimals;
  // Past series keep the name of the present series they echo, for its colour. One without
  // any value would only be a legend entry for nothing.
  const past: (ChartSeries & { presentName: string })[] = compare
    ? toChartSeries(compare.result, legends?.past)
        .filter((s) => s.points.some(([, v]) => v !== null))
        .map((s) => ({
          ...s,
          presentName: s.name,
          name: `${s.name} (${timeShiftSuffix(compare.shift)})`,
          points: shiftPoints(s.points, compare.shiftMs),
        }))
    : [];
  const stack = "stack" in panel && panel.stack ? "total" : undefined;
  const colorOf = new Map<string, string>();
  current.forEach((s, i) => colorOf.set(s.name, SERIES_COLORS[i % SERIES_COLORS.length]));

  const baseSeries = (base.series ?? []) as (LineSeriesOption | BarSeriesOption)[];
  const series: (LineSeriesOption | BarSeriesOption)[] = baseSeries.map((s, i) => {
    const color = SERIES_COLORS[i % SERIES_COLORS.length];
    if (s.type === "bar") return { ...s, stack, itemStyle: { color } };
    const line = s as LineSeriesOption;
    return {
      ...line,
      stack,
      color,
      lineStyle: { width: "line_width" in panel && panel.line_width !== undefined ? panel.line_width : 1.5 },
      ...(kind === "area"
        ? { areaStyle: { opacity: "fill_opacity" in panel && panel.fill_opacity !== undefined ? panel.fill_opacity : 0.3 } }
        : {}),
      ...("show_points" in panel && panel.show_points ? { showSymbol: true } : {}),
    };
  });
  past.forEach((s, i) => {
    const color = colorOf.get(s.presentName) ?? SERIES_COLORS[(current.length + i) % SERIES_COLORS.length];
    if (kind === "bar") {
      // beside the present bar, paler and outlined in the same colour
      series.push({
        type: "bar",
        name: s.name,
        data: s.points,
        barMaxWidth: 16,
        color,
        itemStyle: { color, opacity: 0.35, borderColor: color, borderType: "dashed", borderWidth: 1 },
        emphasis: current.length + past.length > MANY_SERIES ? { disabled: true } : { focus: "series" },
      });
      return;
    }
    series.push({
      type: "line",
      name: s.name,
      data: s.points,
      color,
      // a single point draws no line: show it as a dot
      showSymbol: s.points.filter(([, v]) => v !== null).length < 2,
      symbolSize: 4,
      connectNulls: false,
      ...(s.points.length > 1000 ? { sampling: "lttb" as const } : {}),
      lineStyle: { type: "dashed", width: 1.2, opacity: 0.75 },
      emphasis: current.length + past.length > MANY_SERIES ? { disabled: true } : { focus: "series" },
    });
  });

  const thresholds = sortThresholds(panel.thresholds);
  if (thresholds.length > 0 && series.length > 0) {
    let top = -Infinity;
    for (const s of [...current, ...past]) for (const [, v] of s.points) if (v !== null && v > top) top = v;
    const bands = thresholdBands(thresholds, Number.isFinite(top) ? top : thresholds[thresholds.length - 1].value);
    series[0] = {
      ...series[0],
      markLine: {
        silent: true,
        symbol: "none",
        label: { show: true, position: "insideEndTop", formatter: (p) => formatValue(Number(p.value), unit, decimals) },
        data: thresholds.map((t) => ({ yAxis: t.value, lineStyle: { color: t.color, type: "dashed", width: 1 } })),
      },
      markArea: {
        silent: true,
        data: bands.map((b) => [
          { yAxis: b.from, itemStyle: { color: b.color, opacity: 0.08 } },
          { yAxis: b.to },
        ]),
      },
    } as LineSeriesOption | BarSeriesOption;
  }

  const legend = panel.legend ?? { show: true, position: "bottom" as const, values: [] };
  const showLegend = legend.show !== false;
  const right = legend.position === "right";
  const values = (legend.values ?? []).filter((v) => v in LEGEND_VALUE_LABELS);
  const allSeries = [...current, ...past];
  const legendText = new Map<string, string>();
  if (values.length > 0) {
    for (const s of allSeries) {
      const parts = values.map(
        (v) => `${LEGEND_VALUE_LABELS[v]}: ${formatValue(reducePoints(s.points, v as Reducer), unit, decimals)}`,
      );
      legendText.set(s.name, `${s.name}  ${parts.join("  ")}`);
    }
  }

  // A legend on the right gets a column of its own, wider when it lists values.
  const legendWidth = values.length > 0 ? 280 : 180;
  const canvasLegend = showLegend && panelLegendMode(panel, allSeries.length) === "canvas";
  const tooltipFormat = (v: unknown): string => (typeof v === "number" ? formatValue(v, unit, decimals) : "–");
  const axisScale = valueAxisScale(kind, Boolean(stack));
  const [lo, hi] = drawnExtent(current, past, Boolean(stack));
  const axisFormat = distinctTickFormat(
    lo,
    hi,
    (v) => formatValue(v, unit),
    (v, d) => formatValue(v, unit, d),
    !axisScale.scale,
    unit,
  );
  return {
    ...base,
    grid: chartGrid({
      left: 8 + valueAxisSpace(lo, hi, axisFormat, !axisScale.scale, unit),
      right: right && canvasLegend ? legendWidth + 16 : 16,
      top: 16,
      bottom: canvasLegend && !right ? 56 : 32,
    }),
    legend: {
      // an HTML legend keeps this one's data and formatter for its entries and selection
      show: canvasLegend,
      type: "scroll",
      data: allSeries.map((s) => s.name),
      formatter: (name: string) => legendText.get(name) ?? name,
      ...(right
        ? {
            orient: "vertical",
            right: 0,
            top: 8,
            bottom: 8,
            width: legendWidth,
            textStyle: { width: legendWidth - 36, overflow: "truncate" },
          }
        : { bottom: 0, left: 8, right: 8 }),
    },
    tooltip: { ...(base.tooltip as object), valueFormatter: tooltipFormat },
    // Bars start at zero: an axis fitted to the values would leave the smallest bar with no height.
    yAxis: {
      type: "value",
      ...axisScale,
      ...valueAxisBounds(lo, hi, !axisScale.scale, unit),
      axisLabel: { formatter: axisFormat },
    },
    series,
  };
}
