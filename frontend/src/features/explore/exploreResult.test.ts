import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/apiError";
import { costSummary, mergeAnswers } from "./exploreResult";
import type { QueryAnswer } from "./hooks/useExploreRun";

const series = (name: string, ...hosts: string[]) =>
  hosts.map((host) => ({ name, tags: { host }, columns: ["time", "v"], values: [[0, 1]] }));

const cpu: QueryAnswer = { ref: "A", query: "M::cpu:(avg(v)) BY host", result: { series: series("cpu", "a", "b"), cost: "1.5ms" } };
const mem: QueryAnswer = { ref: "C", query: "M::mem:(avg(v)) BY host", result: { series: series("mem", "a"), cost: "850µs" } };
const bad: QueryAnswer = { ref: "B", query: "M::x:(", error: new ApiError(400, "unexpected end", "dql.parse_error") };

describe("mergeAnswers", () => {
  it("puts the answered queries' series one after the other, each named by its query's legend", () => {
    const merged = mergeAnswers([cpu, bad, mem], [
      { ref_id: "A", query: cpu.query, legend_format: " cpu {{host}} " },
      { ref_id: "B", query: bad.query, legend_format: "never used" },
      { ref_id: "C", query: mem.query },
    ]);
    expect(merged.result.series.map((s) => `${s.name}/${s.tags?.host}`)).toEqual(["cpu/a", "cpu/b", "mem/a"]);
    expect(merged.seriesRefs).toEqual(["A", "A", "C"]);
    // a query without a legend keeps the default names
    expect(merged.legends).toEqual(["cpu {{host}}", "cpu {{host}}", undefined]);
  });

  it("takes the legends as they are now, and none when no query has one", () => {
    expect(mergeAnswers([cpu, mem], [{ ref_id: "A", query: "changed since" }, { ref_id: "C", query: "" }]).legends).toBeUndefined();
    // a query that is no longer there names nothing
    expect(mergeAnswers([mem], [{ ref_id: "A", query: "", legend_format: "x" }]).legends).toBeUndefined();
    expect(mergeAnswers([bad], []).result.series).toEqual([]);
  });
});

describe("costSummary", () => {
  it("gives one query's time alone, and each query's among several", () => {
    expect(costSummary([cpu])).toBe("1.5 ms");
    expect(costSummary([cpu, bad, mem])).toBe("A 1.5 ms · C 0.85 ms");
    expect(costSummary([bad])).toBe("");
  });
});
