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

/**
 * Units shown in powers of 1024 (KiB, MiB …, see units.ts). Their axes step by a power of two
 * (0, 512 MiB, 1 GiB, 1.5 GiB) instead of ECharts' decimal steps, which read as 0, 477 MiB,
 * 954 MiB, 1.4 GiB.
 */
export const BINARY_UNITS: ReadonlySet<string> = new Set(["bytes", "bytes/s"]);

/**
 * The step between ticks for a span: ECharts' `nice(span / 5)`, or the power of two at or
 * above a fifth of the span (three to six ticks).
 */
function tickStep(span: number, unit?: string): number {
  const raw = span / 5;
  if (unit !== undefined && BINARY_UNITS.has(unit) && raw >= 1) return 2 ** Math.ceil(Math.log2(raw) - 1e-9);
  return number.nice(raw, true);
}

/**
 * The labels a value axis over `[min, max]` shows; `includeZero` for axes that start at 0.
 * For a unit of BINARY_UNITS they are the ones `valueAxisBounds` asks ECharts for.
 */
export function valueAxisTicks(min: number, max: number, includeZero = false, unit?: string): number[] {
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
  const interval = tickStep(hi - lo, unit);
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

/**
 * A label format under which the ticks of a value axis over `[min, max]` all read
 * differently: `format` itself, or, where its rounding makes neighbours equal (107.5 and 108
 * both "108" at three significant digits), `withDecimals` with the fewest decimals (up to 6)
 * that tells every tick apart.
 */
export function distinctTickFormat(
  min: number,
  max: number,
  format: (v: number) => string,
  withDecimals: (v: number, decimals: number) => string,
  includeZero = false,
  unit?: string,
): (v: number) => string {
  const ticks = valueAxisTicks(min, max, includeZero, unit);
  const distinct = (f: (v: number) => string): boolean => new Set(ticks.map(f)).size === ticks.length;
  if (distinct(format)) return format;
  for (let decimals = 0; decimals <= 6; decimals++) {
    const f = (v: number): string => withDecimals(v, decimals);
    if (distinct(f)) return f;
  }
  return format;
}

/**
 * What a value axis in `unit` over `[min, max]` sets beyond ECharts' defaults: for a unit of
 * BINARY_UNITS, its extent and step (power-of-two ticks); for others nothing (ECharts' own
 * ticks, which `valueAxisTicks` reproduces). The bounds are those of every series: a chart
 * whose legend hides some drops them (`withoutFixedBounds`) so that the axis fits what is left.
 */
export function valueAxisBounds(
  min: number,
  max: number,
  includeZero = false,
  unit?: string,
): { min?: number; max?: number; interval?: number } {
  if (unit === undefined || !BINARY_UNITS.has(unit) || !Number.isFinite(min) || !Number.isFinite(max)) return {};
  const ticks = valueAxisTicks(min, max, includeZero, unit);
  if (ticks.length < 2) return {};
  return { min: ticks[0], max: ticks[ticks.length - 1], interval: ticks[1] - ticks[0] };
}

/** The value axis option without the bounds `valueAxisBounds` fixed (the axis fits the data shown). */
export function withoutFixedBounds<T extends { yAxis?: unknown }>(option: T): T {
  const axis = option.yAxis;
  if (!axis || Array.isArray(axis) || typeof axis !== "object" || !("interval" in axis)) return option;
  const rest: Record<string, unknown> = { ...axis };
  delete rest.min;
  delete rest.max;
  delete rest.interval;
  return { ...option, yAxis: rest };
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
  unit?: string,
): number {
  let widest = 0;
  for (const v of valueAxisTicks(min, max, includeZero, unit)) widest = Math.max(widest, labelWidth(format(v)));
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
