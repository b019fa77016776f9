import type { LineSeriesOption } from "echarts";
import { describe, expect, it } from "vitest";
import type { Panel } from "@/api/dashboards";
import { CANVAS_LEGEND_MAX } from "@/components/charts/LinesChart";
import type { DqlResult } from "@/lib/dql/dql";
import { panelLegendMode, toPanelOption } from "./panelOption";

const DAY = 86_400_000;
const now = 100 * DAY;
const result = (t0: number, values: number[]): DqlResult => ({
  series: [
    {
      name: "cpu",
      columns: ["time", "usage_user"],
      tags: { host: "web-01" },
      values: values.map((v, i) => [t0 + i * 60_000, v]),
    },
  ],
});
const panel: Panel = {
  id: "p",
  type: "timeseries",
  grid: { x: 0, y: 0, w: 12, h: 8 },
  queries: [{ query: "q" }],
  unit: "percent",
  thresholds: [{ value: 80, color: "red" }],
  legend: { show: true, position: "right", values: ["max"] },
};

describe("toPanelOption", () => {
  const option = toPanelOption({
    panel,
    result: result(now, [10, 95]),
    range: [now, now + 60_000],
    compare: { result: result(now - DAY, [5, 6]), shiftMs: DAY, shift: "1d" },
    timeZone: "UTC",
  });
  const series = option.series as LineSeriesOption[];

  it("draws the past series dashed, in the present series' colour, moved onto the present range", () => {
    expect(series.map((s) => s.name)).toEqual(["web-01", "web-01 (1d ago)"]);
    expect(series[1].lineStyle?.type).toBe("dashed");
    expect(series[1].color).toBe(series[0].color);
    expect((series[1].data as [number, number][]).map((p) => p[0])).toEqual([now, now + 60_000]);
  });

  it("marks thresholds and formats values in the panel's unit", () => {
    expect(series[0].markLine?.data).toEqual([expect.objectContaining({ yAxis: 80 })]);
    expect(series[0].markArea?.data).toHaveLength(1);
    const y = option.yAxis as { axisLabel: { formatter: (v: number) => string } };
    expect(y.axisLabel.formatter(42.123)).toBe("42.1%");
  });

  it("places the legend and appends the chosen values (drawn as the HTML list: two series)", () => {
    const legend = option.legend as { show: boolean; orient: string; formatter: (n: string) => string };
    expect(legend.show).toBe(false);
    expect(legend.orient).toBe("vertical");
    expect(legend.formatter("web-01")).toBe("web-01  max: 95%");
  });

  it("hides the legend when asked and stacks when the panel stacks", () => {
    const o = toPanelOption({
      panel: { ...panel, type: "area", stack: true, legend: { show: false } },
      result: result(now, [1, 2]),
      range: [now, now + 60_000],
    });
    expect((o.legend as { show: boolean }).show).toBe(false);
    expect((o.series as LineSeriesOption[])[0].stack).toBe("total");
    expect((o.series as LineSeriesOption[])[0].areaStyle).toBeDefined();
  });
});

describe("toPanelOption with a comparison", () => {
  const compare = (values: (number | null)[]) => ({
    result: {
      series: [
        {
          name: "disk",
          columns: ["time", "used_percent"],
          tags: { host: "web-01" },
          values: values.map((v, i) => [now - DAY + i * 60_000, v]),
        },
      ],
    } as DqlResult,
    shiftMs: DAY,
    shift: "1d",
  });

  it("draws a bar panel's past series as bars, so its legend entry has something to show", () => {
    const o = toPanelOption({
      panel: { ...panel, type: "bar", thresholds: [], legend: undefined },
      result: result(now, [40]),
      range: [now, now + 60_000],
      compare: compare([38]),
      timeZone: "UTC",
    });
    const drawn = o.series as { type: string; name: string; data: unknown[] }[];
    expect(drawn.map((s) => [s.type, s.name, s.data.length])).toEqual([
      ["bar", "web-01", 1],
      ["bar", "web-01 (1d ago)", 1],
    ]);
    // bars grow from zero, so the smaller of two close values still has a bar
    expect((o.yAxis as { scale: boolean }).scale).toBe(false);
  });

  it("shows a past value that is a single point as a dot, and leaves out past series without values", () => {
    const single = toPanelOption({ panel, result: result(now, [40]), range: [now, now + 60_000], compare: compare([38]) });
    expect((single.series as LineSeriesOption[])[1].showSymbol).toBe(true);
    const empty = toPanelOption({ panel, result: result(now, [40]), range: [now, now + 60_000], compare: compare([null, null]) });
    expect((empty.series as LineSeriesOption[]).map((s) => s.name)).toEqual(["web-01"]);
    expect((empty.legend as { data: string[] }).data).toEqual(["web-01"]);
  });
});

describe("legend placement", () => {
  const many: DqlResult = {
    series: Array.from({ length: CANVAS_LEGEND_MAX + 1 }, (_, i) => ({
      name: "cpu",
      columns: ["time", "usage_user"],
      tags: { host: `web-${i}` },
      values: [[now, i]],
    })),
  };

  it("keeps a few series' legend on the canvas and moves many series' legend to HTML", () => {
    expect(panelLegendMode(panel, CANVAS_LEGEND_MAX)).toBe("canvas");
    expect(panelLegendMode(panel, CANVAS_LEGEND_MAX + 1)).toBe("html");
    expect(panelLegendMode({ ...panel, legend: { show: false } }, 100)).toBe("none");
    const o = toPanelOption({ panel, result: many, range: [now, now + 60_000], timeZone: "UTC" });
    const legend = o.legend as { show: boolean; data: string[] };
    expect(legend.show).toBe(false);
    expect(legend.data).toHaveLength(CANVAS_LEGEND_MAX + 1);
    expect((o.grid as { right: number }).right).toBe(16);
  });
});
