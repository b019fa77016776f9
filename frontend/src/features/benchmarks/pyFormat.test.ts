import { describe, expect, it } from "vitest";
import { fmtFigure, pyFixed, pyGeneral, pyIsoformat, pyRepr, pyStr } from "./pyFormat";

// Expected values are what CPython 3.11 prints for the same input.
describe("pyRepr", () => {
  it.each([
    [1, "1.0"],
    [20000, "20000.0"],
    [0.1, "0.1"],
    [2678.035627, "2678.035627"],
    [1e-5, "1e-05"],
    [0.0001, "0.0001"],
    [1.5e16, "1.5e+16"],
    [1e16, "1e+16"],
    [123456789012345.6, "123456789012345.6"],
    [-0.25, "-0.25"],
    [0, "0.0"],
  ])("repr(%s) = %s", (x, want) => {
    expect(pyRepr(x)).toBe(want);
  });
});

describe("pyFixed", () => {
  it.each([
    [10.25, 1, "10.2"],
    [10.75, 1, "10.8"],
    [2.5, 0, "2"],
    [3.5, 0, "4"],
    [-2.5, 0, "-2"],
    [0.15, 1, "0.1"],
    [1234.5678, 1, "1234.6"],
    [0.125, 2, "0.12"],
  ])("f'{%s:.%sf}' = %s", (x, d, want) => {
    expect(pyFixed(x, d)).toBe(want);
  });
});

describe("pyGeneral", () => {
  it.each([
    [1.23456, "1.235"],
    [0.5, "0.5"],
    [9.99996, "10"],
    [0.000123456, "0.0001235"],
    [0.0000123456, "1.235e-05"],
    [3, "3"],
    [0, "0"],
  ])("f'{%s:.4g}' = %s", (x, want) => {
    expect(pyGeneral(x, 4)).toBe(want);
  });
});

describe("fmtFigure", () => {
  it("follows report._fmt", () => {
    expect(fmtFigure(null)).toBe("-");
    expect(fmtFigure(2678.035627)).toBe("2,678");
    expect(fmtFigure(1234567.5)).toBe("1,234,568");
    expect(fmtFigure(-98765.4)).toBe("-98,765");
    expect(fmtFigure(56.789)).toBe("56.8");
    expect(fmtFigure(3.14159)).toBe("3.142");
  });
});

describe("pyStr", () => {
  it("prints values as Python's str() does", () => {
    expect(pyStr(true)).toBe("True");
    expect(pyStr(null)).toBe("None");
    expect(pyStr(72)).toBe("72");
    expect(pyStr(72, true)).toBe("72.0");
    expect(pyStr(19915.2)).toBe("19915.2");
    expect(pyStr(["1h", "8h"])).toBe("['1h', '8h']");
    expect(pyStr([1, 4])).toBe("[1, 4]");
    expect(pyStr("vigil-storage/dql")).toBe("vigil-storage/dql");
  });
});

describe("pyIsoformat", () => {
  it("matches datetime.isoformat() of an aware UTC time", () => {
    expect(pyIsoformat("2026-11-21T07:25:48.459190Z")).toBe("2026-11-21T07:25:48.459190+00:00");
    expect(pyIsoformat("2026-11-21T07:25:48Z")).toBe("2026-11-21T07:25:48+00:00");
    expect(pyIsoformat("2026-11-21T07:25:48.5+02:00")).toBe("2026-11-21T07:25:48.500000+02:00");
  });
});
