import { number } from "echarts/core";

/**
 * Room for a value axis's labels, computed instead of measured by ECharts.
 *
 * `grid.containLabel` makes ECharts build every axis twice per layout (once to estimate the
 * labels' bounds, once for real), about a third of a line chart's layout time. Charts here
 * give the grid fixed margins instead (`outerBoundsMode: "none"`) and leave the value axis
 * exactly the width of its widest label. The ticks are the ones ECharts picks for a value
 * axis that is not pinned (`scale` on, or the extent stretched to 0): an interval of
 * `nice(span / 5)`, the extent widened to multiples of it (ECharts `axisNiceTicks`).
 */

/** Axis labels' font: ECharts' default (12px sans-serif), which the charts do not change. */
export const AXIS_LABEL_FONT = "12px sans-serif";
/** ECharts' `axisLabel.margin`: between the axis line and its labels. */
export const AXIS_LABEL_MARGIN = 8;
/** Room a time axis's labels take under the plot, as `containLabel` used to reserve it. */
export const TIME_AXIS_LABEL_HEIGHT = 14;

const MAX_TICKS = 50;

/** What a chart draws its values as. */
export type ValueChartKind = "line" | "area" | "bar";

/**
 * Whether a value axis fits its data (`scale: true`) or keeps zero on it (`scale: false`).
 * A bar is read by its length, so bars start at zero (negative bars go below it), and so
 * do stacks; lines and areas on their own fit their values, where changes are easier to see.
 */
export function valueAxisScale(kind: ValueChartKind, stacked = false): { scale: boolean } {
  return { scale: kind !== "bar" && !stacked };
}

/** The labels a value axis over `[min, max]` shows; `includeZero` for axes that start at 0. */
export function valueAxisTicks(min: number, max: number, includeZero = false): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max) || min > max) return [0, 1];
  let lo = includeZero ? Math.min(min, 0) : min;
  let hi = includeZero ? Math.max(max, 0) : max;
  if (lo === hi) {
    if (lo === 0) hi = 1;
    else {
      const half = Math.abs(lo) / 2;
      lo -= half;
      hi += half;
    }
  }
  const interval = number.nice((hi - lo) / 5, true);
  const precision = number.getPrecision(interval) + 2;
  const first = number.round(Math.floor(lo / interval) * interval, precision);
  const last = number.round(Math.ceil(hi / interval) * interval, precision);
  const ticks: number[] = [];
  for (let i = 0; ticks.length < MAX_TICKS; i++) {
    const v = number.round(first + i * interval, precision);
    if (v > last) break;
    ticks.push(v);
  }
  return ticks;
}

let context: CanvasRenderingContext2D | null | undefined;

/** Width of `text` in the axis font; about 7 px a character where there is no canvas (tests). */
export function labelWidth(text: string): number {
  if (context === undefined) {
    try {
      context = document.createElement("canvas").getContext("2d");
    } catch {
      context = null;
    }
    if (context) context.font = AXIS_LABEL_FONT;
  }
  return context ? context.measureText(text).width : text.length * 7;
}

/** Pixels the value axis's labels and their margin need beside the plot. */
export function valueAxisSpace(
  min: number,
  max: number,
  format: (v: number) => string,
  includeZero = false,
): number {
  let widest = 0;
  for (const v of valueAxisTicks(min, max, includeZero)) widest = Math.max(widest, labelWidth(format(v)));
  return Math.ceil(widest) + AXIS_LABEL_MARGIN;
}

/** Smallest and largest value of `[t, v]` points, widening `into`. */
export function valueExtent(
  points: readonly (readonly [number, number | null])[],
  into: [number, number] = [Infinity, -Infinity],
): [number, number] {
  let [lo, hi] = into;
  for (let i = 0; i < points.length; i++) {
    const v = points[i][1];
    if (v === null || !Number.isFinite(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  into[0] = lo;
  into[1] = hi;
  return into;
}
