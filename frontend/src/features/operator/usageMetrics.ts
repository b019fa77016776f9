import { formatBytes, formatNumber } from "@/lib/format";
import type { OperatorWorkspace } from "./api";

export type UsageMetric = "active_series" | "points_today" | "queries_today" | "storage_bytes";

/** The usage figures an operator ranks workspaces by, in the order the pages show them. */
export const USAGE_METRICS: { key: UsageMetric; label: string }[] = [
  { key: "active_series", label: "Active series" },
  { key: "points_today", label: "Points today" },
  { key: "queries_today", label: "Queries today" },
  { key: "storage_bytes", label: "Storage" },
];

/** A figure as the tables show it; `–` when storage could not say. */
export function formatMetric(metric: UsageMetric, value: number | null | undefined): string {
  if (value === null || value === undefined) return "–";
  return metric === "storage_bytes" ? formatBytes(value) : formatNumber(value);
}

export function metricOf(w: OperatorWorkspace, metric: UsageMetric): number | null {
  return w.usage[metric] ?? null;
}
