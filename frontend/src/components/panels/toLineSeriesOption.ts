import type { BarSeriesOption, EChartsOption, LineSeriesOption } from "echarts";
import { legendModeFor } from "@/components/charts/LinesChart";
import { SERIES_COLORS } from "@/components/charts/palette";
import { withGaps } from "@/components/charts/gaps";
import { formatValue } from "@/components/charts/units";
import {
  TIME_AXIS_LABEL_HEIGHT,
  distinctTickFormat,
  valueAxisBounds,
  valueAxisScale,
  valueAxisSpace,
  valueExtent,
} from "@/components/charts/valueAxis";
import type { DqlResult, DqlSeries } from "@/lib/dql/dql";
import { formatAxisTime, formatDateTime, localTimeZone, timeZoneLabel } from "@/lib/time";

export interface LineOptionSettings {
  /** IANA zone the axis and tooltip use; the browser's zone by default. */
  timeZone?: string;
  /** `[start, end]` in epoch ms; pins the x axis to the queried range. */
  range?: [number, number];
  /** `line` (default), `area` (filled lines) or `bar`. */
  kind?: "line" | "area" | "bar";
  /** Unit of the values (`units.ts`) for the axis and tooltip; plain short numbers by default. */
  unit?: string;
}

export interface ChartSeries {
  /** Legend name: the BY tag values, plus the column when a series has several. */
  name: string;
  tags: Record<string, string>;
  column: string;
  points: [number, number | null][];
}

/**
 * Tag values in key order: `{host: "web-01", dc: "eu"}` → `"eu, web-01"`. The labels storage
 * keeps for itself (`__measurement__`, `__field__`, which PromQL answers carry) are left out.
 */
function tagLabel(tags: Record<string, string>): string {
  return Object.keys(tags)
    .filter((k) => !k.startsWith("__"))
    .sort()
    .map((k) => tags[k])
    .join(", ");
}

function numericColumns(series: DqlSeries): number[] {
  const timeIdx = series.columns.indexOf("time");
  const idx: number[] = [];
  series.columns.forEach((_, i) => {
    if (i === timeIdx) return;
    if (series.values.some((row) => typeof row[i] === "number")) idx.push(i);
  });
  return idx;
}

/** True when every row is `[time, number | null]`, times rising; what toChartSeries can keep. */
function isTimeValueRows(rows: readonly (readonly unknown[])[]): boolean {
  let last = -Infinity;
  let numeric = false;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const t = row[0];
    const v = row[1];
    if (row.length !== 2 || typeof t !== "number" || t < last) return false;
    if (v !== null && (typeof v !== "number" || !Number.isFinite(v))) return false;
    if (v !== null) numeric = true;
    last = t;
  }
  return numeric;
}

/**
 * Flattens a DQL result into one chartable line per (group, numeric column). Rows without a
 * numeric time are dropped; non-numeric cells become gaps (null).
 */
/**
 * A series' name from a legend format: `{{host}}` is the value of the tag (or PromQL label)
 * `host`, `{{field}}` the value column (`avg(usage_user)`), `{{measurement}}` the measurement
 * and `{{__name__}}` the metric's name; anything else between braces reads as nothing.
 */
export function formatLegend(format: string, series: DqlSeries, column: string): string {
  const tags = series.tags ?? {};
  return format.replace(/\{\{\s*([^{}\s]+)\s*\}\}/g, (_, key: string) => {
    if (Object.hasOwn(tags, key)) return tags[key];
    if (key === "field") return column;
    if (key === "measurement" || key === "__name__") return series.name;
    return "";
  });
}

/**
 * The result's series as the charts draw them. `legends` (one per series of the result,
 * `undefined` for the default) names series by a legend format (`formatLegend`).
 */
export function toChartSeries(result: DqlResult | undefined, legends?: readonly (string | undefined)[]): ChartSeries[] {
  if (!result) return [];
  const out: ChartSeries[] = [];
  for (const [index, s] of (result.series ?? []).entries()) {
    const legend = legends?.[index];
    const timeIdx = s.columns.indexOf("time");
    if (timeIdx < 0) continue;
    const tags = s.tags ?? {};
    const label = tagLabel(tags);
    // The common shape, `["time", <one value column>]` rows in time order with numbers or
    // nulls, is charted as it came: no copy of every row (a dashboard has tens of thousands).
    if (s.columns.length === 2 && timeIdx === 0 && isTimeValueRows(s.values)) {
      const column = s.columns[1];
      let name = label || column;
      if (!label && result.series.length > 1) name = s.name ? `${s.name} · ${column}` : column;
      if (legend) name = formatLegend(legend, s, column);
      out.push({ name, tags, column, points: withGaps(s.values as [number, number | null][]) });
      continue;
    }
    const cols = numericColumns(s);
    for (const ci of cols) {
      const column = s.columns[ci];
      const points: [number, number | null][] = [];
      let sorted = true;
      for (const row of s.values) {
        const t = row[timeIdx];
        if (typeof t !== "number") continue;
        const v = row[ci];
        if (points.length > 0 && t < points[points.length - 1][0]) sorted = false;
        points.push([t, typeof v === "number" && Number.isFinite(v) ? v : null]);
      }
      // rows come in time order (DQL.md §9); anything else is put in order
      if (!sorted) points.sort((a, b) => a[0] - b[0]);
      let name = label || column;
      if (label && cols.length > 1) name = `${label} · ${column}`;
      else if (!label && result.series.length > 1) name = `${s.name} · ${column}`;
      if (legend) name = formatLegend(legend, s, column);
      out.push({ name, tags, column, points: withGaps(points) });
    }
  }
  return out;
}

/** Number of series and of non-null points, as the chart will draw them. */
export function countPoints(series: ChartSeries[]): { series: number; points: number } {
  let points = 0;
  for (const s of series) for (const p of s.points) if (p[1] !== null) points += 1;
  return { series: series.length, points };
}

/** Above this many series a chart drops per-series hover effects. */
export const MANY_SERIES = 20;

/**
 * DQL result → ECharts option: one line per series, legend named by the BY tag values,
 * a time axis labelled in `timeZone`, and a tooltip listing every series at the hovered time.
 */
export function toLineSeriesOption(result: DqlResult | undefined, settings: LineOptionSettings = {}): EChartsOption {
  return chartSeriesOption(toChartSeries(result), settings);
}

/** `toLineSeriesOption` for a result already flattened by `toChartSeries`. */
export function chartSeriesOption(series: ChartSeries[], settings: LineOptionSettings = {}): EChartsOption {
  const timeZone = settings.timeZone ?? localTimeZone();
  let minT = settings.range?.[0] ?? Infinity;
  let maxT = settings.range?.[1] ?? -Infinity;
  if (!settings.range) {
    for (const s of series) {
      for (const [t] of s.points) {
        if (t < minT) minT = t;
        if (t > maxT) maxT = t;
      }
    }
  }
  const span = Number.isFinite(minT) && Number.isFinite(maxT) ? Math.max(maxT - minT, 1) : 3_600_000;

  const kind = settings.kind ?? "line";
  // Hover-focus dims every other series: useful for a few, costly and unreadable for many.
  const emphasis = series.length > MANY_SERIES ? { disabled: true } : { focus: "series" as const };
  // the same series has the same colour in every view and theme (ECharts' dark theme has its own palette)
  const colorOf = (i: number): string => SERIES_COLORS[i % SERIES_COLORS.length];
  const lines: (LineSeriesOption | BarSeriesOption)[] = series.map((s, i) =>
    kind === "bar"
      ? { type: "bar", name: s.name, data: s.points, color: colorOf(i), itemStyle: { color: colorOf(i) }, emphasis, barMaxWidth: 16 }
      : {
    type: "line",
    name: s.name,
    data: s.points,
    color: colorOf(i),
    showSymbol: s.points.length < 2,
    symbolSize: 4,
    connectNulls: false,
    emphasis,
    // downsampling only pays off when a series has more points than the chart has pixels
    ...(s.points.length > 1000 ? { sampling: "lttb" as const } : {}),
    ...(kind === "area" ? { areaStyle: { opacity: 0.18 } } : {}),
  });

  const extent: [number, number] = [Infinity, -Infinity];
  for (const s of series) valueExtent(s.points, extent);
  const axis = valueAxisScale(kind);
  const unit = settings.unit && settings.unit !== "none" ? settings.unit : undefined;
  const format = unit ? (v: number) => formatValue(v, unit) : formatNumber;
  const axisFormat = distinctTickFormat(
    extent[0],
    extent[1],
    format,
    (v, d) => formatValue(v, unit ?? "none", d),
    !axis.scale,
    unit,
  );
  // more than one series: the legend is HTML beside the chart (LinesChart), not on the canvas
  const canvasLegend = legendModeFor(series.length) === "canvas";

  return {
    animation: false,
    backgroundColor: "transparent",
    grid: chartGrid({
      left: 16 + valueAxisSpace(extent[0], extent[1], axisFormat, !axis.scale, unit),
      right: 24,
      top: 16,
      bottom: canvasLegend ? 64 : 40,
    }),
    legend: {
      show: canvasLegend,
      type: "scroll",
      bottom: 0,
      data: series.map((s) => s.name),
    },
    tooltip: {
      trigger: "axis",
      axisPointer: { type: "cross", label: { show: false } },
      valueFormatter: (v) => (typeof v === "number" ? format(v) : "–"),
    },
    xAxis: {
      type: "time",
      name: timeZoneLabel(timeZone, Number.isFinite(maxT) ? maxT : Date.now()),
      nameLocation: "middle",
      nameGap: 28,
      min: settings.range?.[0],
      max: settings.range?.[1],
      axisLabel: {
        hideOverlap: true,
        formatter: (value: number) => formatAxisTime(value, span, timeZone),
      },
      axisPointer: {
        label: { formatter: (p) => formatDateTime(Number(p.value), timeZone) },
      },
    },
    yAxis: {
      type: "value",
      ...axis,
      ...valueAxisBounds(extent[0], extent[1], !axis.scale, unit),
      axisLabel: { formatter: (v: number) => axisFormat(v) },
    },
    series: lines,
  };
}

/**
 * A grid with fixed margins around the plot: `left` holds the value axis's labels (see
 * `valueAxisSpace`), `bottom` is the room under the time axis's labels, which are added.
 */
export function chartGrid(m: { left: number; right: number; top: number; bottom: number }) {
  return { ...m, bottom: m.bottom + TIME_AXIS_LABEL_HEIGHT, outerBoundsMode: "none" as const };
}

/** Short numbers for axes and tooltips: 1234567 → "1.23M", 0.000123 → "1.23e-4". */
export function formatNumber(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  if (a === 0) return "0";
  if (a >= 1e12) return `${+(v / 1e12).toPrecision(3)}T`;
  if (a >= 1e9) return `${+(v / 1e9).toPrecision(3)}G`;
  if (a >= 1e6) return `${+(v / 1e6).toPrecision(3)}M`;
  if (a >= 1e4) return `${+(v / 1e3).toPrecision(3)}k`;
  if (a < 1e-3) return v.toExponential(2);
  return String(+v.toPrecision(4));
}
