import { mergedMembers } from "./mergeLines";

/** Names of the series the option's legend switches off (`selected: {name: false}`). */
function switchedOff(option: unknown): Set<unknown> {
  const raw = (option as { legend?: unknown } | null)?.legend;
  const legends = Array.isArray(raw) ? raw : raw ? [raw] : [];
  const off = new Set<unknown>();
  for (const l of legends) {
    const selected = (l as { selected?: unknown } | null)?.selected;
    if (!selected || typeof selected !== "object") continue;
    for (const [name, on] of Object.entries(selected)) if (on === false) off.add(name);
  }
  return off;
}

/**
 * Counts series and non-empty points in an ECharts option as returned by `getOption()`; a
 * series that draws several merged lines (`mergeLines`) counts as that many, and a series
 * switched off in the legend does not count.
 */
export function countDrawn(option: unknown): { series: number; points: number } {
  const series = (option as { series?: unknown } | null)?.series;
  if (!Array.isArray(series)) return { series: 0, points: 0 };
  const off = switchedOff(option);
  let points = 0;
  let lines = 0;
  for (const s of series) {
    const name = (s as { name?: unknown }).name;
    if (off.size > 0 && mergedMembers((s as { id?: unknown }).id) === undefined && off.has(name)) continue;
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
