import { describe, expect, it } from "vitest";
import { describeOperatorDetails } from "./AuditPage";

describe("describeOperatorDetails", () => {
  it("puts an event's details on one line, nested ones as JSON, empty ones left out", () => {
    expect(
      describeOperatorDetails({
        from: "Default",
        to: "Small",
        limits_lowered: { retention_days: { from: 30, to: 7 } },
        reason: null,
        nothing: {},
      }),
    ).toBe('from: Default · to: Small · limits_lowered: {"retention_days":{"from":30,"to":7}}');
  });
});
