import type { EChartsOption, HeatmapSeriesOption, VisualMapComponentOption } from "echarts";
import { formatAxisTime, formatDateTime, localTimeZone, timeZoneLabel, zoneOffsetMs } from "@/lib/time";
import { formatValue } from "./units";
import { AXIS_LABEL_MARGIN, labelWidth, TIME_AXIS_LABEL_HEIGHT } from "./valueAxis";

/**
 * Heatmap panels: one row per series, one column per time bucket, each cell coloured by its
 * value on a continuous colour scale. This module builds the ECharts option; the chart types
 * it needs are registered by `heatmap.ts`, loaded when a heatmap is first drawn.
 */

/** Colour schemes of a heatmap panel (`color_scheme` in the dashboard schema). */
export type HeatmapScheme = "blues" | "greens" | "oranges" | "reds" | "spectral" | "viridis";

/** The schemes the panel editor offers, in the order they are listed. */
export const HEATMAP_SCHEMES: { value: HeatmapScheme; label: string }[] = [
  { value: "viridis", label: "Viridis" },
  { value: "spectral", label: "Spectral" },
  { value: "blues", label: "Blues" },
  { value: "greens", label: "Greens" },
  { value: "oranges", label: "Oranges" },
  { value: "reds", label: "Reds" },
];

export const DEFAULT_HEATMAP_SCHEME: HeatmapScheme = "viridis";

/**
 * Colour stops, lowest value first. The multi-hue scales read the same on both themes; the
 * single-hue ones go from a tint close to the panel's background to a strong colour, so the
 * high values stand out: light to dark on the light theme, dark to light on the dark one.
 */
const SCHEMES: Record<HeatmapScheme, { light: string[]; dark: string[] }> = {
  viridis: {
    light: ["#440154", "#414487", "#2a788e", "#22a884", "#7ad151", "#fde725"],
    dark: ["#440154", "#414487", "#2a788e", "#22a884", "#7ad151", "#fde725"],
  },
  spectral: {
    light: ["#3288bd", "#66c2a5", "#abdda4", "#e6f598", "#fee08b", "#fdae61", "#f46d43", "#d53e4f"],
    dark: ["#3288bd", "#66c2a5", "#abdda4", "#e6f598", "#fee08b", "#fdae61", "#f46d43", "#d53e4f"],
  },
  blues: {
    light: ["#deebf7", "#9ecae1", "#4292c6", "#08519c", "#08306b"],
    dark: ["#173a63", "#1f5a9e", "#3283dc", "#7ab6f5", "#d2e7ff"],
  },
  greens: {
    light: ["#e5f5e0", "#a1d99b", "#41ab5d", "#006d2c", "#00441b"],
    dark: ["#16462a", "#1f7040", "#2fa356", "#74d487", "#d3f7d8"],
  },
  oranges: {
    light: ["#fee6ce", "#fdae6b", "#f16913", "#a63603", "#7f2704"],
    dark: ["#53290c", "#8f430d", "#db6410", "#fd9e52", "#ffe3c4"],
  },
  reds: {
    light: ["#fee0d2", "#fc9272", "#ef3b2c", "#a50f15", "#67000d"],
    dark: ["#551517", "#922124", "#d8352f", "#fb7d6e", "#ffd9d2"],
  },
};

/** The colour stops of `scheme` (viridis when unknown) on the light or dark theme. */
export function heatmapColors(scheme: string | undefined, theme: "light" | "dark"): string[] {
  const s = SCHEMES[(scheme ?? DEFAULT_HEATMAP_SCHEME) as HeatmapScheme] ?? SCHEMES[DEFAULT_HEATMAP_SCHEME];
  return s[theme];
}

/** One series: a row of the heatmap. `ChartSeries` (`toChartSeries`) is one. */
export interface HeatmapRow {
  name: string;
  points: readonly (readonly [number, number | null])[];
}

/**
 * At most this many cells are drawn: above it the columns are widened. Each cell is an element
 * ECharts creates, colours and paints, about 15 µs on a busy 2-core machine (100 series × 60
 * columns take about 100 ms to draw, 100 merged lines about 35 ms), so the cells are what
 * a heatmap's drawing time is made of. 100 series get 80 columns (an hour at one a minute
 * fits), 10 series 720.
 */
export const MAX_HEATMAP_CELLS = 8_000;
/** Columns at most, whatever the number of rows (the panels ask for 720 points a series). */
export const MAX_HEATMAP_COLUMNS = 720;
/** Columns at least, however many rows there are. */
const MIN_HEATMAP_COLUMNS = 10;

/** Bucket widths, and the steps between time labels, are one of these (then whole 30 days). */
const NICE_STEPS = [
  1_000, 2_000, 5_000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000,
  7_200_000, 10_800_000, 21_600_000, 43_200_000, 86_400_000, 172_800_000, 604_800_000, 1_209_600_000, 2_592_000_000,
];

/** The smallest nice duration (`NICE_STEPS`) of at least `ms`. */
export function niceStep(ms: number): number {
  for (const s of NICE_STEPS) if (s >= ms) return s;
  const month = NICE_STEPS[NICE_STEPS.length - 1];
  return Math.ceil(ms / month) * month;
}

/** Rows, columns and cells of a heatmap, before colours and layout. */
export interface HeatmapGrid {
  /** Row names, top to bottom: the series names in natural order (`web-2` before `web-10`). */
  rows: string[];
  /** Start time of each column (epoch ms), left to right. */
  times: number[];
  /** Width of a column in ms; 0 for a single column of unknown width. */
  step: number;
  /** Whether a column spans several of the series' points (a cell shows their largest value). */
  bucketed: boolean;
  /** `[column, row, value]` of each cell that has a value; missing and null points have none. */
  cells: [number, number, number][];
  /** Smallest and largest cell value; NaN without cells. */
  min: number;
  max: number;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });

/** Whether columns of `step` from `t0` to `tN`, widened to the whole `range`, are few enough. */
function fitsOnStep(t0: number, tN: number, step: number, range: [number, number] | undefined, maxColumns: number): boolean {
  const from = Math.min(t0, range?.[0] ?? t0);
  const to = Math.max(tN, range?.[1] ?? tN);
  return (to - from) / step + 1 <= maxColumns;
}

/** The median time between a series' consecutive points, over all series; 0 when none has two. */
function typicalGap(series: readonly HeatmapRow[]): number {
  let n = 0;
  for (const s of series) n += Math.max(0, s.points.length - 1);
  if (n === 0) return 0;
  const gaps = new Float64Array(n);
  let k = 0;
  for (const s of series) for (let i = 1; i < s.points.length; i++) gaps[k++] = s.points[i][0] - s.points[i - 1][0];
  gaps.sort();
  return gaps[Math.floor(n / 2)];
}

/**
 * Lays series out as a heatmap: rows sorted by name, columns over the whole `range` (like the
 * time axis of the other panels; a gap in the data is a gap in the row) on the series' own
 * time step, or, when the points are not on one step or there would be more columns than
 * `MAX_HEATMAP_CELLS` allows, on a nice step (1m, 5m, 1h …) at least as long as the series'
 * usual gap, where a cell holds the largest value of its span (a short spike stays visible).
 */
export function heatmapGrid(series: readonly HeatmapRow[], range?: [number, number], timeZone: string = localTimeZone()): HeatmapGrid {
  // rows in natural order; a name used twice gets a suffix rather than sharing a row
  const sorted = [...series].sort((a, b) => collator.compare(a.name, b.name));
  const seen = new Map<string, number>();
  const rows = sorted.map((s) => {
    const n = (seen.get(s.name) ?? 0) + 1;
    seen.set(s.name, n);
    return n === 1 ? s.name : `${s.name} (${n})`;
  });

  let total = 0;
  for (const s of sorted) total += s.points.length;
  const all = new Float64Array(total);
  let k = 0;
  for (const s of sorted) for (const p of s.points) all[k++] = p[0];
  all.sort();
  let unique = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[unique - 1]) all[unique++] = all[i];
  const times = all.subarray(0, unique);
  const empty: HeatmapGrid = { rows, times: [], step: 0, bucketed: false, cells: [], min: NaN, max: NaN };
  if (unique === 0) return empty;

  const maxColumns = Math.max(
    MIN_HEATMAP_COLUMNS,
    Math.min(MAX_HEATMAP_COLUMNS, Math.floor(MAX_HEATMAP_CELLS / Math.max(1, rows.length))),
  );
  const t0 = times[0];
  const tN = times[unique - 1];

  // the series' own step: the smallest gap between times, when every time is a multiple of it
  // from the first, and the series do not report more sparsely than that (series on the same
  // step but at other seconds would otherwise leave every other cell empty)
  let step = Infinity;
  for (let i = 1; i < unique; i++) step = Math.min(step, times[i] - times[i - 1]);
  const gap = typicalGap(sorted);
  let regular = Number.isFinite(step) && !(gap > step);
  for (let i = 1; regular && i < unique; i++) if ((times[i] - t0) % step !== 0) regular = false;

  let first = t0;
  let count = 1;
  let width = 0;
  let bucketed = false;
  if (unique === 1) {
    width = 0;
  } else if (regular && fitsOnStep(t0, tN, step, range, maxColumns)) {
    // on the series' step, from the range's start to its end
    const before = range ? Math.max(0, Math.floor((t0 - range[0]) / step)) : 0;
    const after = range ? Math.max(0, Math.floor((range[1] - tN) / step)) : 0;
    width = step;
    first = t0 - before * step;
    count = (tN - t0) / step + 1 + before + after;
  } else {
    const from = Math.min(t0, range?.[0] ?? t0);
    const to = Math.max(tN, range?.[1] ?? tN);
    width = niceStep(Math.max((to - from) / maxColumns, gap || 1));
    // columns start on the wall clock's multiples of the width (whole hours, days …)
    const offset = zoneOffsetMs(from, timeZone);
    first = Math.floor((from + offset) / width) * width - offset;
    count = Math.floor((to - first) / width) + 1;
    bucketed = true;
  }

  // the largest value of each cell, row-major; NaN = empty
  const values = new Float64Array(rows.length * count).fill(NaN);
  sorted.forEach((s, r) => {
    for (const [t, v] of s.points) {
      if (v === null || !Number.isFinite(v)) continue;
      const c = width === 0 ? 0 : Math.floor((t - first) / width);
      if (c < 0 || c >= count) continue;
      const i = r * count + c;
      const had = values[i];
      if (Number.isNaN(had) || v > had) values[i] = v;
    }
  });
  const cells: [number, number, number][] = [];
  let min = Infinity;
  let max = -Infinity;
  for (let r = 0; r < rows.length; r++) {
    for (let c = 0; c < count; c++) {
      const v = values[r * count + c];
      if (Number.isNaN(v)) continue;
      cells.push([c, r, v]);
      if (v < min) min = v;
      if (v > max) max = v;
    }
  }
  const columnTimes = Array.from({ length: count }, (_, c) => first + c * width);
  if (cells.length === 0) return { ...empty, times: columnTimes, step: width, bucketed };
  return { rows, times: columnTimes, step: width, bucketed, cells, min, max };
}

/**
 * Which columns carry a time label: about `target` of them, where the wall clock in
 * `timeZone` passes a nice step (every 5 minutes, hour, day …), like a time axis's ticks.
 */
export function timeLabelColumns(times: readonly number[], step: number, timeZone: string, target = 6): boolean[] {
  if (times.length <= target || step === 0) return times.map(() => true);
  const span = times[times.length - 1] - times[0] + step;
  const every = niceStep(Math.max(span / target, step));
  let last = NaN;
  return times.map((t) => {
    const wall = t + zoneOffsetMs(t, timeZone);
    const slot = Math.floor(wall / every);
    // the first column only when it starts a step; then each column that enters a new one
    const labelled = Number.isNaN(last) ? wall % every === 0 : slot !== last;
    last = slot;
    return labelled;
  });
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** Row labels are cut (with …) beyond this width. */
export const ROW_LABEL_MAX_WIDTH = 160;
/** Above this many cells, pointing at a cell does not outline it (which redraws every cell). */
const EMPHASIS_MAX_CELLS = 2_000;
/** Length of the colour scale's bar. */
const SCALE_LENGTH = 140;
const SCALE_THICKNESS = 10;

export interface HeatmapSettings {
  /** Unit of the values (`units.ts`) for the colour scale and the tooltip. */
  unit?: string;
  decimals?: number | null;
  /** `color_scheme` of the panel. */
  scheme?: string;
  theme?: "light" | "dark";
  /** The colour scale, under the chart or on its right; `show: false` hides it. */
  legend?: { show?: boolean; position?: "bottom" | "right" };
  timeZone?: string;
}

/** The ECharts option of a heatmap laid out by `heatmapGrid`. */
export function heatmapOption(grid: HeatmapGrid, settings: HeatmapSettings = {}): EChartsOption {
  const unit = settings.unit ?? "none";
  const timeZone = settings.timeZone ?? localTimeZone();
  const theme = settings.theme ?? "light";
  const format = (v: number): string => formatValue(v, unit, settings.decimals);
  const { rows, times, step, cells } = grid;
  // a scale needs two ends: a single value sits in its middle
  let [min, max] = cells.length > 0 ? [grid.min, grid.max] : [0, 1];
  if (min === max) {
    const half = Math.abs(min) / 2 || 1;
    min -= half;
    max += half;
  }
  const span = times.length > 1 ? times[times.length - 1] - times[0] + step : Math.max(step, 60_000);
  const labelled = timeLabelColumns(times, step, timeZone);

  const showScale = settings.legend?.show !== false;
  const right = showScale && settings.legend?.position === "right";
  const scaleText = [format(grid.cells.length > 0 ? grid.max : max), format(grid.cells.length > 0 ? grid.min : min)];
  const scaleTextWidth = Math.ceil(Math.max(labelWidth(scaleText[0]), labelWidth(scaleText[1])));
  let widest = 0;
  for (const name of rows) widest = Math.max(widest, labelWidth(name));
  const rowLabelWidth = Math.ceil(Math.min(widest, ROW_LABEL_MAX_WIDTH));

  const visualMap: VisualMapComponentOption = {
    type: "continuous",
    min,
    max,
    dimension: 2,
    seriesIndex: 0,
    calculable: false,
    show: showScale,
    // pointing at a cell marks its value on the scale; it redraws every cell, so not for many
    hoverLink: cells.length <= EMPHASIS_MAX_CELLS,
    inRange: { color: heatmapColors(settings.scheme, theme) },
    text: scaleText,
    textGap: 6,
    // the value pointed at, marked on the scale
    formatter: (value: unknown) => (typeof value === "number" ? format(value) : String(value)),
    itemWidth: SCALE_THICKNESS,
    itemHeight: SCALE_LENGTH,
    ...(right
      ? { orient: "vertical", right: 8, top: "middle" }
      : { orient: "horizontal", left: "center", bottom: 0 }),
  };

  const series: HeatmapSeriesOption = {
    type: "heatmap",
    data: cells,
    // drawn in one go: the cells are capped (MAX_HEATMAP_CELLS), and a chart drawn in many
    // frames would report itself ready only at the last one
    progressive: 0,
    emphasis:
      cells.length > EMPHASIS_MAX_CELLS
        ? { disabled: true }
        : { itemStyle: { borderColor: theme === "dark" ? "#ffffff" : "#1d2330", borderWidth: 1 } },
  };

  const timeOf = (c: number): string => {
    const t = times[c];
    if (!grid.bucketed || step === 0) return formatDateTime(t, timeZone);
    return `${formatDateTime(t, timeZone)} – ${formatDateTime(t + step, timeZone).slice(11)}`;
  };

  return {
    animation: false,
    backgroundColor: "transparent",
    grid: {
      left: 8 + rowLabelWidth + AXIS_LABEL_MARGIN,
      right: right ? 16 + Math.max(SCALE_THICKNESS, scaleTextWidth) + 8 : 16,
      top: right ? 12 : 8,
      // the time labels and the time zone under them; the colour scale under those
      bottom: 32 + TIME_AXIS_LABEL_HEIGHT + (showScale && !right ? 30 : 0),
      outerBoundsMode: "none",
    },
    tooltip: {
      trigger: "item",
      formatter: (params: unknown) => {
        const p = params as { data?: unknown; color?: unknown };
        const d = p.data as [number, number, number] | undefined;
        if (!Array.isArray(d)) return "";
        const color = typeof p.color === "string" ? p.color : "transparent";
        return (
          `<div style="margin-bottom:4px">${escapeHtml(timeOf(d[0]))}</div>` +
          `<div style="display:flex;gap:12px;justify-content:space-between;align-items:center">` +
          `<span><span style="display:inline-block;margin-right:6px;width:10px;height:10px;border-radius:2px;` +
          `vertical-align:middle;background:${escapeHtml(color)}"></span>${escapeHtml(rows[d[1]] ?? "")}</span>` +
          `<b>${escapeHtml(format(d[2]))}</b></div>`
        );
      },
    },
    xAxis: {
      type: "category",
      data: times,
      name: timeZoneLabel(timeZone, times[times.length - 1] ?? Date.now()),
      nameLocation: "middle",
      nameGap: 28,
      axisTick: { alignWithLabel: true, interval: (i: number) => labelled[i] === true },
      axisLabel: {
        interval: (i: number) => labelled[i] === true,
        hideOverlap: true,
        formatter: (_: string, i: number) => formatAxisTime(times[i], span, timeZone),
      },
      splitLine: { show: false },
    },
    yAxis: {
      type: "category",
      data: rows,
      // the first row (by name) at the top
      inverse: true,
      axisTick: { show: false },
      axisLine: { show: false },
      // with more rows than fit, only every other (or every n-th) name is shown
      axisLabel: { width: rowLabelWidth + 1, overflow: "truncate", hideOverlap: true },
      splitLine: { show: false },
    },
    visualMap,
    series: [series],
  };
}
