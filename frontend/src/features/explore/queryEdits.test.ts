import { describe, expect, it } from "vitest";
import type { QueryItem } from "@/lib/dql/queryRefs";
import { applyEdits, dropEdits, dropTexts, editQuery, settleEdits } from "./queryEdits";

const link: QueryItem[] = [
  { ref_id: "A", query: "M::cpu:(avg(usage_user))", legend_format: "cpu" },
  { ref_id: "B", query: "M::mem:(avg(used))" },
];

describe("edits over the link's queries", () => {
  it("shows typed text, a legend and a Hide box over the link's values", () => {
    let edits = editQuery({}, link[0], 0, { query: "M::cpu:(max(usage_user))" });
    edits = editQuery(edits, link[1], 1, { legend_format: "mem {{host}}", hidden: true });
    edits = editQuery(edits, link[0], 0, { legend_format: null });
    expect(applyEdits(link, edits)).toEqual([
      { ref_id: "A", query: "M::cpu:(max(usage_user))" },
      { ref_id: "B", query: "M::mem:(avg(used))", legend_format: "mem {{host}}", hidden: true },
    ]);
  });

  it("gives way to the link once it holds another value (the edit arrived, or Back)", () => {
    const edits = editQuery({}, link[1], 1, { hidden: true, query: "typed" });
    // the Hide box reached the link: what the link says is shown, the typed text stays
    const arrived = [link[0], { ...link[1], hidden: true }];
    expect(applyEdits(arrived, edits)[1]).toEqual({ ref_id: "B", query: "typed", hidden: true });
    // another link: its query, not what was typed over the old one
    const other = [link[0], { ref_id: "B", query: "M::disk:(max(used))" }];
    expect(applyEdits(other, edits)[1]).toEqual({ ref_id: "B", query: "M::disk:(max(used))", hidden: true });
  });

  it("forgets a legend or Hide edit once the link has it, so that Back shows the link again", () => {
    const edits = editQuery(editQuery({}, link[1], 1, { hidden: true, legend_format: "mem" }), link[0], 0, { query: "typed" });
    // nothing arrived yet: the same edits
    expect(settleEdits(link, edits)).toBe(edits);
    const arrived = [link[0], { ...link[1], hidden: true }];
    const settled = settleEdits(arrived, edits);
    expect(Object.keys(settled).sort()).toEqual(["A query", "B legend_format"]);
    // Back: the link without hide=B shows B again
    expect(applyEdits(link, settleEdits(link, settled))[1].hidden).toBeUndefined();
    // a query no longer there takes its edits with it
    expect(Object.keys(settleEdits([link[0]], settled))).toEqual(["A query"]);
  });

  it("forgets the typed text once the queries ran, not a Hide box on its way", () => {
    const edits = dropTexts(editQuery({}, link[1], 1, { query: "typed", hidden: true }));
    expect(applyEdits(link, edits)[1]).toEqual({ ...link[1], hidden: true });
  });

  it("forgets the edits of a removed query", () => {
    const edits = dropEdits(editQuery(editQuery({}, link[1], 1, { query: "x" }), link[0], 0, { query: "y" }), "B");
    expect(applyEdits(link, edits).map((q) => q.query)).toEqual(["y", "M::mem:(avg(used))"]);
  });
});
