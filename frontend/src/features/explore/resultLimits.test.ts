import { describe, expect, it } from "vitest";
import type { DqlResult } from "@/lib/dql/dql";
import { effectiveLimits, resultCut } from "./resultLimits";

const rows = (n: number): unknown[][] => Array.from({ length: n }, (_, i) => [i * 1000, i]);
const result = (series: number, perSeries: number): DqlResult => ({
  series: Array.from({ length: series }, (_, i) => ({
    name: "cpu",
    tags: { host: `h${i}` },
    columns: ["time", "usage_user"],
    values: rows(perSeries),
  })),
});

describe("effectiveLimits", () => {
  it("uses the defaults, the statement's clauses or the request's fields", () => {
    expect(effectiveLimits("M::cpu:(usage_user) [30d] BY host")).toMatchObject({ limit: 1000, slimit: 20 });
    expect(effectiveLimits("M::cpu:(usage_user) BY host LIMIT 50 SLIMIT 5")).toMatchObject({
      limit: 50,
      slimit: 5,
      explicitLimit: true,
      explicitSlimit: true,
    });
    expect(effectiveLimits("M::cpu:(usage_user) BY host slimit 100")).toMatchObject({ limit: 1000, slimit: 100 });
    expect(effectiveLimits("M::cpu:(usage_user)", { disable_slimit: true }).slimit).toBeUndefined();
    expect(effectiveLimits("M::cpu:(usage_user) SLIMIT 3", { slimit: 7, limit: 9 })).toMatchObject({ limit: 9, slimit: 7 });
  });

  it("ignores LIMIT inside strings, comments and inner statements", () => {
    const q = "M::(M::cpu:(usage_user) BY host LIMIT 5):(max(usage_user)) {host = 'LIMIT 3'} # LIMIT 2";
    expect(effectiveLimits(q)).toMatchObject({ limit: 1000, slimit: 20, explicitLimit: false });
  });
});

describe("resultCut", () => {
  it("reports series cut at LIMIT rows, the default included", () => {
    // a raw 30-day query: 3 hosts, 1000 rows each
    expect(resultCut("M::cpu:(usage_user) [30d] BY host", result(3, 1000))).toEqual({
      rows: { limit: 1000, series: 3, explicit: false },
    });
    expect(resultCut("M::cpu:(usage_user) BY host LIMIT 10", result(2, 10)).rows).toEqual({
      limit: 10,
      series: 2,
      explicit: true,
    });
    expect(resultCut("M::cpu:(usage_user) BY host", result(3, 999))).toEqual({});
  });

  it("reports a result that reached SLIMIT", () => {
    expect(resultCut("M::cpu:(avg(usage_user)) [15m::1m] BY host", result(20, 15)).series).toEqual({
      shown: 20,
      slimit: 20,
      explicit: false,
    });
    expect(resultCut("M::cpu:(avg(usage_user)) BY host SLIMIT 100", result(40, 15))).toEqual({});
    expect(resultCut("M::cpu:(avg(usage_user)) BY host", result(19, 15))).toEqual({});
  });

  it("does not check metadata queries or missing results", () => {
    expect(resultCut("show_tag_value(from=['cpu'], keyin=['host'])", result(1, 1000))).toEqual({});
    expect(resultCut("M::cpu:(usage_user)", undefined)).toEqual({});
  });
});
