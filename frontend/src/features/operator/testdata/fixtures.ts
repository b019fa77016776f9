import type { OperatorWorkspace, Plan } from "../api";

export const DEFAULT_PLAN: Plan = {
  id: "p-default",
  name: "Default",
  description: "Every new workspace starts on this plan.",
  is_default: true,
  workspaces: 2,
  created_at: "2026-11-28T10:00:00Z",
  updated_at: "2026-11-28T10:00:00Z",
  ingest_points_per_second: 100_000,
  ingest_burst: 200_000,
  max_body_bytes: 16_777_216,
  active_series: 500_000,
  query_timeout_seconds: 30,
  max_points_per_query: 1_000_000,
  concurrent_queries: 8,
  retention_days: 30,
  max_monitors: 200,
  min_monitor_interval_seconds: 10,
  max_notifications_per_hour: 600,
  max_members: 50,
  max_dashboards: 200,
};

export const SMALL_PLAN: Plan = {
  ...DEFAULT_PLAN,
  id: "p-small",
  name: "Small",
  description: null,
  is_default: false,
  workspaces: 0,
  ingest_points_per_second: 1_000,
  retention_days: 7,
};

export const ACME: OperatorWorkspace = {
  id: "0a1b2c3d-0000-4000-8000-000000000001",
  name: "Acme",
  created_at: "2026-11-20T08:00:00Z",
  plan: { id: DEFAULT_PLAN.id, name: DEFAULT_PLAN.name },
  owners: ["ada@example.com"],
  members: 3,
  dashboards: 4,
  suspended_at: null,
  suspended_reason: null,
  usage: {
    active_series: 1234,
    series_total: 1500,
    points_today: 98_765,
    queries_today: 42,
    storage_bytes: 3_145_728,
    stored_samples: 500_000,
    storage_error: null,
  },
};

export const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
