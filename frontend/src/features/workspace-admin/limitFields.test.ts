import { describe, expect, it } from "vitest";
import { formatNumber } from "@/lib/format";
import { LIMIT_FIELDS } from "@/lib/limitFields";
import type { Limits } from "./api";
import { ceilingHint, diffLimits, toDraft } from "./limitFields";

const values = {
  ingest_points_per_second: 10_000,
  ingest_burst: 50_000,
  max_body_bytes: 10_485_760,
  active_series: 100_000,
  query_timeout_seconds: 30,
  max_points_per_query: 5_000_000,
  retention_days: 30,
  concurrent_queries: 4,
  max_monitors: 100,
  min_monitor_interval_seconds: 10,
  max_notifications_per_hour: 200,
  max_members: 10,
  max_dashboards: 20,
};
const ceilings = {
  ingest_points_per_second: 20_000,
  ingest_burst: 60_000,
  max_body_bytes: 16_777_216,
  active_series: 200_000,
  query_timeout_seconds: 60,
  max_points_per_query: 5_000_000,
  retention_days: 90,
  concurrent_queries: 8,
  max_monitors: 200,
  min_monitor_interval_seconds: 5, // a floor
  max_notifications_per_hour: 400,
  max_members: 12,
  max_dashboards: 40,
};
const limits: Limits = { ...values, plan: { id: "p1", name: "Team" }, ceilings };

describe("diffLimits", () => {
  it("returns only what changed, grouping digits allowed", () => {
    const draft = { ...toDraft(limits), ingest_points_per_second: "20,000", retention_days: " 7 " };
    expect(diffLimits(limits, draft)).toEqual({
      changes: { ingest_points_per_second: 20_000, retention_days: 7 },
      errors: {},
    });
    expect(diffLimits(limits, toDraft(limits)).changes).toEqual({});
  });

  it("names the field and the bounds the backend accepts", () => {
    const draft = { ...toDraft(limits), query_timeout_seconds: "0", max_body_bytes: "12.5", active_series: "" };
    const { changes, errors } = diffLimits(limits, draft);
    expect(changes).toEqual({});
    expect(errors.query_timeout_seconds).toBe("Query timeout must be between 1 and 600 s.");
    expect(errors.max_body_bytes).toBe("Request body size must be a whole number.");
    expect(errors.active_series).toBe("Active series must be a whole number.");
  });

  it("covers every limit the API returns", () => {
    expect(LIMIT_FIELDS.map((f) => f.key).sort()).toEqual(Object.keys(values).sort());
  });

  it.each(LIMIT_FIELDS.filter((f) => f.direction === "ceiling").map((f) => [f.key, f] as const))(
    "refuses %s above the plan's ceiling, takes it at and below",
    (key, f) => {
      const ceiling = ceilings[key];
      const above = diffLimits(limits, { ...toDraft(limits), [key]: String(ceiling + 1) });
      expect(above.changes).toEqual({});
      expect(above.errors).toEqual({
        [key]: `${f.label} can be at most ${formatNumber(ceiling)} ${f.unit}, the ceiling of the plan Team; a platform operator sets the plan.`,
      });
      for (const value of [ceiling, Math.max(f.min, Math.floor(ceiling / 2))]) {
        const ok = diffLimits(limits, { ...toDraft(limits), [key]: String(value) });
        expect(ok.errors).toEqual({});
        expect(ok.changes).toEqual(value === limits[key] ? {} : { [key]: value });
      }
    },
  );

  it("refuses a monitor interval below the plan's floor, takes it at and above", () => {
    const below = diffLimits(limits, { ...toDraft(limits), min_monitor_interval_seconds: "4" });
    expect(below).toEqual({
      changes: {},
      errors: {
        min_monitor_interval_seconds:
          "Shortest evaluation interval must be at least 5 s, the floor of the plan Team; a platform operator sets the plan.",
      },
    });
    for (const value of [5, 60]) {
      const ok = diffLimits(limits, { ...toDraft(limits), min_monitor_interval_seconds: String(value) });
      expect(ok).toEqual({ changes: { min_monitor_interval_seconds: value }, errors: {} });
    }
  });

  it("checks the range the API takes before the ceiling", () => {
    const { errors } = diffLimits(limits, { ...toDraft(limits), retention_days: "4000" });
    expect(errors.retention_days).toBe("Retention must be between 1 and 3,650 days.");
  });
});

describe("ceilingHint", () => {
  it("says the plan's ceiling in the field's unit", () => {
    const field = (key: string) => LIMIT_FIELDS.find((f) => f.key === key)!;
    expect(ceilingHint(limits, field("ingest_burst"))).toBe("Plan ceiling: 60,000 points.");
    expect(ceilingHint(limits, field("max_body_bytes"))).toBe("Plan ceiling: 16 MiB.");
    expect(ceilingHint(limits, field("min_monitor_interval_seconds"))).toBe("Plan floor: 5 s.");
  });
});
