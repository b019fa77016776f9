import { describe, expect, it } from "vitest";
import { reducePoints, sparklinePath } from "./statReduce";

const pts: [number, number | null][] = [
  [1, 4],
  [2, null],
  [3, 10],
  [4, 1],
];

describe("reducePoints", () => {
  it.each([
    ["last", 1],
    ["first", 4],
    ["min", 1],
    ["max", 10],
    ["sum", 15],
    ["avg", 5],
    ["count", 3],
  ] as const)("%s skips gaps → %s", (reducer, expected) => {
    expect(reducePoints(pts, reducer)).toBe(expected);
  });

  it("has no value for an empty series (count is 0)", () => {
    expect(reducePoints([[1, null]], "last")).toBeUndefined();
    expect(reducePoints([], "count")).toBe(0);
  });
});

describe("sparklinePath", () => {
  it("scales time to the width and value to the height, breaking at gaps", () => {
    expect(sparklinePath(pts, 30, 9)).toBe("M0 6 M20 0 L30 9");
  });

  it("draws a flat series in the middle and nothing without values", () => {
    expect(sparklinePath([[0, 2], [10, 2]], 10, 4)).toBe("M0 2 L10 2");
    expect(sparklinePath([[0, null]], 10, 4)).toBe("");
  });
});
