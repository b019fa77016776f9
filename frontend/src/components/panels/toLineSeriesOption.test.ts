import type { BarSeriesOption, EChartsOption, LineSeriesOption, XAXisComponentOption } from "echarts";
import { BarChart, LineChart } from "echarts/charts";
import { GridComponent, LegendComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { SVGRenderer } from "echarts/renderers";
import { describe, expect, it } from "vitest";
import type { DqlResult } from "@/lib/dql/dql";
import { countPoints, formatLegend, formatNumber, toChartSeries, toLineSeriesOption } from "./toLineSeriesOption";

echarts.use([BarChart, LineChart, GridComponent, LegendComponent, SVGRenderer]);

/** The labels ECharts itself puts on the value axis of `option` (rendered server-side, SVG). */
function valueTicks(option: EChartsOption): number[] {
  const chart = echarts.init(null, null, { renderer: "svg", ssr: true, width: 400, height: 300 });
  chart.setOption({ ...option, tooltip: undefined });
  // getTicks is not part of ECharts' typed API
  const model = (chart as unknown as { getModel(): { getComponent(n: string): { axis: { scale: { getTicks(): { value: number }[] } } } } }).getModel();
  const ticks = model.getComponent("yAxis").axis.scale.getTicks().map((t) => t.value);
  chart.dispose();
  return ticks;
}

const T0 = Date.UTC(2026, 10, 21, 6, 0, 0);
const MIN = 60_000;

const byHost: DqlResult = {
  series: [
    {
      name: "cpu",
      tags: { host: "web-02" },
      columns: ["time", "avg(usage_user)"],
      values: [
        [T0 + MIN, 20],
        [T0, 10],
        [T0 + 2 * MIN, null],
      ],
    },
    {
      name: "cpu",
      tags: { host: "web-01" },
      columns: ["time", "avg(usage_user)"],
      values: [[T0, 1.5]],
    },
  ],
  cost: "2ms",
};

function lines(result: DqlResult | undefined): LineSeriesOption[] {
  return toLineSeriesOption(result, { timeZone: "UTC" }).series as LineSeriesOption[];
}

describe("toLineSeriesOption", () => {
  it("draws one line per BY group, named by the tag values", () => {
    const series = lines(byHost);
    expect(series.map((s) => s.name)).toEqual(["web-02", "web-01"]);
    expect(series.every((s) => s.type === "line")).toBe(true);
  });

  it("sorts points by time and keeps missing cells as gaps", () => {
    const [web02] = lines(byHost);
    expect(web02.data).toEqual([
      [T0, 10],
      [T0 + MIN, 20],
      [T0 + 2 * MIN, null],
    ]);
    expect(web02.connectNulls).toBe(false);
  });

  it("keeps [time, value] rows in time order as they came, and copies any other shape", () => {
    const rows: [number, number | null][] = [
      [T0, 1],
      [T0 + MIN, null],
      [T0 + MIN, 3],
    ];
    const kept = toChartSeries({ series: [{ name: "cpu", columns: ["time", "v"], values: rows }], cost: "1ms" });
    expect(kept[0].points).toBe(rows);
    for (const values of [
      [[T0 + MIN, 2], [T0, 1]], // out of order
      [[T0, 1], [T0 + MIN, "x"]], // a string cell
      [[T0, 1], ["later", 2]], // a time that is not a number
      [[T0, 1, "extra"]], // a longer row
    ]) {
      const copied = toChartSeries({ series: [{ name: "cpu", columns: ["time", "v"], values }], cost: "1ms" });
      expect(copied[0].points).not.toBe(values);
      expect(copied[0].points.every(([t, v]) => typeof t === "number" && (v === null || typeof v === "number"))).toBe(
        true,
      );
    }
    // a column without any number is no line, whichever path reads it
    expect(toChartSeries({ series: [{ name: "cpu", columns: ["time", "v"], values: [[T0, null]] }], cost: "1ms" })).toEqual(
      [],
    );
  });

  it("puts every series in the legend", () => {
    const option = toLineSeriesOption(byHost, { timeZone: "UTC" });
    expect(option.legend).toMatchObject({ data: ["web-02", "web-01"] });
  });

  it("labels the time axis with the time zone and formats ticks in it", () => {
    const option = toLineSeriesOption(byHost, { timeZone: "Asia/Kolkata" });
    const x = option.xAxis as XAXisComponentOption & {
      axisLabel: { formatter: (v: number) => string };
    };
    expect(x.type).toBe("time");
    expect(x.name).toBe("Asia/Kolkata (UTC+05:30)");
    // a 2-minute span shows seconds
    expect(x.axisLabel.formatter(T0)).toBe("11:30:00");
  });

  it("pins the axis to the queried range when given", () => {
    const option = toLineSeriesOption(byHost, { timeZone: "UTC", range: [T0 - 15 * MIN, T0 + 5 * MIN] });
    expect(option.xAxis).toMatchObject({ min: T0 - 15 * MIN, max: T0 + 5 * MIN });
  });

  it("names series by column when there is no BY, and by tags and column when several columns", () => {
    const noBy: DqlResult = {
      series: [{ name: "cpu", columns: ["time", "avg(usage_user)", "max(usage_user)"], values: [[T0, 1, 2]] }],
    };
    expect(lines(noBy).map((s) => s.name)).toEqual(["avg(usage_user)", "max(usage_user)"]);

    const twoCols: DqlResult = {
      series: [{ name: "cpu", tags: { host: "a", dc: "east1" }, columns: ["time", "u", "i"], values: [[T0, 1, 99]] }],
    };
    expect(lines(twoCols).map((s) => s.name)).toEqual(["east1, a · u", "east1, a · i"]);
  });

  it("skips string columns and series without a time column", () => {
    const mixed: DqlResult = {
      series: [
        { name: "cpu", tags: { host: "a" }, columns: ["time", "host", "user"], values: [[T0, "a", 3]] },
        { name: "show", columns: ["measurement"], values: [["cpu"]] },
      ],
    };
    expect(lines(mixed).map((s) => [s.name, s.data])).toEqual([["a", [[T0, 3]]]]);
  });

  it("fills lines for area and draws bars for bar", () => {
    const area = toLineSeriesOption(byHost, { timeZone: "UTC", kind: "area" }).series as LineSeriesOption[];
    expect(area.map((s) => [s.type, s.areaStyle])).toEqual([
      ["line", { opacity: 0.18 }],
      ["line", { opacity: 0.18 }],
    ]);
    const bar = toLineSeriesOption(byHost, { timeZone: "UTC", kind: "bar" }).series as LineSeriesOption[];
    expect(bar.map((s) => [s.type, s.name])).toEqual([
      ["bar", "web-02"],
      ["bar", "web-01"],
    ]);
  });

  it("starts bars at zero and lets lines fit their values", () => {
    const hosts: DqlResult = {
      series: ["a", "b"].map((host, i) => ({
        name: "cpu",
        tags: { host },
        columns: ["time", "usage"],
        values: [[T0, 35 + 20 * i]],
      })),
    };
    const bar = toLineSeriesOption(hosts, { timeZone: "UTC", kind: "bar" });
    expect(valueTicks(bar)[0]).toBe(0);
    expect(valueTicks(toLineSeriesOption(hosts, { timeZone: "UTC", kind: "line" }))[0]).toBeGreaterThan(0);
  });

  it("gives a series the same colour in the line, area and bar views", () => {
    const colours = (kind: "line" | "area" | "bar") =>
      (toLineSeriesOption(byHost, { timeZone: "UTC", kind }).series as (LineSeriesOption | BarSeriesOption)[]).map(
        (s) => s.color,
      );
    expect(colours("line")).toEqual(["#5470c6", "#91cc75"]);
    expect(colours("area")).toEqual(colours("line"));
    expect(colours("bar")).toEqual(colours("line"));
    const bar = toLineSeriesOption(byHost, { timeZone: "UTC", kind: "bar" }).series as BarSeriesOption[];
    expect(bar.map((s) => s.itemStyle?.color)).toEqual(colours("line"));
  });

  it("formats the axis and the tooltip in the chosen unit", () => {
    const option = toLineSeriesOption(byHost, { timeZone: "UTC", unit: "percent" });
    const y = option.yAxis as { axisLabel: { formatter: (v: number) => string } };
    expect(y.axisLabel.formatter(42.123)).toBe("42.1%");
    const tooltip = option.tooltip as { valueFormatter: (v: unknown) => string };
    expect(tooltip.valueFormatter(16.072000000000003)).toBe("16.1%");
    const plain = toLineSeriesOption(byHost, { timeZone: "UTC" });
    expect((plain.yAxis as { axisLabel: { formatter: (v: number) => string } }).axisLabel.formatter(42.123)).toBe("42.12");
  });

  it("leaves the legend of several series to the HTML legend, and one series' on the canvas", () => {
    expect(toLineSeriesOption(byHost, { timeZone: "UTC" }).legend).toMatchObject({ show: false });
    const one: DqlResult = { series: [byHost.series[1]] };
    expect(toLineSeriesOption(one, { timeZone: "UTC" }).legend).toMatchObject({ show: true });
  });

  it("returns an option with no series for an empty result", () => {
    expect(lines({ series: [] })).toEqual([]);
    expect(lines(undefined)).toEqual([]);
  });
});

describe("countPoints", () => {
  it("counts series and non-null points", () => {
    expect(countPoints(toChartSeries(byHost))).toEqual({ series: 2, points: 3 });
    expect(countPoints([])).toEqual({ series: 0, points: 0 });
  });
});

describe("formatNumber", () => {
  it.each([
    [0, "0"],
    [1.23456, "1.235"],
    [12345, "12.3k"],
    [2_500_000, "2.5M"],
    [-3_000_000_000, "-3G"],
    [0.0001234, "1.23e-4"],
  ])("%d → %s", (v, s) => expect(formatNumber(v)).toBe(s));
});

describe("legend formats", () => {
  const result: DqlResult = {
    series: [
      { name: "cpu", tags: { host: "web-1", dc: "eu" }, columns: ["time", "avg(usage_user)"], values: [[1, 2]] },
      { name: "cpu", tags: { host: "web-2", dc: "us" }, columns: ["time", "avg(usage_user)"], values: [[1, 3]] },
      { name: "mem", tags: { host: "web-1" }, columns: ["time", "used", "free"], values: [[1, 4, 5]] },
    ],
  };

  it("names each series by its query's format: tags, the field, the measurement", () => {
    expect(formatLegend("{{host}} in {{ dc }}", result.series[0], "avg(usage_user)")).toBe("web-1 in eu");
    expect(formatLegend("{{measurement}}.{{field}} {{nope}}", result.series[2], "free")).toBe("mem.free ");
    const names = toChartSeries(result, ["{{host}}", undefined, "{{host}} {{field}}"]).map((s) => s.name);
    expect(names).toEqual(["web-1", "us, web-2", "web-1 used", "web-1 free"]);
  });

  it("names PromQL series by their labels, without storage's own, and {{__name__}} by the metric", () => {
    const promql: DqlResult = {
      series: [
        {
          name: "cpu:usage_user",
          tags: { __measurement__: "cpu", __field__: "usage_user", host: "web-1" },
          columns: ["time", "value"],
          values: [[1, 2]],
        },
        { name: "", tags: {}, columns: ["time", "value"], values: [[1, 3]] },
      ],
    };
    expect(toChartSeries(promql).map((s) => s.name)).toEqual(["web-1", "value"]);
    expect(toChartSeries(promql, ["{{__name__}} on {{host}}", undefined]).map((s) => s.name)).toEqual([
      "cpu:usage_user on web-1",
      "value",
    ]);
  });

  it("keeps the default names without formats", () => {
    expect(toChartSeries(result).map((s) => s.name)).toEqual(["eu, web-1", "us, web-2", "web-1 · used", "web-1 · free"]);
  });
});
