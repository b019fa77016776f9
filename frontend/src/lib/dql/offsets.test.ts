import { describe, expect, it } from "vitest";
import { byteOffsetToIndex, lineColumn } from "./offsets";

describe("byteOffsetToIndex", () => {
  it("is the identity for ASCII", () => {
    expect(byteOffsetToIndex("M::cpu:(x)", 3)).toBe(3);
  });

  it("steps over multi-byte characters", () => {
    // "é" is 2 bytes, "使" 3 bytes, "😀" 4 bytes and two UTF-16 units.
    const text = "é使😀x";
    expect(byteOffsetToIndex(text, 2)).toBe(1);
    expect(byteOffsetToIndex(text, 5)).toBe(2);
    expect(byteOffsetToIndex(text, 9)).toBe(4);
    expect(text.slice(byteOffsetToIndex(text, 9))).toBe("x");
  });

  it("clamps past the end", () => {
    expect(byteOffsetToIndex("ab", 10)).toBe(2);
  });
});

describe("lineColumn", () => {
  it("counts lines and columns from 1", () => {
    expect(lineColumn("ab\ncd", 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumn("ab\ncd", 4)).toEqual({ line: 2, column: 2 });
  });
});
