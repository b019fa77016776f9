import type { Limits, LimitsUpdate } from "./api";

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

/** The plan's bound of a limit, as the field's hint says it. */
export function ceilingHint(limits: Limits, f: LimitField): string {
  const bound = limits.ceilings[f.key];
  const shown = f.key === "max_body_bytes" ? formatBytes(bound) : `${formatNumber(bound)} ${f.unit}`;
  return `Plan ${f.direction}: ${shown}.`;
}

export type LimitsDraft = Record<LimitKey, string>;

export function toDraft(limits: Limits): LimitsDraft {
  return Object.fromEntries(LIMIT_FIELDS.map((f) => [f.key, String(limits[f.key])])) as LimitsDraft;
}

/**
 * Compares the edited values with the current limits: the fields that changed (ready to
 * PATCH) and, per field, why a value is refused — outside the range the API takes, or outside
 * the plan's bound (which the API refuses too, with 422). Spaces, `_` and `,` group digits.
 */
export function diffLimits(
  current: Limits,
  draft: LimitsDraft,
): { changes: LimitsUpdate; errors: Partial<Record<LimitKey, string>> } {
  const changes: LimitsUpdate = {};
  const errors: Partial<Record<LimitKey, string>> = {};
  for (const f of LIMIT_FIELDS) {
    const value = parseWhole(draft[f.key], f);
    if (typeof value === "string") {
      errors[f.key] = value;
      continue;
    }
    const bound = current.ceilings[f.key];
    if (f.direction === "ceiling" ? value > bound : value < bound) {
      const most = f.direction === "ceiling" ? "can be at most" : "must be at least";
      errors[f.key] =
        `${f.label} ${most} ${formatNumber(bound)} ${f.unit}, the ${f.direction} of the plan ${current.plan.name}; ` +
        "a platform operator sets the plan.";
      continue;
    }
    if (value !== current[f.key]) changes[f.key] = value;
  }
  return { changes, errors };
}

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

/** `1234567` → `1,234,567`. */
export function formatNumber(n: number): string {
  return n.toLocaleString("en-US", { maximumFractionDigits: 2 });
}

/** Bytes in the largest binary unit that keeps the number ≥ 1: `1048576` → `1 MiB`. */
export function formatBytes(n: number): string {
  const units = ["B", "KiB", "MiB", "GiB"];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i += 1;
  }
  return `${formatNumber(Math.round(v * 100) / 100)} ${units[i]}`;
}
