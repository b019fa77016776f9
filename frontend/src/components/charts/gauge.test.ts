import { describe, expect, it } from "vitest";
import { arcPath, dialBands, dialFraction, gaugeRange, niceCeil } from "./gauge";

describe("gauge", () => {
  it("ends the dial at 100 for percent, 1 for percentunit, else at the largest value rounded up", () => {
    expect(gaugeRange([85, 5], "percent")).toEqual({ min: 0, max: 100 });
    expect(gaugeRange([0.3], "percentunit")).toEqual({ min: 0, max: 1 });
    expect(gaugeRange([85, 130, undefined], "ms")).toEqual({ min: 0, max: 200 });
    expect(gaugeRange([1_900_000], "bytes")).toEqual({ min: 0, max: 2_000_000 });
    expect(gaugeRange([], "none")).toEqual({ min: 0, max: 1 });
    // the panel's own ends win; a start above every value still leaves a range
    expect(gaugeRange([85], "percent", 20, 90)).toEqual({ min: 20, max: 90 });
    expect(gaugeRange([3], "none", 10)).toEqual({ min: 10, max: 11 });
  });

  it("rounds up to 1, 2, 2.5 or 5 times a power of ten", () => {
    expect([0.7, 1, 1.2, 2.2, 3, 7, 85, 101, 0].map(niceCeil)).toEqual([1, 1, 2, 2.5, 5, 10, 100, 200, 1]);
  });

  it("places a value on the dial, held inside it", () => {
    expect(dialFraction(25, 0, 100)).toBe(0.25);
    expect(dialFraction(-5, 0, 100)).toBe(0);
    expect(dialFraction(500, 0, 100)).toBe(1);
  });

  it("draws arcs clockwise from the lower left, the long way round past half the dial", () => {
    // the whole dial: from 225° to -45°, 270° of it
    expect(arcPath(50, 50, 40, 0, 1)).toBe("M 21.72 78.28 A 40 40 0 1 1 78.28 78.28");
    // the first third: from 225° to 135°, short
    expect(arcPath(50, 50, 40, 0, 1 / 3)).toBe("M 21.72 78.28 A 40 40 0 0 1 21.72 21.72");
  });

  it("bands the dial by the thresholds, from the base colour at the start", () => {
    const steps = [
      { value: 80, color: "red" },
      { value: 50, color: "yellow" },
      { value: 150, color: "purple" },
    ];
    expect(dialBands(steps, 0, 100, "green")).toEqual([
      { from: 0, to: 0.5, color: "green" },
      { from: 0.5, to: 0.8, color: "yellow" },
      { from: 0.8, to: 1, color: "red" },
    ]);
    expect(dialBands([], 0, 100, "green")).toEqual([{ from: 0, to: 1, color: "green" }]);
  });
});
