/*
 * A workspace's limits as fields: what each means, its unit and the range the API takes.
 * Settings › Limits edits a workspace's values within its plan; the Operator area edits the
 * plans' bounds of the same fields.
 */
import type { LimitsPublic as Limits, LimitsUpdate } from "@/client/types.gen";
import { formatNumber } from "./format";

export type LimitKey = keyof Limits & keyof LimitsUpdate;

export interface LimitField {
  key: LimitKey;
  label: string;
  unit: string;
  min: number;
  max: number;
  help: string;
  /** A ceiling: the limit is at most its plan's bound; a floor (the monitor interval): at least. */
  direction: "ceiling" | "floor";
}

/**
 * The workspace limits the backend enforces, with the range it accepts whatever the plan
 * (schemas/limits.py); each is also within its plan's bound (`Limits.ceilings`): at most it,
 * or at least it for a floor.
 */
export const LIMIT_FIELDS: LimitField[] = [
  {
    key: "ingest_points_per_second",
    label: "Ingest rate",
    unit: "points/s",
    min: 1,
    max: 100_000_000,
    help: "Sustained points per second the gateway accepts; above it writes get 429.",
    direction: "ceiling",
  },
  {
    key: "ingest_burst",
    label: "Ingest burst",
    unit: "points",
    min: 1,
    max: 1_000_000_000,
    help: "Points accepted at once above the sustained rate.",
    direction: "ceiling",
  },
  {
    key: "max_body_bytes",
    label: "Request body size",
    unit: "bytes",
    min: 1024,
    max: 1_073_741_824,
    help: "Largest write request, after decompression; larger ones get 413.",
    direction: "ceiling",
  },
  {
    key: "active_series",
    label: "Active series",
    unit: "series",
    min: 1,
    max: 1_000_000_000,
    help: "Series that received a point in the last hour; above it, points of new series are left out (counted under Usage), while existing series keep receiving points.",
    direction: "ceiling",
  },
  {
    key: "query_timeout_seconds",
    label: "Query timeout",
    unit: "s",
    min: 1,
    max: 600,
    help: "A query running longer is cancelled.",
    direction: "ceiling",
  },
  {
    key: "max_points_per_query",
    label: "Points per query",
    unit: "points",
    min: 1,
    max: 1_000_000_000,
    help: "Most samples one query may read.",
    direction: "ceiling",
  },
  {
    key: "retention_days",
    label: "Retention",
    unit: "days",
    min: 1,
    max: 3650,
    help: "How far back data is kept: older points are refused at ingest, never read by a query, and deleted from storage.",
    direction: "ceiling",
  },
  {
    key: "concurrent_queries",
    label: "Concurrent queries",
    unit: "queries",
    min: 1,
    max: 64,
    help: "Queries that run at once; more wait their turn, and when too many wait, queries get 429.",
    direction: "ceiling",
  },
  {
    key: "max_monitors",
    label: "Monitors",
    unit: "monitors and recording rules",
    min: 0,
    max: 100_000,
    help: "Monitors and recording rules the workspace may have together; creating one more gets 429.",
    direction: "ceiling",
  },
  {
    key: "min_monitor_interval_seconds",
    label: "Shortest evaluation interval",
    unit: "s",
    min: 1,
    max: 86_400,
    help: "Monitors and recording rules run at most this often.",
    direction: "floor",
  },
  {
    key: "max_notifications_per_hour",
    label: "Notifications per hour",
    unit: "notifications",
    min: 0,
    max: 1_000_000,
    help: "Alert notifications sent per hour; past it they are recorded as throttled, not sent.",
    direction: "ceiling",
  },
  {
    key: "max_members",
    label: "Members",
    unit: "members",
    min: 1,
    max: 100_000,
    help: "Members and pending invitations together; inviting beyond it gets 429.",
    direction: "ceiling",
  },
  {
    key: "max_dashboards",
    label: "Dashboards",
    unit: "dashboards",
    min: 1,
    max: 100_000,
    help: "Creating or importing a dashboard beyond it gets 429.",
    direction: "ceiling",
  },
];

/**
 * A whole number typed in a field with a range (spaces, `_` and `,` group digits), or why it
 * is refused, naming the field.
 */
export function parseWhole(typed: string, f: Pick<LimitField, "label" | "unit" | "min" | "max">): number | string {
  const text = typed.replace(/[\s_,]/g, "");
  if (!/^\d+$/.test(text)) return `${f.label} must be a whole number.`;
  const value = Number(text);
  if (value < f.min || value > f.max) {
    return `${f.label} must be between ${formatNumber(f.min)} and ${formatNumber(f.max)} ${f.unit}.`;
  }
  return value;
}
