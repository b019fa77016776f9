import { describe, expect, it } from "vitest";
import { BASE_COLOR, thresholdBands, thresholdColor } from "./thresholds";

const steps = [
  { value: 90, color: "red" },
  { value: 80, color: "orange" },
];

describe("thresholdColor", () => {
  it("takes the colour of the highest step reached, whatever the order given", () => {
    expect(thresholdColor(10, steps)).toBe(BASE_COLOR);
    expect(thresholdColor(80, steps)).toBe("orange");
    expect(thresholdColor(89.9, steps)).toBe("orange");
    expect(thresholdColor(95, steps)).toBe("red");
  });

  it("uses the base colour without steps and nothing for missing values", () => {
    expect(thresholdColor(1e9, [])).toBe(BASE_COLOR);
    expect(thresholdColor(5, undefined, "#123")).toBe("#123");
    expect(thresholdColor(null, steps)).toBeUndefined();
  });
});

describe("thresholdBands", () => {
  it("spans each step to the next, the last to the chart's top", () => {
    expect(thresholdBands(steps, 120)).toEqual([
      { from: 80, to: 90, color: "orange" },
      { from: 90, to: 120, color: "red" },
    ]);
  });

  it("drops a last band the data never reaches", () => {
    expect(thresholdBands(steps, 50)).toEqual([{ from: 80, to: 90, color: "orange" }]);
  });
});
