import type { ConditionOp, EventKind, MonitorStatus, NotificationStatus, Reducer, Severity, SilenceState } from "./api";

/** Worst first: when several conditions hold, the first of these is reported (as the evaluator does). */
export const SEVERITIES: readonly Severity[] = ["critical", "error", "warning", "info"];

export const SEVERITY_LABELS: Record<Severity, string> = {
  critical: "Critical",
  error: "Error",
  warning: "Warning",
  info: "Info",
};

// the colours alert severities take on charts, and an event's tags in words, are shared with
// the panels that mark alerts
export { RESOLVED_COLOR, SEVERITY_COLORS } from "@/components/charts/palette";
export { describeTags } from "@/api/alertEvents";

export const OPS: readonly { value: ConditionOp; label: string }[] = [
  { value: ">", label: "above (>)" },
  { value: ">=", label: "at or above (>=)" },
  { value: "<", label: "below (<)" },
  { value: "<=", label: "at or below (<=)" },
  { value: "==", label: "equal to (==)" },
  { value: "!=", label: "not equal to (!=)" },
  { value: "between", label: "between" },
  { value: "outside", label: "outside" },
];

export const REDUCERS: readonly { value: Reducer; label: string }[] = [
  { value: "last", label: "last" },
  { value: "avg", label: "average" },
  { value: "min", label: "minimum" },
  { value: "max", label: "maximum" },
  { value: "sum", label: "sum" },
];

/** How a monitor's page says what each reducer takes: "the average over the last 5m". */
export const REDUCER_PHRASES: Record<Reducer, string> = {
  last: "the latest value",
  avg: "the average",
  min: "the minimum",
  max: "the maximum",
  sum: "the sum",
};

export const STATUS_LABELS: Record<MonitorStatus, string> = {
  firing: "Firing",
  nodata: "No data",
  pending: "Pending",
  error: "Error",
  ok: "OK",
  disabled: "Disabled",
};

/** Worst first: how the monitors list sorts and what its status filter offers. */
export const STATUS_ORDER: readonly MonitorStatus[] = ["firing", "nodata", "pending", "error", "ok", "disabled"];

export const KIND_LABELS: Record<EventKind, string> = {
  firing: "Firing",
  resolved: "Resolved",
  pending: "Pending",
  nodata: "No data",
  ok: "OK",
};

export const EVENT_KINDS: readonly EventKind[] = ["firing", "resolved", "pending", "nodata", "ok"];

export const NOTIFICATION_STATUS_LABELS: Record<NotificationStatus, string> = {
  sent: "Sent",
  pending: "Waiting to retry",
  failed: "Failed",
  throttled: "Throttled",
};

export const SILENCE_STATE_LABELS: Record<SilenceState, string> = {
  active: "Active",
  scheduled: "Scheduled",
  pending: "Pending",
  expired: "Expired",
};

/** A value as the backend's messages write it: up to 4 decimals, no trailing zeros. */
export function formatAlertValue(x: number | null | undefined): string {
  if (x === null || x === undefined) return "no value";
  if (Number.isNaN(x)) return "NaN";
  if (Number.isInteger(x) && Math.abs(x) < 1e15) return String(x);
  return x.toFixed(4).replace(/0+$/, "").replace(/\.$/, "");
}

/** `2 firing · 1 pending · 5 ok`: how many groups are in each state (none: "no groups yet"). */
export function describeGroups(groups: Record<string, number>): string {
  const parts = (["firing", "nodata", "pending", "ok"] as const)
    .filter((s) => (groups[s] ?? 0) > 0)
    .map((s) => `${groups[s]} ${s === "nodata" ? "no data" : s}`);
  return parts.join(" · ") || "no groups yet";
}
