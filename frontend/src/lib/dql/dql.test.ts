import { describe, expect, it } from "vitest";
import { formatCost } from "./dql";

describe("formatCost", () => {
  it.each([
    ["10.492164ms", "10.5 ms"],
    ["850µs", "0.85 ms"],
    ["850us", "0.85 ms"],
    ["1.234567s", "1.23 s"],
    ["1m2.5s", "62.5 s"],
    ["999.96ms", "1 s"],
    ["120ns", "0.00012 ms"],
    ["3ms", "3 ms"],
  ])("%s reads as %s", (cost, shown) => {
    expect(formatCost(cost)).toBe(shown);
  });

  it("leaves what is not a duration as it came", () => {
    for (const cost of ["", "fast", "10 ms", "12msx", "ms"]) expect(formatCost(cost)).toBe(cost);
  });
});
