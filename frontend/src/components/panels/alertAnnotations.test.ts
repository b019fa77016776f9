import type { EChartsOption, LineSeriesOption } from "echarts";
import { describe, expect, it } from "vitest";
import type { AlertEvent } from "@/api/alertEvents";
import { RESOLVED_COLOR, SEVERITY_COLORS } from "@/components/charts/palette";
import { annotationsFromEvents, annotationsNear, annotationSpans, pointTimes, withAlertAnnotations } from "./alertAnnotations";

const T = Date.UTC(2026, 10, 28, 10);
const M = 60_000;

function event(id: string, kind: AlertEvent["kind"], at: number, host = "web-1"): AlertEvent {
  return {
    id,
    monitor_id: "m1",
    monitor_name: "CPU busy",
    group_key: `host=${host}`,
    tags: { host },
    kind,
    from_state: "ok",
    to_state: kind,
    severity: kind === "resolved" ? null : "critical",
    value: 95,
    condition: "> 90",
    language: "dql",
    query: "M::cpu:(avg(usage_user)) BY host",
    title: "",
    message: "",
    at: new Date(at).toISOString(),
    muted: false,
    silence_id: null,
    details: {},
  };
}

const EVENTS = [
  event("e3", "resolved", T + 30 * M),
  event("e1", "firing", T + 10 * M),
  event("p", "pending", T + 5 * M),
  event("e4", "firing", T + 40 * M, "web-2"),
  event("e0", "resolved", T + 2 * M, "web-3"),
];

const base = (): EChartsOption => ({
  tooltip: { trigger: "axis", valueFormatter: (v) => `${String(v)} %` },
  series: [
    {
      type: "line",
      name: "web-1",
      data: [[T, 1], [T + 10 * M, 2], [T + 20 * M, 3]],
      markLine: { silent: true, label: { show: true }, data: [{ yAxis: 90 }] },
    },
    { type: "line", name: "web-2", data: [] },
  ],
});

describe("alert annotations", () => {
  const annotations = annotationsFromEvents(EVENTS);

  it("keeps fired and resolved events, oldest first", () => {
    expect(annotations.map((a) => [a.eventId, a.kind, a.group])).toEqual([
      ["e0", "resolved", "host=web-3"],
      ["e1", "firing", "host=web-1"],
      ["e3", "resolved", "host=web-1"],
      ["e4", "firing", "host=web-2"],
    ]);
  });

  it("spans each firing to its group's resolution, the chart's edges for what began before or goes on", () => {
    expect(annotationSpans(annotations, [T, T + 60 * M])).toEqual([
      { start: T, end: T + 2 * M, severity: null, monitor: "CPU busy", group: "host=web-3" },
      { start: T + 10 * M, end: T + 30 * M, severity: "critical", monitor: "CPU busy", group: "host=web-1" },
      { start: T + 40 * M, end: T + 60 * M, severity: "critical", monitor: "CPU busy", group: "host=web-2" },
    ]);
  });

  it("adds a line per event and the firing spans to the first series' marks, beside the thresholds", () => {
    const option = withAlertAnnotations(base(), annotations, [T, T + 60 * M]);
    const [first, second] = option.series as LineSeriesOption[];
    const lines = first.markLine?.data as { xAxis?: number; yAxis?: number; label?: { show?: boolean }; lineStyle?: { color?: string } }[];
    expect(lines[0]).toEqual({ yAxis: 90 });
    expect(lines.slice(1).map((l) => [l.xAxis, l.lineStyle?.color, l.label?.show])).toEqual([
      [T + 2 * M, RESOLVED_COLOR, false],
      [T + 10 * M, SEVERITY_COLORS.critical, false],
      [T + 30 * M, RESOLVED_COLOR, false],
      [T + 40 * M, SEVERITY_COLORS.critical, false],
    ]);
    expect(first.markLine?.silent).toBe(true);
    expect((first.markArea?.data as [{ xAxis: number }, { xAxis: number }][]).map(([a, b]) => [a.xAxis, b.xAxis])).toEqual([
      [T, T + 2 * M],
      [T + 10 * M, T + 30 * M],
      [T + 40 * M, T + 60 * M],
    ]);
    expect(second.markLine).toBeUndefined();
  });

  it("names the monitor and the group in the tooltip at the event's time", () => {
    const option = withAlertAnnotations(base(), annotations, [T, T + 60 * M]);
    const formatter = (option.tooltip as { formatter: (p: unknown) => string }).formatter;
    const at = (t: number): string =>
      formatter([{ axisValue: t, axisValueLabel: "10:10", seriesName: "web-1", marker: "<i></i>", value: [t, 2] }]);
    const html = at(T + 10 * M);
    expect(html).toContain("2 %");
    expect(html).toContain("Fired · <b>CPU busy</b> · host=web-1");
    // the points are at 0, 10 and 20 minutes: the resolution at 30 and the firing at 40 are
    // told about at the last point, the one at 2 at the first
    expect(at(T + 20 * M)).toContain("Resolved · <b>CPU busy</b> · host=web-1");
    expect(at(T + 20 * M)).toContain("Fired · <b>CPU busy</b> · host=web-2");
    expect(at(T)).toContain("Resolved · <b>CPU busy</b> · host=web-3");
    expect(at(T + 10 * M)).not.toContain("host=web-2");
  });

  it("tells about each event at the point nearest to it, or within a tolerance when there are none", () => {
    const times = pointTimes(base().series as LineSeriesOption[]);
    expect(times).toEqual([T, T + 10 * M, T + 20 * M]);
    expect(annotationsNear(annotations, T + 6 * M, times, 0).map((a) => a.eventId)).toEqual(["e1"]);
    expect(annotationsNear(annotations, T + 4 * M, times, 0).map((a) => a.eventId)).toEqual(["e0"]);
    expect(annotationsNear(annotations, T + 11 * M, [], 60_000).map((a) => a.eventId)).toEqual(["e1"]);
  });

  it("leaves a panel without events as it was", () => {
    const option = base();
    expect(withAlertAnnotations(option, [], [T, T + 60 * M])).toBe(option);
    expect(withAlertAnnotations(option, annotations, [T + 2 * 60 * M, T + 3 * 60 * M])).not.toBe(option); // still firing: a span
    expect(withAlertAnnotations({ series: [] }, annotations, [T, T + 60 * M])).toEqual({ series: [] });
  });
});
