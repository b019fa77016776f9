import { BASE_COLOR, sortThresholds, type ThresholdStep } from "./thresholds";

/**
 * Gauges: a dial of 270°, from its start at the lower left (225°, clockwise) to its end at
 * the lower right (-45°), as Grafana draws them. Angles are in degrees, counter-clockwise from
 * 3 o'clock; SVG's y axis points down, which the path functions take into account.
 */
export const START_ANGLE = 225;
export const SWEEP = 270;

/** The dial's range: `min` (0 by default) to `max`, which by default suits the unit or the values. */
export function gaugeRange(
  values: readonly (number | undefined)[],
  unit: string,
  min?: number | null,
  max?: number | null,
): { min: number; max: number } {
  const lo = min ?? 0;
  let hi = max ?? (unit === "percent" || unit === "%" ? 100 : unit === "percentunit" ? 1 : undefined);
  if (hi === undefined) {
    const largest = Math.max(lo, ...values.filter((v): v is number => v !== undefined && Number.isFinite(v)));
    hi = niceCeil(largest - lo) + lo;
  }
  return hi > lo ? { min: lo, max: hi } : { min: lo, max: lo + 1 };
}

/** The smallest of 1, 2, 2.5, 5 × 10ⁿ at or above `x` (1 for nothing above zero): a dial's round end. */
export function niceCeil(x: number): number {
  if (!(x > 0) || !Number.isFinite(x)) return 1;
  const p = 10 ** Math.floor(Math.log10(x));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= x * (1 - 1e-12)) return m * p;
  return 10 * p;
}

/** Where `value` sits on the dial, from 0 (start) to 1 (end), held inside. */
export function dialFraction(value: number, min: number, max: number): number {
  return Math.min(1, Math.max(0, (value - min) / (max - min)));
}

function point(cx: number, cy: number, r: number, angle: number): [number, number] {
  const rad = (angle * Math.PI) / 180;
  return [cx + r * Math.cos(rad), cy - r * Math.sin(rad)];
}

const round = (n: number): number => Math.round(n * 100) / 100;

/** The SVG path of the dial's arc from fraction `from` to `to` (0 … 1), radius `r` around (cx, cy). */
export function arcPath(cx: number, cy: number, r: number, from: number, to: number): string {
  const a0 = START_ANGLE - from * SWEEP;
  const a1 = START_ANGLE - to * SWEEP;
  const [x0, y0] = point(cx, cy, r, a0);
  const [x1, y1] = point(cx, cy, r, a1);
  const large = (to - from) * SWEEP > 180 ? 1 : 0;
  // clockwise on screen: SVG's sweep flag 1
  return `M ${round(x0)} ${round(y0)} A ${r} ${r} 0 ${large} 1 ${round(x1)} ${round(y1)}`;
}

/**
 * The threshold bands along the dial, as fractions: the base colour from the start to the
 * first step, then each step's colour up to the next; steps outside the range are cut off.
 */
export function dialBands(
  steps: readonly ThresholdStep[] | undefined,
  min: number,
  max: number,
  base: string = BASE_COLOR,
): { from: number; to: number; color: string }[] {
  const sorted = sortThresholds(steps);
  const edges = [{ value: -Infinity, color: base }, ...sorted];
  return edges.flatMap((s, i) => {
    const from = dialFraction(s.value, min, max);
    const to = i + 1 < edges.length ? dialFraction(edges[i + 1].value, min, max) : 1;
    return to > from ? [{ from, to, color: s.color }] : [];
  });
}
