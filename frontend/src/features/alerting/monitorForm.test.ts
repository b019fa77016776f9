import { describe, expect, it } from "vitest";
import type { Monitor } from "./api";
import { checkMonitor, draftPreview, monitorChanges, monitorDraft, newMonitorDraft, readDuration, type MonitorDraft } from "./monitorForm";

const valid = (patch: Partial<MonitorDraft> = {}): MonitorDraft => ({
  ...newMonitorDraft("M::cpu:(avg(usage_user)) BY host"),
  name: "CPU busy",
  ...patch,
});

const SAVED: Monitor = {
  id: "m1",
  workspace_id: "w1",
  name: "CPU busy",
  description: "",
  enabled: true,
  language: "dql",
  query: "M::cpu:(avg(usage_user)) BY host",
  interval_seconds: 60,
  window_seconds: 300,
  reducer: "last",
  conditions: [{ severity: "critical", op: ">", threshold: 90, threshold2: null }],
  change: null,
  for_seconds: 0,
  group_grace_seconds: 300,
  new_group_delay_seconds: 0,
  no_data: { action: "keep", after_seconds: 600, severity: "warning" },
  routes: { critical: ["c1"] },
  renotify_minutes: null,
  notify_resolved: true,
  title: "[{{severity}}] {{monitor}} is {{status}}",
  message: "{{monitor}} is {{status}} for {{tags}}: the value is {{value}} ({{condition}}).",
  runbook_url: null,
  created_by: null,
  created_at: "2026-11-28T08:00:00Z",
  updated_at: "2026-11-28T08:00:00Z",
  next_eval_at: "2026-11-28T08:01:00Z",
  last_eval_at: null,
  last_eval_ms: null,
  last_error: null,
  status: "ok",
  severity: null,
  value: null,
  groups: { ok: 0, pending: 0, firing: 0, nodata: 0 },
  muted: false,
};

describe("readDuration", () => {
  it.each([
    ["90s", 90],
    ["5m", 300],
    ["1h30m", 5400],
    ["0s", 0],
  ])("reads %s as %i seconds", (text, seconds) => {
    expect(readDuration(text, { label: "For", min: 0, max: 86_400 })).toEqual({ seconds });
  });

  it.each([
    ["", "For: write a duration such as 30s, 5m, 1h or 1d."],
    ["5 minutes", "For: write a duration such as 30s, 5m, 1h or 1d."],
    ["1500ms", "For: use whole seconds."],
    ["2d", "For must be between 0s and 1d."],
  ])("refuses %j: %s", (text, error) => {
    expect(readDuration(text, { label: "For", min: 0, max: 86_400 })).toEqual({ error });
  });

  it("asks for whole minutes where the API counts minutes", () => {
    expect(readDuration("90s", { label: "Renotify", min: 60, max: 3600, minutes: true }).error).toBe("Renotify: use whole minutes.");
  });
});

describe("checkMonitor", () => {
  it("builds the create request from the form", () => {
    const draft = valid({
      interval: "30s",
      forDuration: "2m",
      renotify: "1h",
      routes: { critical: ["c1"], error: [], warning: ["c1", "c2"], info: [] },
      changeOn: true,
      changeCompare: "1w",
      changeMode: "absolute",
      noDataAction: "alert",
      noDataSeverity: "error",
      runbookUrl: " https://wiki.example.com/cpu ",
    });
    const { body, errors } = checkMonitor(draft);
    expect(errors).toEqual({});
    expect(body).toEqual({
      name: "CPU busy",
      description: "",
      enabled: true,
      language: "dql",
      query: "M::cpu:(avg(usage_user)) BY host",
      interval_seconds: 30,
      window_seconds: 300,
      reducer: "last",
      conditions: [{ severity: "critical", op: ">", threshold: 90 }],
      change: { compare_to_seconds: 604_800, mode: "absolute" },
      for_seconds: 120,
      group_grace_seconds: 300,
      new_group_delay_seconds: 0,
      no_data: { action: "alert", after_seconds: 600, severity: "error" },
      routes: { critical: ["c1"], warning: ["c1", "c2"] },
      renotify_minutes: 60,
      notify_resolved: true,
      title: "[{{severity}}] {{monitor}} is {{status}}",
      message: "{{monitor}} is {{status}} for {{tags}}: the value is {{value}} ({{condition}}).",
      runbook_url: "https://wiki.example.com/cpu",
    });
  });

  it("keys each error by the API's field, so the server's land in the same place", () => {
    const { body, errors } = checkMonitor(
      valid({
        name: " ",
        query: "",
        interval: "5s",
        window: "8d",
        noDataAfter: "0s",
        title: "",
        runbookUrl: "wiki/cpu",
        conditions: valid().conditions.map((c) => (c.severity === "critical" ? { ...c, threshold: "high" } : c)),
      }),
      { minIntervalSeconds: 10 },
    );
    expect(body).toBeUndefined();
    expect(errors).toEqual({
      name: "Give the monitor a name.",
      query: "Write the query the monitor runs.",
      interval_seconds: "Interval must be at least 10s (this workspace's limit).",
      window_seconds: "Window must be between 1s and 7d.",
      "no_data.after_seconds": "No data after must be between 1s and 7d.",
      title: "The title cannot be empty: it is the notification's subject.",
      runbook_url: "The runbook link must start with http:// or https://.",
      "conditions.critical": "Critical: the threshold must be a number.",
    });
  });

  it("previews what can run while other fields are still wrong", () => {
    expect(draftPreview(valid({ name: "", title: "" }))).toMatchObject({
      query: "M::cpu:(avg(usage_user)) BY host",
      interval_seconds: 60,
      conditions: [{ severity: "critical", op: ">", threshold: 90 }],
      hours: 24,
    });
    expect(draftPreview(valid({ query: " " }))).toBeUndefined();
    expect(draftPreview(valid({ interval: "5s" }), { minIntervalSeconds: 10 })).toBeUndefined();
  });
});

describe("monitorChanges", () => {
  it("sends nothing for a monitor opened and saved as it was", () => {
    const { body } = checkMonitor(monitorDraft(SAVED));
    expect(body).toBeDefined();
    expect(monitorChanges(SAVED, body!)).toEqual({});
  });

  it("sends only the fields changed; routes as a whole map", () => {
    const draft = monitorDraft(SAVED);
    draft.interval = "2m";
    draft.routes = { ...draft.routes, critical: [], warning: ["c2"] };
    draft.conditions = draft.conditions.map((c) => (c.severity === "critical" ? { ...c, threshold: "95" } : c));
    const { body } = checkMonitor(draft);
    expect(monitorChanges(SAVED, body!)).toEqual({
      interval_seconds: 120,
      conditions: [{ severity: "critical", op: ">", threshold: 95 }],
      routes: { critical: [], error: [], warning: ["c2"], info: [] },
    });
  });
});
