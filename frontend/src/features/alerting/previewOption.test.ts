import type { LineSeriesOption } from "echarts";
import { describe, expect, it } from "vitest";
import type { Preview } from "./api";
import {
  alertsAt,
  previewAlertRows,
  previewExtent,
  previewOption,
  previewSummary,
  thresholdBands,
} from "./previewOption";
import { SEVERITY_COLORS } from "./severity";

const H = 3_600_000;
const START = Date.UTC(2026, 10, 27, 8);
const END = START + 24 * H;

const PREVIEW: Preview = {
  start: START,
  end: END,
  step_seconds: 60,
  series: [
    { tags: { host: "web-1" }, points: [[START + H, 50], [START + 2 * H, 95], [START + 3 * H, 40]] },
    { tags: { host: "web-2" }, points: [[START + H, 20], [START + 2 * H, null], [START + 3 * H, 85]] },
  ],
  alerts: [
    { tags: { host: "web-1" }, severity: "critical", start: START + 2 * H, end: START + 3 * H },
    { tags: { host: "web-2" }, severity: "warning", start: START + 3 * H, end: null },
  ],
  conditions: [
    { severity: "critical", op: ">", threshold: 90 },
    { severity: "warning", op: "between", threshold: 80, threshold2: 90 },
  ],
  truncated: false,
};

type Mark = { xAxis?: number; yAxis?: number; itemStyle?: { color?: string } };

describe("previewOption", () => {
  const option = previewOption(PREVIEW, { timeZone: "UTC" });
  const series = option.series as LineSeriesOption[];

  it("draws one line per group, named by its tags, over the preview's 24 hours", () => {
    expect(series.map((s) => s.name)).toEqual(["host=web-1", "host=web-2"]);
    expect(series[1].data).toEqual(PREVIEW.series[1].points);
    expect(option.xAxis).toMatchObject({ type: "time", min: START, max: END });
    // the legend names the groups; switching one off would hide the bands too
    expect(option.legend).toMatchObject({ selectedMode: false, data: ["host=web-1", "host=web-2"] });
  });

  it("paints each condition as a band in its severity's colour, the worst drawn last (on top)", () => {
    const areas = (series[0].markArea?.data ?? []) as [Mark, Mark][];
    const bands = areas.filter(([a]) => a.yAxis !== undefined);
    const [lo, hi] = previewExtent(PREVIEW);
    expect(bands.map(([a, b]) => [a.yAxis, b.yAxis, a.itemStyle?.color])).toEqual([
      [80, 90, SEVERITY_COLORS.warning],
      [90, hi, SEVERITY_COLORS.critical],
    ]);
    expect(option.yAxis).toMatchObject({ min: lo, max: hi });
    const lines = (series[0].markLine?.data ?? []) as (Mark & { name?: string })[];
    expect(lines.filter((l) => l.yAxis !== undefined).map((l) => [l.yAxis, l.name])).toEqual([
      [90, "Critical > 90"],
      [80, "Warning between 80 and 90"],
      [90, "Warning between 80 and 90"],
    ]);
  });

  it("shades where it would have fired, from firing to resolved (or the end), starting with a line", () => {
    const areas = (series[0].markArea?.data ?? []) as [Mark & { name?: string }, Mark][];
    const fired = areas.filter(([a]) => a.xAxis !== undefined);
    expect(fired.map(([a, b]) => [a.xAxis, b.xAxis, a.itemStyle?.color, a.name])).toEqual([
      [START + 2 * H, START + 3 * H, SEVERITY_COLORS.critical, "Critical · host=web-1"],
      [START + 3 * H, END, SEVERITY_COLORS.warning, "Warning · host=web-2"],
    ]);
    const lines = (series[0].markLine?.data ?? []) as Mark[];
    expect(lines.filter((l) => l.xAxis !== undefined).map((l) => l.xAxis)).toEqual([START + 2 * H, START + 3 * H]);
    expect(series[1].markArea).toBeUndefined();
  });

  it("lists the values and the alerts firing at the time pointed at in its tooltip", () => {
    const format = (option.tooltip as { formatter: (p: unknown) => string }).formatter;
    const html = format([
      { axisValue: START + 3 * H, seriesName: "host=web-1", value: [START + 3 * H, 40], color: "#111" },
      { axisValue: START + 3 * H, seriesName: "host=web-2", value: [START + 3 * H, 85], color: "#222" },
    ]);
    expect(html).toContain("2026-11-27 11:00:00");
    expect(html.indexOf("host=web-2")).toBeLessThan(html.indexOf("host=web-1")); // largest first
    expect(html).toContain("Would be firing");
    expect(html).toContain("Critical"); // web-1 resolves at that very time
    expect(html).toContain("Warning");
  });

  it("writes changes in percent on the value axis when change detection is on", () => {
    const pct = previewOption(PREVIEW, { timeZone: "UTC", change: "percent" });
    const fmt = (pct.yAxis as { axisLabel: { formatter: (v: number) => string } }).axisLabel.formatter;
    expect(fmt(50)).toBe("50 %");
  });
});

describe("thresholdBands", () => {
  it("covers where each operator holds within the axis", () => {
    expect(
      thresholdBands(
        [
          { severity: "critical", op: "<=", threshold: 10 },
          { severity: "error", op: "outside", threshold: 20, threshold2: 30 },
          { severity: "info", op: "==", threshold: 5 },
        ],
        [0, 100],
      ),
    ).toEqual([
      { severity: "critical", from: 0, to: 10 },
      { severity: "error", from: 0, to: 20 },
      { severity: "error", from: 30, to: 100 },
    ]);
  });

  it("keeps a threshold far from the data on the axis, on round ticks with room past the edges", () => {
    expect(previewExtent(PREVIEW)).toEqual([0, 100]);
    const [lo, hi] = previewExtent({ series: [{ tags: {}, points: [[0, 1], [1, 3]] }], conditions: [{ severity: "critical", op: ">", threshold: 100 }] });
    expect([lo, hi]).toEqual([0, 120]);
  });
});

describe("preview summary", () => {
  it("says how often and for how many groups it would have fired, newest first in the list", () => {
    expect(previewSummary(PREVIEW)).toBe("Would have fired 2 times (2 groups) in the last 24 hours; firing now.");
    expect(previewSummary({ ...PREVIEW, alerts: [] })).toBe("Would not have fired in the last 24 hours.");
    expect(previewSummary({ ...PREVIEW, alerts: [PREVIEW.alerts[0]], end: START + H })).toBe(
      "Would have fired once in the last hour.",
    );
    expect(previewAlertRows(PREVIEW)).toEqual([
      { severity: "warning", group: "host=web-2", start: START + 3 * H, end: undefined },
      { severity: "critical", group: "host=web-1", start: START + 2 * H, end: START + 3 * H },
    ]);
    expect(alertsAt(PREVIEW.alerts, START + 2.5 * H, END).map((a) => a.severity)).toEqual(["critical"]);
  });
});
