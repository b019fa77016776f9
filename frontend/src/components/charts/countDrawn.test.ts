import { describe, expect, it } from "vitest";
import { countDrawn } from "./countDrawn";

describe("countDrawn", () => {
  it("counts pairs, objects and plain values, skipping gaps", () => {
    const option = {
      series: [
        { data: [[1, 2], [2, null], [3, 4]] },
        { data: [{ value: [1, 5] }, { value: 7 }, 8, "-"] },
      ],
    };
    expect(countDrawn(option)).toEqual({ series: 2, points: 5 });
  });

  it("is zero for options without series", () => {
    expect(countDrawn({})).toEqual({ series: 0, points: 0 });
    expect(countDrawn(null)).toEqual({ series: 0, points: 0 });
    expect(countDrawn({ series: [{ data: [] }] })).toEqual({ series: 1, points: 0 });
  });
});
