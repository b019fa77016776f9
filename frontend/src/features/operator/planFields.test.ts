import { describe, expect, it } from "vitest";
import type { Plan } from "./api";
import { describeLowered, formatBound, parsePlanDraft, PLAN_FIELDS, planChanges, toPlanDraft } from "./planFields";

const plan: Plan = {
  id: "p1",
  name: "Team",
  description: null,
  is_default: false,
  workspaces: 2,
  created_at: "2026-11-28T10:00:00Z",
  updated_at: "2026-11-28T10:00:00Z",
  ingest_points_per_second: 10_000,
  ingest_burst: 20_000,
  max_body_bytes: 16_777_216,
  active_series: 100_000,
  query_timeout_seconds: 30,
  max_points_per_query: 1_000_000,
  concurrent_queries: 4,
  retention_days: 30,
  max_monitors: 50,
  min_monitor_interval_seconds: 60,
  max_notifications_per_hour: 100,
  max_members: 10,
  max_dashboards: 20,
};

describe("PLAN_FIELDS", () => {
  it("has every bound of a plan once", () => {
    const bounds = Object.keys(plan).filter((k) => !["id", "name", "description", "is_default", "workspaces", "created_at", "updated_at"].includes(k));
    expect(PLAN_FIELDS.map((f) => f.key).sort()).toEqual(bounds.sort());
  });

  it("has one floor, the monitor interval", () => {
    expect(PLAN_FIELDS.filter((f) => f.direction === "floor").map((f) => f.key)).toEqual(["min_monitor_interval_seconds"]);
  });
});

describe("parsePlanDraft", () => {
  it("reads a copy of a plan back as the same bounds", () => {
    const { body, errors } = parsePlanDraft(toPlanDraft(plan, " Team copy "));
    expect(errors).toEqual({});
    expect(body).toMatchObject({ name: "Team copy", description: null, max_body_bytes: 16_777_216, min_monitor_interval_seconds: 60 });
  });

  it("names each field it refuses", () => {
    const draft = toPlanDraft(plan, "");
    draft.bounds.max_members = "0";
    draft.bounds.ingest_burst = "2,5";
    draft.bounds.retention_days = "ten";
    const { body, errors } = parsePlanDraft(draft);
    expect(body).toBeNull();
    expect(errors).toEqual({
      name: "Name the plan.",
      max_members: "Members must be between 1 and 100,000 members.",
      retention_days: "Retention must be a whole number.",
    });
    expect(parsePlanDraft({ ...toPlanDraft(plan), name: "x".repeat(65) }).errors.name).toBe("A plan's name has at most 64 characters.");
  });
});

describe("planChanges", () => {
  it("sends only what changed", () => {
    const draft = toPlanDraft(plan);
    draft.bounds.retention_days = "7";
    draft.description = "Small teams";
    const { body } = parsePlanDraft(draft);
    expect(planChanges(plan, body!)).toEqual({ retention_days: 7, description: "Small teams" });
    expect(planChanges(plan, parsePlanDraft(toPlanDraft(plan)).body!)).toEqual({});
  });
});

describe("formatBound and describeLowered", () => {
  const field = (key: string) => PLAN_FIELDS.find((f) => f.key === key)!;

  it("reads like the limits page", () => {
    expect(formatBound(field("max_body_bytes"), 16_777_216)).toBe("16 MiB");
    expect(formatBound(field("ingest_points_per_second"), 100_000)).toBe("100,000 points/s");
    expect(formatBound(field("min_monitor_interval_seconds"), 60)).toBe("at least 60 s");
  });

  it("lists what a plan change lowered in the fields' order", () => {
    expect(
      describeLowered({
        retention_days: { from: 30, to: 7 },
        ingest_points_per_second: { from: 100_000, to: 1_000 },
        max_body_bytes: { from: 16_777_216, to: 65_536 },
      }),
    ).toEqual(["Ingest rate 100,000 → 1,000 points/s", "Request body size 16 MiB → 64 KiB", "Retention 30 → 7 days"]);
  });
});
