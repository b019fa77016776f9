import { describe, expect, it } from "vitest";
import { describeGroups } from "./severity";

describe("describeGroups", () => {
  it("counts the groups in each state, worst first, and leaves out empty states", () => {
    expect(describeGroups({ ok: 5, firing: 2, pending: 0, nodata: 1 })).toBe("2 firing · 1 no data · 5 ok");
  });

  it("says when there are no groups yet", () => {
    expect(describeGroups({})).toBe("no groups yet");
    expect(describeGroups({ ok: 0 })).toBe("no groups yet");
  });
});
