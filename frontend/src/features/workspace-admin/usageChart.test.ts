import type { LineSeriesOption } from "echarts";
import { describe, expect, it } from "vitest";
import { toQueriesChartOption, toUsageChartOption } from "./usageChart";

const range: [number, number] = [1_700_000_000_000, 1_700_003_600_000];
const points = [
  { t: 1_700_000_000_000, value: 120 },
  { t: 1_700_000_060_000, value: 180 },
];

describe("toUsageChartOption", () => {
  it("draws usage and the limit across the whole range", () => {
    const option = toUsageChartOption(points, { name: "Ingest rate", unit: "points/s", range, limit: 1000, timeZone: "UTC" });
    const series = option.series as LineSeriesOption[];
    expect(series.map((s) => s.name)).toEqual(["Ingest rate", "Limit (1,000 points/s)"]);
    expect(option.legend).toMatchObject({ data: ["Ingest rate", "Limit (1,000 points/s)"] });
    expect(series[0].data).toEqual([
      [1_700_000_000_000, 120],
      [1_700_000_060_000, 180],
    ]);
    expect(series[1].data).toEqual([
      [range[0], 1000],
      [range[1], 1000],
    ]);
    expect(series[1].lineStyle).toMatchObject({ type: "dashed" });
    expect(option.yAxis).toMatchObject({ min: 0 });
    expect(option.xAxis).toMatchObject({ min: range[0], max: range[1] });
  });

  it("omits an unknown limit", () => {
    const noLimit = toUsageChartOption(points, { name: "Series", unit: "series", range, timeZone: "UTC" });
    expect((noLimit.series as LineSeriesOption[]).map((s) => s.name)).toEqual(["Series"]);
  });
});

describe("toQueriesChartOption", () => {
  it("labels days by month-day", () => {
    const option = toQueriesChartOption([
      { day: "2026-11-20", queries: 3 },
      { day: "2026-11-21", queries: 9 },
    ]);
    expect(option.xAxis).toMatchObject({ data: ["11-20", "11-21"] });
    expect((option.series as { data: number[] }[])[0].data).toEqual([3, 9]);
  });
});
