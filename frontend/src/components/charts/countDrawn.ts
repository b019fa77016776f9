import { mergedMembers } from "./mergeLines";

/**
 * Counts series and non-empty points in an ECharts option as returned by `getOption()`; a
 * series that draws several merged lines (`mergeLines`) counts as that many.
 */
export function countDrawn(option: unknown): { series: number; points: number } {
  const series = (option as { series?: unknown } | null)?.series;
  if (!Array.isArray(series)) return { series: 0, points: 0 };
  let points = 0;
  let lines = 0;
  for (const s of series) {
    lines += mergedMembers((s as { id?: unknown }).id) ?? 1;
    const data = (s as { data?: unknown }).data;
    if (data instanceof Float64Array) {
      // [x0, y0, x1, y1, …] (`mergeLines`): a point is drawn where its y is a number
      for (let i = 1; i < data.length; i += 2) if (Number.isFinite(data[i])) points += 1;
      continue;
    }
    if (!Array.isArray(data)) continue;
    for (const d of data) {
      const value = Array.isArray(d) ? d[d.length - 1] : (d as { value?: unknown } | null)?.value ?? d;
      const v = Array.isArray(value) ? value[value.length - 1] : value;
      if (typeof v === "number" && Number.isFinite(v)) points += 1;
    }
  }
  return { series: lines, points };
}
