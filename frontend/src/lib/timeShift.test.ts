import { describe, expect, it } from "vitest";
import {
  effectiveTimeShift,
  parseTimeShift,
  shiftPoints,
  shiftRange,
  timeShiftError,
  timeShiftLabel,
  timeShiftParam,
  timeShiftSuffix,
} from "./timeShift";

const DAY = 86_400_000;

describe("parseTimeShift", () => {
  it("reads DQL durations", () => {
    expect(parseTimeShift("1d")).toBe(DAY);
    expect(parseTimeShift("1w")).toBe(7 * DAY);
    expect(parseTimeShift(" 1h30m ")).toBe(90 * 60_000);
  });

  it("refuses empty, malformed, zero and over-a-year shifts", () => {
    expect(parseTimeShift(null)).toBeUndefined();
    expect(parseTimeShift("")).toBeUndefined();
    expect(parseTimeShift("yesterday")).toBeUndefined();
    expect(parseTimeShift("0d")).toBeUndefined();
    expect(parseTimeShift("366d")).toBeUndefined();
  });
});

describe("timeShiftError", () => {
  it("says what is wrong with a custom shift", () => {
    expect(timeShiftError("2d")).toBeUndefined();
    expect(timeShiftError("")).toMatch(/Enter a duration/);
    expect(timeShiftError("2 days")).toMatch(/"2 days" is not a duration/);
    expect(timeShiftError("0h")).toMatch(/longer than zero/);
    expect(timeShiftError("53w")).toMatch(/at most a year/);
  });
});

describe("range math", () => {
  it("queries the past range and moves its points onto the present one", () => {
    const range: [number, number] = [10 * DAY, 10 * DAY + 3_600_000];
    const past = shiftRange(range, DAY);
    expect(past).toEqual([9 * DAY, 9 * DAY + 3_600_000]);
    const points: [number, number | null][] = [
      [past[0], 1],
      [past[0] + 60_000, null],
    ];
    expect(shiftPoints(points, DAY)).toEqual([
      [range[0], 1],
      [range[0] + 60_000, null],
    ]);
  });

  it("labels presets and custom shifts", () => {
    expect(timeShiftLabel("1d")).toBe("vs 1 day ago");
    expect(timeShiftLabel("36h")).toBe("vs 36h ago");
    expect(timeShiftSuffix("1w")).toBe("1w ago");
  });
});

describe("the URL's compare over the dashboard's saved default", () => {
  it("applies the saved default when the URL has no shift", () => {
    expect(effectiveTimeShift(null, "1d")).toBe("1d");
    expect(effectiveTimeShift(null, null)).toBe("");
    expect(effectiveTimeShift(null, undefined)).toBe("");
  });

  it("lets the URL override the default, or switch it off", () => {
    expect(effectiveTimeShift("1w", "1d")).toBe("1w");
    expect(effectiveTimeShift("36h", null)).toBe("36h");
    expect(effectiveTimeShift("off", "1d")).toBe("");
    expect(effectiveTimeShift(" off ", "1d")).toBe("");
  });

  it("ignores a malformed shift in the URL or in the spec", () => {
    expect(effectiveTimeShift("yesterday", "1d")).toBe("1d");
    expect(effectiveTimeShift("", "1d")).toBe("1d");
    expect(effectiveTimeShift("0d", null)).toBe("");
    expect(effectiveTimeShift(null, "2 days")).toBe("");
  });

  it("writes the shortest parameter that keeps the chosen shift", () => {
    // Choosing the default removes the parameter; anything else is spelled out.
    expect(timeShiftParam("1d", "1d")).toBeNull();
    expect(timeShiftParam("", null)).toBeNull();
    expect(timeShiftParam("1w", "1d")).toBe("1w");
    expect(timeShiftParam("1d", null)).toBe("1d");
    expect(timeShiftParam("", "1d")).toBe("off");
  });

  it("round-trips: the parameter written for a choice reads back as that choice", () => {
    for (const saved of [null, "1d", "1w"]) {
      for (const shift of ["", "1h", "1d", "1w", "36h"]) {
        expect(effectiveTimeShift(timeShiftParam(shift, saved), saved)).toBe(shift);
      }
    }
  });
});
