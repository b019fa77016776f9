import { describe, expect, it } from "vitest";
import { checkConditions, conditionDrafts, defaultConditionDrafts, describeCondition, type ConditionDraft } from "./conditions";

const row = (patch: Partial<ConditionDraft> & Pick<ConditionDraft, "severity">): ConditionDraft => ({
  enabled: true,
  op: ">",
  threshold: "",
  threshold2: "",
  ...patch,
});

describe("checkConditions", () => {
  it("turns the rows switched on into conditions, worst first, numbers read from the text", () => {
    const check = checkConditions([
      row({ severity: "critical", threshold: " 90 " }),
      row({ severity: "error", enabled: false, threshold: "oops" }),
      row({ severity: "warning", op: "between", threshold: "-1.5", threshold2: "1e2" }),
      row({ severity: "info", op: "!=", threshold: "0" }),
    ]);
    expect(check.errors).toEqual({});
    expect(check.formError).toBeUndefined();
    expect(check.conditions).toEqual([
      { severity: "critical", op: ">", threshold: 90 },
      { severity: "warning", op: "between", threshold: -1.5, threshold2: 100 },
      { severity: "info", op: "!=", threshold: 0 },
    ]);
  });

  it.each([
    [row({ severity: "critical", threshold: "" }), "Critical: enter a threshold."],
    [row({ severity: "critical", threshold: "ninety" }), "Critical: the threshold must be a number."],
    [row({ severity: "error", op: "outside", threshold: "10" }), "Error: outside needs an upper bound."],
    [row({ severity: "error", op: "between", threshold: "10", threshold2: "x" }), "Error: the upper bound must be a number."],
    [row({ severity: "warning", op: "between", threshold: "10", threshold2: "5" }), "Warning: the upper bound must not be below 10."],
  ])("names the severity and what is wrong: %j", (draft, message) => {
    const check = checkConditions([draft]);
    expect(check.errors[draft.severity]).toBe(message);
    expect(check.conditions).toEqual([]);
  });

  it("needs at least one severity on", () => {
    const check = checkConditions(defaultConditionDrafts().map((d) => ({ ...d, enabled: false })));
    expect(check.formError).toBe("Turn on at least one severity: a monitor needs a condition.");
    expect(check.conditions).toEqual([]);
  });

  it("says which severities a worse condition always overrides", () => {
    const check = checkConditions([
      row({ severity: "critical", threshold: "80" }),
      row({ severity: "error", op: ">=", threshold: "80" }),
      row({ severity: "warning", threshold: "90" }),
      row({ severity: "info", op: "<", threshold: "5" }),
    ]);
    expect(check.unreachable).toEqual({
      warning: "Never reported: critical (> 80) holds whenever this does.",
    });
    // `>= 80` also holds at exactly 80, where critical (> 80) does not: reachable
    expect(check.unreachable.error).toBeUndefined();
    const down = checkConditions([
      row({ severity: "critical", op: "<=", threshold: "5" }),
      row({ severity: "warning", op: "<", threshold: "5" }),
    ]);
    expect(down.unreachable.warning).toBe("Never reported: critical (<= 5) holds whenever this does.");
  });
});

describe("conditionDrafts", () => {
  it("gives one row per severity, on where the monitor has a condition", () => {
    const drafts = conditionDrafts([
      { severity: "warning", op: "outside", threshold: 1, threshold2: 2.5 },
      { severity: "critical", op: "<", threshold: 0.5 },
    ]);
    expect(drafts.map((d) => [d.severity, d.enabled, d.op, d.threshold, d.threshold2])).toEqual([
      ["critical", true, "<", "0.5", ""],
      ["error", false, ">", "", ""],
      ["warning", true, "outside", "1", "2.5"],
      ["info", false, ">", "", ""],
    ]);
    expect(checkConditions(drafts).conditions).toEqual([
      { severity: "critical", op: "<", threshold: 0.5 },
      { severity: "warning", op: "outside", threshold: 1, threshold2: 2.5 },
    ]);
  });

  it("describes a condition as the backend does", () => {
    expect(describeCondition({ op: ">", threshold: 90 })).toBe("> 90");
    expect(describeCondition({ op: "between", threshold: 0.1, threshold2: 2.123456 })).toBe("between 0.1 and 2.1235");
  });
});
