import { describe, expect, it } from "vitest";
import type { ChartSeries } from "./toLineSeriesOption";
import { toTopList } from "./topList";

const s = (name: string, values: (number | null)[]): ChartSeries => ({
  name,
  tags: { host: name },
  column: "usage_user",
  points: values.map((v, i) => [i * 60_000, v]),
});

const hosts = [s("alpha", [10, 20]), s("beta", [50, 5]), s("gamma", [30, 40]), s("idle", [null])];

describe("toTopList", () => {
  it("reduces each series to its last value by default and ranks them largest first", () => {
    const list = toTopList(hosts);
    expect(list.rows.map((r) => [r.name, r.value])).toEqual([
      ["gamma", 40],
      ["alpha", 20],
      ["beta", 5],
      ["idle", undefined],
    ]);
    expect(list.rows.map((r) => r.share)).toEqual([1, 0.5, 0.125, 0]);
    expect(list.rows[0].color).toBeUndefined();
    expect(list.more).toBe(0);
  });

  it("takes the panel's reducer, order and limit", () => {
    const list = toTopList(hosts, { reduce: "max", limit: 2 });
    expect(list.rows.map((r) => [r.name, r.value])).toEqual([
      ["beta", 50],
      ["gamma", 40],
    ]);
    expect(list.more).toBe(2);
    expect(toTopList(hosts, { reduce: "avg", order: "asc" }).rows.map((r) => r.name)).toEqual([
      "alpha",
      "beta",
      "gamma",
      "idle",
    ]);
  });

  it("colours each value by the thresholds it reached", () => {
    const list = toTopList(hosts, {
      thresholds: [
        { value: 30, color: "red" },
        { value: 15, color: "orange" },
      ],
    });
    expect(list.rows.map((r) => r.color)).toEqual(["red", "orange", "#3ba272", undefined]);
  });
});
