import type { LineSeriesOption } from "echarts";
import { describe, expect, it } from "vitest";
import type { QueryPanel } from "@/api/dashboards";
import { toPanelOption } from "@/components/panels/panelOption";
import type { DqlResult } from "@/lib/dql/dql";
import { countDrawn } from "./countDrawn";
import { mergeLines, mergedMembers, TOOLTIP_MAX_ROWS, tooltipRows } from "./mergeLines";

const T0 = 1_700_000_000_000;
const MIN = 60_000;
const HOSTS = 40;

/** `hosts` series of `cpu.usage_user BY host`, host i at value i*10 + minute. */
function result(hosts = HOSTS, t0 = T0): DqlResult {
  return {
    series: Array.from({ length: hosts }, (_, h) => ({
      name: "cpu",
      columns: ["time", "usage_user"],
      tags: { host: `h${String(h).padStart(2, "0")}` },
      values: Array.from({ length: 5 }, (_, m) => [t0 + m * MIN, h * 10 + m]),
    })),
  };
}

const panel: QueryPanel = {
  id: "p",
  type: "timeseries",
  grid: { x: 0, y: 0, w: 12, h: 8 },
  queries: [{ query: "q" }],
  unit: "none",
  thresholds: [{ value: 300, color: "red" }],
};
const range: [number, number] = [T0, T0 + 4 * MIN];

function lines(option: { series?: unknown }): LineSeriesOption[] {
  return option.series as LineSeriesOption[];
}

type Formatter = (params: unknown) => string;

describe("mergeLines", () => {
  const option = toPanelOption({ panel, result: result(), range, timeZone: "UTC" });
  const merged = mergeLines(option, new Set());

  it("draws many lines as one series per colour, with the same lines and points", () => {
    expect(lines(option)).toHaveLength(HOSTS);
    // 9 palette colours
    expect(lines(merged)).toHaveLength(9);
    expect(countDrawn(merged)).toEqual(countDrawn(option));
    expect(countDrawn(merged)).toEqual({ series: HOSTS, points: HOSTS * 5 });
  });

  it("puts each line's points in order, with a gap between lines", () => {
    const first = lines(merged)[0];
    expect(first.color).toBe(lines(option)[0].color);
    expect(mergedMembers(first.id)).toBe(5); // hosts 0, 9, 18, 27, 36
    // [x0, y0, x1, y1, …], a gap as NaN
    const flat = first.data as unknown as Float64Array;
    expect(flat).toBeInstanceOf(Float64Array);
    expect(first.dimensions).toEqual(["time", "value"]);
    const data = Array.from({ length: flat.length / 2 }, (_, i) => [flat[2 * i], Number.isNaN(flat[2 * i + 1]) ? null : flat[2 * i + 1]]);
    expect(data).toHaveLength(5 * 5 + 4);
    expect(data.slice(0, 6)).toEqual([
      [T0, 0],
      [T0 + MIN, 1],
      [T0 + 2 * MIN, 2],
      [T0 + 3 * MIN, 3],
      [T0 + 4 * MIN, 4],
      [T0, null],
    ]);
    expect(data[6]).toEqual([T0, 90]);
    expect(first.connectNulls).toBe(false);
  });

  it("keeps the thresholds on the first series", () => {
    expect(lines(merged)[0].markLine).toBe(lines(option)[0].markLine);
    expect(lines(merged)[0].markArea).toBe(lines(option)[0].markArea);
    expect(lines(merged)[1].markLine).toBeUndefined();
  });

  it("leaves hidden lines out", () => {
    const hidden = new Set(["h00", "h09", "h18", "h27", "h36", "h01"]);
    const some = mergeLines(option, hidden);
    expect(lines(some)).toHaveLength(8);
    expect(countDrawn(some)).toEqual({ series: HOSTS - 6, points: (HOSTS - 6) * 5 });
    // thresholds stay when the lines carrying them are hidden
    expect(lines(some)[0].markLine).toBe(lines(option)[0].markLine);
    const none = mergeLines(option, new Set(Array.from({ length: HOSTS }, (_, h) => `h${String(h).padStart(2, "0")}`)));
    expect(countDrawn(none).series).toBe(0);
    expect(lines(none)[0].markLine).toBe(lines(option)[0].markLine);
  });

  it("lists every drawn line at the hovered time in the tooltip, largest first, escaped", () => {
    const format = (merged.tooltip as { formatter: Formatter }).formatter;
    const html = format([{ axisValue: T0 + 2 * MIN + 5_000, axisValueLabel: "12:02 <UTC>" }]);
    expect(html).toContain("12:02 &lt;UTC&gt;");
    const names = [...html.matchAll(/<\/span>(h\d\d)<\/span>/g)].map((m) => m[1]);
    expect(names).toHaveLength(TOOLTIP_MAX_ROWS);
    expect(names.slice(0, 3)).toEqual(["h39", "h38", "h37"]);
    expect(html).toContain("<b>392</b>");
    expect(html).toContain(`and ${HOSTS - TOOLTIP_MAX_ROWS} more series`);
  });

  it("escapes series names in the tooltip", () => {
    const evil = result(35);
    evil.series[34].tags = { host: '<img src=x onerror="alert(1)">' };
    const opt = mergeLines(toPanelOption({ panel, result: evil, range, timeZone: "UTC" }), new Set());
    const html = (opt.tooltip as { formatter: Formatter }).formatter([{ axisValue: T0, axisValueLabel: "t" }]);
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
  });

  it("draws a past series dashed, in its own series", () => {
    const withPast = toPanelOption({
      panel,
      result: result(20),
      range,
      compare: { result: result(20, T0 - 86_400_000), shiftMs: 86_400_000, shift: "1d" },
      timeZone: "UTC",
    });
    const m = mergeLines(withPast, new Set());
    expect(countDrawn(m).series).toBe(40);
    const dashed = lines(m).filter((s) => (s.lineStyle as { type?: string } | undefined)?.type === "dashed");
    expect(dashed.reduce((n, s) => n + (mergedMembers(s.id) ?? 0), 0)).toBe(20);
  });

  it("leaves stacked and bar charts as they are, hiding through the legend", () => {
    const stacked = toPanelOption({ panel: { ...panel, stack: true } as QueryPanel, result: result(), range });
    expect(mergeLines(stacked, new Set()).series).toBe(stacked.series);
    const bars = toPanelOption({ panel: { ...panel, type: "bar" } as QueryPanel, result: result(), range });
    const hidden = mergeLines(bars, new Set(["h01"]));
    expect(hidden.series).toBe(bars.series);
    expect(hidden.legend).toMatchObject({ show: false, selected: { h01: false } });
  });

  it("shows a line of a single point as a symbol", () => {
    const r = result(35);
    r.series[3].values = [[T0, 5]];
    const m = mergeLines(toPanelOption({ panel, result: r, range }), new Set());
    const lone = lines(m).filter((s) => s.showSymbol === true);
    expect(lone).toHaveLength(1);
    expect(mergedMembers(lone[0].id)).toBe(1);
  });
});

describe("tooltipRows", () => {
  const member = (name: string, points: [number, number | null][]) => ({ name, color: "#000", dashed: false, points });
  it("takes each line's point at the nearest time any line has, skipping gaps", () => {
    const a = member("a", [[0, 1], [60, 2], [120, 3]]);
    const b = member("b", [[0, 10], [60, null], [120, 30]]);
    const c = member("c", [[90, 100]]);
    expect(tooltipRows([a, b, c], 55).map((r) => [r.member.name, r.value])).toEqual([["a", 2]]);
    expect(tooltipRows([a, b, c], 95).map((r) => [r.member.name, r.value])).toEqual([["c", 100]]);
    expect(tooltipRows([a, b], 130).map((r) => [r.member.name, r.value])).toEqual([["b", 30], ["a", 3]]);
    expect(tooltipRows([], 1)).toEqual([]);
  });
});
