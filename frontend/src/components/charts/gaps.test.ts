import { describe, expect, it } from "vitest";
import { withGaps } from "./gaps";

const MIN = 60_000;

describe("withGaps", () => {
  it("breaks the line where buckets are missing", () => {
    const points: [number, number | null][] = [
      [0, 1],
      [MIN, 2],
      [2 * MIN, 3],
      [13 * MIN, 4],
      [14 * MIN, 5],
    ];
    expect(withGaps(points)).toEqual([
      [0, 1],
      [MIN, 2],
      [2 * MIN, 3],
      [3 * MIN, null],
      [13 * MIN, 4],
      [14 * MIN, 5],
    ]);
  });

  it("breaks at a single missing bucket", () => {
    const points: [number, number | null][] = [
      [0, 1],
      [MIN, 2],
      [3 * MIN, 3],
      [4 * MIN, 4],
    ];
    expect(withGaps(points).map((p) => p[1])).toEqual([1, 2, null, 3, 4]);
  });

  it("returns the same array when nothing is missing, jitter included", () => {
    const points: [number, number | null][] = [
      [0, 1],
      [10_100, 2],
      [19_900, 3],
      [30_300, 4],
      [40_000, 5],
    ];
    expect(withGaps(points)).toBe(points);
  });

  it("leaves lines too short to have a usual spacing alone", () => {
    const two: [number, number | null][] = [
      [0, 1],
      [50 * MIN, 2],
    ];
    expect(withGaps(two)).toBe(two);
    expect(withGaps([])).toEqual([]);
  });
});
