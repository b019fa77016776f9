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

  it("counts a merged series as the lines it draws", () => {
    const option = { series: [{ id: "lines:3:0", data: [[1, 2], [1, null], [1, 3], [1, null], [1, 4]] }, { id: "x", data: [] }] };
    expect(countDrawn(option)).toEqual({ series: 4, points: 3 });
  });

  it("counts the numbers of flat [x, y, …] data, NaN being a gap", () => {
    const option = { series: [{ id: "lines:2:0", data: new Float64Array([1, 2, 1, NaN, 1, 3]) }] };
    expect(countDrawn(option)).toEqual({ series: 2, points: 2 });
  });

  it("leaves out series switched off in the legend", () => {
    const option = {
      legend: { selected: { b: false, a: true } },
      series: [
        { name: "a", data: [[1, 2]] },
        { name: "b", data: [[1, 3], [2, 4]] },
      ],
    };
    expect(countDrawn(option)).toEqual({ series: 1, points: 1 });
    expect(countDrawn({ ...option, legend: [option.legend] })).toEqual({ series: 1, points: 1 });
  });

  it("is zero for options without series", () => {
    expect(countDrawn({})).toEqual({ series: 0, points: 0 });
    expect(countDrawn(null)).toEqual({ series: 0, points: 0 });
    expect(countDrawn({ series: [{ data: [] }] })).toEqual({ series: 1, points: 0 });
  });
});
