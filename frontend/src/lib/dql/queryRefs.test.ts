import { describe, expect, it } from "vitest";
import { emptyQueries, nextRefId, queryRef } from "./queryRefs";

describe("query references", () => {
  it("names a query by its own reference, else by its place", () => {
    expect(queryRef({ ref_id: "C" }, 0)).toBe("C");
    expect(queryRef({}, 1)).toBe("B");
  });

  it("gives a new query the first free letter", () => {
    expect(nextRefId([])).toBe("A");
    expect(nextRefId([{ ref_id: "A", query: "" }, { ref_id: "C", query: "" }])).toBe("B");
    // a query without a reference holds the letter of its place
    expect(nextRefId([{ query: "" }, { ref_id: "B", query: "" }])).toBe("C");
  });

  it("lists the empty queries by reference", () => {
    expect(emptyQueries([{ ref_id: "A", query: "x" }, { query: " " }, { ref_id: "D", query: "" }])).toEqual(["B", "D"]);
  });
});
