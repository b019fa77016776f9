/** A chart line's points: `[time ms, value]`, time rising; null draws nothing. */
type Point = [number, number | null];

/**
 * How far apart two neighbouring points may be, in the series' usual spacing (the median
 * interval between its points), before the line breaks between them.
 */
export const GAP_FACTOR = 1.5;

/** Median of the positive intervals between neighbouring points (undefined below two). */
function usualSpacing(points: readonly Point[]): number | undefined {
  const d = new Float64Array(Math.max(0, points.length - 1));
  let n = 0;
  for (let i = 1; i < points.length; i++) {
    const step = points[i][0] - points[i - 1][0];
    if (step > 0) d[n++] = step;
  }
  if (n < 2) return undefined;
  const sorted = d.subarray(0, n).sort();
  return sorted[n >> 1];
}

/**
 * The points with a null after every point that its successor follows by more than
 * `GAP_FACTOR` usual spacings, so that the line breaks where data is missing (a stopped
 * agent, an empty bucket) instead of drawing a straight line across the hole, as Grafana
 * does. Returns `points` itself when nothing is missing.
 */
export function withGaps<T extends Point>(points: T[]): T[] {
  const spacing = usualSpacing(points);
  if (spacing === undefined) return points;
  const limit = spacing * GAP_FACTOR;
  let out: T[] | undefined;
  for (let i = 1; i < points.length; i++) {
    const prev = points[i - 1];
    if (points[i][0] - prev[0] > limit) {
      out ??= points.slice(0, i);
      out.push([prev[0] + spacing, null] as T);
    }
    out?.push(points[i]);
  }
  return out ?? points;
}
