/** How a series becomes the one number of a stat panel (the schema's `reduce`). */
export type Reducer = "last" | "first" | "avg" | "min" | "max" | "sum" | "count";

export const REDUCERS: { value: Reducer; label: string }[] = [
  { value: "last", label: "Last" },
  { value: "first", label: "First" },
  { value: "avg", label: "Mean" },
  { value: "min", label: "Min" },
  { value: "max", label: "Max" },
  { value: "sum", label: "Total" },
  { value: "count", label: "Count" },
];

/** Reduces the non-null values of `points` (`[time, value]`); undefined when there are none. */
export function reducePoints(points: readonly (readonly [number, number | null])[], reducer: Reducer): number | undefined {
  const values: number[] = [];
  for (const [, v] of points) if (v !== null && Number.isFinite(v)) values.push(v);
  if (reducer === "count") return values.length;
  if (values.length === 0) return undefined;
  switch (reducer) {
    case "last":
      return values[values.length - 1];
    case "first":
      return values[0];
    case "min":
      return Math.min(...values);
    case "max":
      return Math.max(...values);
    case "sum":
      return values.reduce((a, b) => a + b, 0);
    case "avg":
      return values.reduce((a, b) => a + b, 0) / values.length;
  }
}

/**
 * An SVG path (`M x y L x y …`) drawing `points` in a `width` × `height` box, time on x and
 * value on y (higher values higher up). Gaps (null values) start a new segment.
 */
export function sparklinePath(
  points: readonly (readonly [number, number | null])[],
  width: number,
  height: number,
): string {
  const valid = points.filter((p): p is [number, number] => p[1] !== null && Number.isFinite(p[1]));
  if (valid.length === 0) return "";
  const t0 = points[0][0];
  const t1 = points[points.length - 1][0];
  let lo = Infinity;
  let hi = -Infinity;
  for (const [, v] of valid) {
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  const x = (t: number): number => (t1 === t0 ? width / 2 : ((t - t0) / (t1 - t0)) * width);
  const y = (v: number): number => (hi === lo ? height / 2 : height - ((v - lo) / (hi - lo)) * height);
  const parts: string[] = [];
  let pen = false;
  for (const [t, v] of points) {
    if (v === null || !Number.isFinite(v)) {
      pen = false;
      continue;
    }
    parts.push(`${pen ? "L" : "M"}${+x(t).toFixed(1)} ${+y(v).toFixed(1)}`);
    pen = true;
  }
  return parts.join(" ");
}
