import { describe, expect, it } from "vitest";
import { formatValue, roundValue } from "./units";

describe("formatValue", () => {
  it.each([
    [1536, "bytes", undefined, "1.5 KiB"],
    [512, "bytes", undefined, "512 B"],
    [3 * 1024 ** 3, "bytes", 1, "3.0 GiB"],
    [2_500_000, "bytes/s", undefined, "2.38 MiB/s"],
    [1_250_000, "bits/s", undefined, "1.25 Mb/s"],
    [42.123, "percent", undefined, "42.1%"],
    [42.123, "percent", 0, "42%"],
    [0.4216, "percentunit", undefined, "42.2%"],
    [0.25, "s", undefined, "250 ms"],
    [90, "s", undefined, "1.5 min"],
    [3 * 86_400 + 3600, "s", 1, "3.0 d"],
    [1500, "ms", undefined, "1.5 s"],
    [0.5, "us", undefined, "500 ns"],
    [1234, "ops/s", undefined, "1.23k ops/s"],
    [12, "req/s", undefined, "12 req/s"],
    [1_234_567, "short", undefined, "1.23M"],
    [1_234_567, "none", undefined, "1.23M"],
    [12.5, "none", undefined, "12.5"],
    [12.5, "none", 2, "12.50"],
    [7, "widgets", undefined, "7 widgets"],
  ])("%s %s (decimals %s) → %s", (v, unit, decimals, expected) => {
    expect(formatValue(v, unit, decimals)).toBe(expected);
  });

  it("shows a dash for missing values and keeps signs", () => {
    expect(formatValue(null, "bytes")).toBe("–");
    expect(formatValue(undefined)).toBe("–");
    expect(formatValue(Number.NaN, "percent")).toBe("–");
    expect(formatValue(-2048, "bytes")).toBe("-2 KiB");
    expect(formatValue(0, "s")).toBe("0 s");
  });
});

describe("roundValue", () => {
  it("keeps three significant digits unless told the decimals", () => {
    expect(roundValue(3.14159)).toBe("3.14");
    expect(roundValue(314.159)).toBe("314");
    expect(roundValue(3.14159, 4)).toBe("3.1416");
    expect(roundValue(0.00001234)).toBe("1.23e-5");
  });
});
