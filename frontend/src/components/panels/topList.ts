import { reducePoints, type Reducer } from "@/components/charts/statReduce";
import { thresholdColor, type ThresholdStep } from "@/components/charts/thresholds";
import type { ChartSeries } from "./toLineSeriesOption";

/** How many rows a top list shows when the panel does not say (the schema's default). */
export const TOP_LIST_LIMIT = 10;

export interface TopListSettings {
  /** How each series becomes its one value; `last` when the panel does not say. */
  reduce?: Reducer | null;
  /** Rows shown; the rest are counted. */
  limit?: number;
  /** `desc`: largest first (the default); `asc`: smallest first. */
  order?: "desc" | "asc";
  thresholds?: readonly ThresholdStep[];
}

export interface TopListRow {
  name: string;
  /** The reduced value; undefined when the series had no values. */
  value: number | undefined;
  /** Length of the bar, 0–1 of the longest one. */
  share: number;
  /** The threshold colour of the value, when the panel has thresholds. */
  color?: string;
}

export interface TopList {
  rows: TopListRow[];
  /** Series left out by the limit. */
  more: number;
}

/**
 * A top list: each series reduced to one value, sorted (largest first unless `order` is
 * `asc`; series without a value last), cut to `limit`, with the length of each bar against
 * the largest magnitude shown and the value's threshold colour.
 */
export function toTopList(series: readonly ChartSeries[], settings: TopListSettings = {}): TopList {
  const reducer: Reducer = settings.reduce ?? "last";
  const sign = settings.order === "asc" ? 1 : -1;
  const all = series.map((s) => ({ name: s.name, value: reducePoints(s.points, reducer) }));
  all.sort((a, b) => {
    if (a.value === undefined || b.value === undefined) {
      return a.value === b.value ? a.name.localeCompare(b.name) : a.value === undefined ? 1 : -1;
    }
    return a.value === b.value ? a.name.localeCompare(b.name) : sign * (a.value - b.value);
  });
  const limit = Math.max(1, settings.limit ?? TOP_LIST_LIMIT);
  const shown = all.slice(0, limit);
  let top = 0;
  for (const r of shown) if (r.value !== undefined && Number.isFinite(r.value)) top = Math.max(top, Math.abs(r.value));
  const hasThresholds = (settings.thresholds?.length ?? 0) > 0;
  return {
    rows: shown.map((r) => ({
      ...r,
      share: r.value === undefined || top === 0 ? 0 : Math.abs(r.value) / top,
      color: hasThresholds ? thresholdColor(r.value, settings.thresholds) : undefined,
    })),
    more: all.length - shown.length,
  };
}
