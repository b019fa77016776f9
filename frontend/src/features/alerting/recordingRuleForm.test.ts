import { describe, expect, it } from "vitest";
import type { RecordingRule } from "./api";
import { newRecordingRuleDraft, recordingRuleDraft, toRecordingRuleRequest } from "./recordingRuleForm";

const RULE: RecordingRule = {
  id: "r1",
  workspace_id: "w1",
  name: "cpu per minute",
  language: "dql",
  query: "M::cpu:(avg(usage_user)) BY host",
  interval_seconds: 60,
  window_seconds: 60,
  measurement: "cpu_1m",
  field: null,
  enabled: true,
  created_by: null,
  created_at: "2026-11-28T08:00:00Z",
  updated_at: "2026-11-28T08:00:00Z",
  next_eval_at: "2026-11-28T08:01:00Z",
  last_eval_at: null,
  last_error: null,
  last_points: null,
};

describe("recording rule form", () => {
  it("creates a rule from the form", () => {
    const r = toRecordingRuleRequest({
      ...newRecordingRuleDraft(),
      name: "cpu 5m",
      query: "M::cpu:(avg(usage_user)) BY host",
      interval: "5m",
      window: "5m",
      measurement: "cpu_5m",
      field: "usage",
    });
    expect(r).toEqual({
      create: {
        name: "cpu 5m",
        language: "dql",
        query: "M::cpu:(avg(usage_user)) BY host",
        interval_seconds: 300,
        window_seconds: 300,
        measurement: "cpu_5m",
        field: "usage",
        enabled: true,
      },
      errors: {},
    });
  });

  it("refuses bad names, durations below the workspace's limit and empty queries", () => {
    expect(
      toRecordingRuleRequest({ ...newRecordingRuleDraft(), interval: "5s", measurement: "9cpu", field: "a b" }, undefined, 10).errors,
    ).toEqual({
      name: "Name the rule.",
      query: "Write the query whose result is recorded.",
      interval_seconds: "Interval must be at least 10s (this workspace's limit).",
      measurement: "A measurement name starts with a letter or _ and has letters, digits, _ . or - (at most 200).",
      field: "A field name starts with a letter or _ and has letters, digits, _ . or -.",
    });
  });

  it("changes only what changed", () => {
    expect(toRecordingRuleRequest(recordingRuleDraft(RULE), RULE)).toEqual({ update: {}, errors: {} });
    expect(toRecordingRuleRequest({ ...recordingRuleDraft(RULE), interval: "2m", enabled: false }, RULE).update).toEqual({
      interval_seconds: 120,
      enabled: false,
    });
  });
});
