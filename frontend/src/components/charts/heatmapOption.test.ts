import type { HeatmapSeriesOption, VisualMapComponentOption } from "echarts";
import { describe, expect, it } from "vitest";
import { countDrawn } from "./countDrawn";
import {
  heatmapColors,
  heatmapGrid,
  heatmapOption,
  MAX_HEATMAP_CELLS,
  niceStep,
  timeLabelColumns,
  type HeatmapRow,
} from "./heatmapOption";

const MIN = 60_000;
/** 2026-05-21 10:00:00 UTC */
const T0 = Date.UTC(2026, 4, 21, 10, 0, 0);

function row(name: string, values: (number | null)[], start = T0, step = MIN): HeatmapRow {
  return { name, points: values.map((v, i) => [start + i * step, v] as const) };
}

type Formatter = (params: unknown) => string;

describe("heatmapGrid", () => {
  it("puts one row per series, sorted by name with numbers in order, top to bottom", () => {
    const grid = heatmapGrid([row("web-10", [1]), row("web-2", [2]), row("db", [3]), row("Web-1", [4])]);
    expect(grid.rows).toEqual(["db", "Web-1", "web-2", "web-10"]);
    // each value is in the row of its series
    expect(grid.cells).toEqual([
      [0, 0, 3],
      [0, 1, 4],
      [0, 2, 2],
      [0, 3, 1],
    ]);
  });

  it("gives a name used twice a row of its own", () => {
    expect(heatmapGrid([row("a", [1]), row("a", [2])]).rows).toEqual(["a", "a (2)"]);
  });

  it("leaves null and missing points empty, on the series' own time step", () => {
    const a = row("a", [1, null, 3]);
    // b misses the first minute and has a gap at the third
    const b: HeatmapRow = { name: "b", points: [[T0 + MIN, 5], [T0 + 3 * MIN, 7]] };
    const grid = heatmapGrid([b, a]);
    expect(grid.step).toBe(MIN);
    expect(grid.bucketed).toBe(false);
    expect(grid.times).toEqual([T0, T0 + MIN, T0 + 2 * MIN, T0 + 3 * MIN]);
    expect(grid.cells).toEqual([
      [0, 0, 1],
      [2, 0, 3],
      [1, 1, 5],
      [3, 1, 7],
    ]);
    expect([grid.min, grid.max]).toEqual([1, 7]);
  });

  it("spans the queried range with empty columns where there is no data yet", () => {
    const grid = heatmapGrid([row("a", [1, 2])], [T0 - 3 * MIN - 10_000, T0 + 5 * MIN]);
    expect(grid.times[0]).toBe(T0 - 3 * MIN);
    expect(grid.times[grid.times.length - 1]).toBe(T0 + 5 * MIN);
    expect(grid.cells).toEqual([
      [3, 0, 1],
      [4, 0, 2],
    ]);
  });

  it("widens the columns rather than leave part of the range out", () => {
    // 100 series, an hour at one a minute, in a range of 3 hours: 80 columns at most
    const hosts = Array.from({ length: 100 }, (_, h) => row(`h${h}`, Array.from({ length: 60 }, () => h)));
    const grid = heatmapGrid(hosts, [T0 - 2 * 3_600_000, T0 + 3_600_000], "UTC");
    expect(grid.bucketed).toBe(true);
    expect(grid.step).toBe(300_000);
    expect(grid.times[0]).toBe(T0 - 2 * 3_600_000);
    expect(grid.times[grid.times.length - 1]).toBe(T0 + 3_600_000);
    // the same hour in a range of one: a column a minute
    expect(heatmapGrid(hosts, [T0, T0 + 3_600_000 - MIN]).step).toBe(MIN);
  });

  it("puts points that are not on one step into nice buckets holding their largest value", () => {
    const jittery: HeatmapRow = {
      name: "a",
      points: [
        [T0 + 1_000, 1],
        [T0 + 17_000, 9],
        [T0 + 61_000, 4],
        [T0 + 200_000, null],
      ],
    };
    const grid = heatmapGrid([jittery], [T0, T0 + 3_600_000]);
    expect(grid.bucketed).toBe(true);
    // at least the usual gap between points (the median of 16 s, 44 s, 139 s)
    expect(grid.step).toBe(60_000);
    expect(grid.times[0]).toBe(T0);
    expect(grid.times).toHaveLength(61);
    expect(grid.cells).toEqual([
      [0, 0, 9],
      [1, 0, 4],
    ]);
  });

  it("puts series on the same step but at other seconds in shared columns, not every other one", () => {
    const a = row("a", [1, 2, 3], T0);
    const b = row("b", [4, 5, 6], T0 + 30_000);
    const grid = heatmapGrid([a, b]);
    expect(grid.step).toBe(MIN);
    expect(grid.times).toEqual([T0, T0 + MIN, T0 + 2 * MIN]);
    expect(grid.cells).toEqual([
      [0, 0, 1],
      [1, 0, 2],
      [2, 0, 3],
      [0, 1, 4],
      [1, 1, 5],
      [2, 1, 6],
    ]);
  });

  it("keeps many series within the cell budget, each row still drawn", () => {
    const hosts = Array.from({ length: 100 }, (_, h) =>
      row(`host-${h}`, Array.from({ length: 720 }, (_, i) => (i % 7 === 0 ? null : h + i / 1000)), T0, 10_000),
    );
    const grid = heatmapGrid(hosts, [T0, T0 + 720 * 10_000]);
    expect(grid.rows).toHaveLength(100);
    expect(grid.rows.slice(0, 3)).toEqual(["host-0", "host-1", "host-2"]);
    expect(grid.times.length * grid.rows.length).toBeLessThanOrEqual(MAX_HEATMAP_CELLS + grid.rows.length);
    expect(grid.bucketed).toBe(true);
    // 80 columns at most for 100 rows: 2-minute columns over the 2 hours
    expect(grid.step).toBe(120_000);
    expect(grid.times).toHaveLength(61);
    // a cell holds the largest of its 12 points
    expect(grid.min).toBe(0.011);
    expect(grid.max).toBeCloseTo(99.719);
    expect(new Set(grid.cells.map((c) => c[1])).size).toBe(100);
  });

  it("is empty without points, and one column for points at a single time", () => {
    expect(heatmapGrid([])).toMatchObject({ rows: [], times: [], cells: [] });
    const none = heatmapGrid([row("a", [null, null])]);
    expect(none.cells).toEqual([]);
    expect(none.min).toBeNaN();
    const single = heatmapGrid([row("a", [3]), row("b", [4])]);
    expect(single).toMatchObject({ times: [T0], step: 0, cells: [[0, 0, 3], [0, 1, 4]], min: 3, max: 4 });
  });
});

describe("niceStep", () => {
  it("rounds up to a duration a clock shows", () => {
    expect(niceStep(1)).toBe(1_000);
    expect(niceStep(61_000)).toBe(120_000);
    expect(niceStep(50 * 60_000)).toBe(3_600_000);
    expect(niceStep(40 * 86_400_000)).toBe(60 * 86_400_000);
  });
});

describe("timeLabelColumns", () => {
  it("labels the columns where the wall clock passes a nice step", () => {
    // 10:03 … 11:02 UTC, one a minute: a label every 10 minutes
    const times = Array.from({ length: 60 }, (_, i) => T0 + (i + 3) * MIN);
    const labelled = timeLabelColumns(times, MIN, "UTC");
    const at = times.filter((_, i) => labelled[i]).map((t) => new Date(t).toISOString().slice(11, 16));
    expect(at).toEqual(["10:10", "10:20", "10:30", "10:40", "10:50", "11:00"]);
  });

  it("uses the time zone's clock for steps of hours and days", () => {
    // two days, one column an hour, in Kolkata (UTC+05:30): a label at each local midnight and noon
    const times = Array.from({ length: 48 }, (_, i) => Date.UTC(2026, 4, 21, 0, 30) + i * 3_600_000);
    const labelled = timeLabelColumns(times, 3_600_000, "Asia/Kolkata");
    const at = times.filter((_, i) => labelled[i]).map((t) => new Date(t + 5.5 * 3_600_000).toISOString().slice(5, 16).replace("T", " "));
    expect(at).toEqual(["05-21 12:00", "05-22 00:00", "05-22 12:00", "05-23 00:00"]);
  });

  it("labels every column when there are only a few", () => {
    expect(timeLabelColumns([T0, T0 + MIN], MIN, "UTC")).toEqual([true, true]);
  });
});

describe("heatmapOption", () => {
  const grid = heatmapGrid([row("web-2", [0.25, null, 0.5]), row("web-10", [0.75, 1, null]), row("<b>x</b>", [0.1])]);

  it("colours cells on a continuous scale from the smallest to the largest value, labelled in the unit", () => {
    const option = heatmapOption(grid, { unit: "percentunit", timeZone: "UTC" });
    const scale = option.visualMap as VisualMapComponentOption & { min: number; max: number; text: string[] };
    expect(scale).toMatchObject({ type: "continuous", min: 0.1, max: 1, dimension: 2, show: true, orient: "horizontal" });
    expect(scale.text).toEqual(["100%", "10%"]);
    expect((scale as { formatter: (v: number) => string }).formatter(0.5)).toBe("50%");
    expect((scale as { inRange: { color: string[] } }).inRange.color).toEqual(heatmapColors("viridis", "light"));
    // x: the columns' times, y: the rows, first name at the top
    expect(option.xAxis).toMatchObject({ type: "category", data: grid.times });
    expect(option.yAxis).toMatchObject({ type: "category", data: ["<b>x</b>", "web-2", "web-10"], inverse: true });
  });

  it("counts only the cells that have a value as drawn points", () => {
    expect(countDrawn(heatmapOption(grid))).toEqual({ series: 1, points: 5 });
  });

  it("names the time, the series and the value in the unit in the tooltip, escaped", () => {
    const option = heatmapOption(grid, { unit: "percentunit", decimals: 1, timeZone: "UTC" });
    const format = (option.tooltip as { formatter: Formatter }).formatter;
    const html = format({ data: [1, 2, 1], color: "#fde725" });
    expect(html).toContain("2026-05-21 10:01:00");
    expect(html).toContain("web-10");
    expect(html).toContain("<b>100.0%</b>");
    expect(format({ data: [0, 0, 0.1], color: "#440154" })).toContain("&lt;b&gt;x&lt;/b&gt;");
  });

  it("shows a bucket's time span in the tooltip", () => {
    const jittery: HeatmapRow = { name: "a", points: [[T0 + 1_000, 1], [T0 + 17_000, 2], [T0 + 61_000, 3]] };
    const option = heatmapOption(heatmapGrid([jittery], [T0, T0 + 3_600_000], "UTC"), { timeZone: "UTC" });
    const html = (option.tooltip as { formatter: Formatter }).formatter({ data: [1, 0, 3] });
    expect(html).toContain("2026-05-21 10:01:00 – 10:02:00");
  });

  it("puts the colour scale on the right, or hides it, as the panel's legend says", () => {
    const right = heatmapOption(grid, { legend: { position: "right" } });
    expect(right.visualMap).toMatchObject({ orient: "vertical", show: true });
    const hidden = heatmapOption(grid, { legend: { show: false } });
    expect(hidden.visualMap).toMatchObject({ show: false });
    expect((hidden.grid as { bottom: number }).bottom).toBeLessThan((right.grid as { bottom: number }).bottom + 1);
  });

  it("gives a single value a scale around it, and follows the theme and scheme", () => {
    const one = heatmapOption(heatmapGrid([row("a", [5, 5])]), { scheme: "blues", theme: "dark" });
    expect(one.visualMap).toMatchObject({ min: 2.5, max: 7.5, text: ["5", "5"] });
    expect((one.visualMap as { inRange: { color: string[] } }).inRange.color).toEqual(heatmapColors("blues", "dark"));
    expect(heatmapColors("blues", "dark")).not.toEqual(heatmapColors("blues", "light"));
    expect(heatmapColors("nonsense", "light")).toEqual(heatmapColors("viridis", "light"));
  });

  it("turns hover effects off for many cells", () => {
    const hosts = Array.from({ length: 50 }, (_, h) => row(`h${h}`, Array.from({ length: 200 }, () => h)));
    const option = heatmapOption(heatmapGrid(hosts));
    const series = (option.series as HeatmapSeriesOption[])[0];
    expect(series.emphasis).toEqual({ disabled: true });
    expect(option.visualMap).toMatchObject({ hoverLink: false });
    expect((heatmapOption(grid).series as HeatmapSeriesOption[])[0].emphasis).not.toEqual({ disabled: true });
  });
});
