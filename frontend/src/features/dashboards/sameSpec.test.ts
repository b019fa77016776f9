import { describe, expect, it } from "vitest";
import { sameJson } from "./sameSpec";

describe("sameJson", () => {
  it("ignores key order and undefined members", () => {
    expect(sameJson({ a: 1, b: { c: [1, { d: 2 }] } }, { b: { c: [1, { d: 2 }] }, a: 1, e: undefined })).toBe(true);
  });

  it("sees changed values, lengths, order in arrays, and null versus absent", () => {
    expect(sameJson({ a: 1 }, { a: 2 })).toBe(false);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(sameJson([1], [1, 1])).toBe(false);
    expect(sameJson({ a: null }, {})).toBe(false);
    expect(sameJson({ a: [] }, { a: {} })).toBe(false);
  });
});
