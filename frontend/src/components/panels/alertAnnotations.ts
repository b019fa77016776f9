import type { EChartsOption, LineSeriesOption, MarkAreaComponentOption, MarkLineComponentOption } from "echarts";
import { describeTags, type AlertEvent, type Severity } from "@/api/alertEvents";
import { RESOLVED_COLOR, SEVERITY_COLORS } from "@/components/charts/palette";

/*
 * Alert annotations on a dashboard's time-series panels: where a monitor of the panel's query
 * fired (a line in its severity's colour, the time it fired shaded until it resolved) and
 * resolved (a dashed green line). The axis tooltip names the monitor and the group of the
 * events at the time pointed at.
 */

export interface AlertAnnotation {
  eventId: string;
  at: number;
  kind: "firing" | "resolved";
  severity: Severity | null;
  monitor: string;
  monitorId: string | null;
  groupKey: string;
  group: string;
}

/** A firing alert's time on the chart: from when it fired to when it resolved (or the chart's end). */
export interface AnnotationSpan {
  start: number;
  end: number;
  severity: Severity | null;
  monitor: string;
  group: string;
}

/** The events that annotate a panel (firing and resolved ones), oldest first, each once. */
export function annotationsFromEvents(events: readonly AlertEvent[]): AlertAnnotation[] {
  const seen = new Set<string>();
  const out: AlertAnnotation[] = [];
  for (const e of events) {
    if ((e.kind !== "firing" && e.kind !== "resolved") || seen.has(e.id)) continue;
    seen.add(e.id);
    out.push({
      eventId: e.id,
      at: Date.parse(e.at),
      kind: e.kind,
      severity: e.severity ?? null,
      monitor: e.monitor_name,
      monitorId: e.monitor_id ?? null,
      groupKey: e.group_key,
      group: describeTags(e.tags),
    });
  }
  return out.sort((a, b) => a.at - b.at);
}

/**
 * Each group's firing time within `[start, end]`: a firing event opens it, the next resolved
 * event of the same monitor and group closes it. A resolution with no firing in the range
 * fired before it (the span starts at `start`); a firing with no resolution still fires.
 */
export function annotationSpans(annotations: readonly AlertAnnotation[], [start, end]: [number, number]): AnnotationSpan[] {
  const open = new Map<string, AlertAnnotation>();
  const out: AnnotationSpan[] = [];
  for (const a of annotations) {
    const key = `${a.monitorId ?? a.monitor}\u0000${a.groupKey}`;
    if (a.kind === "firing") {
      if (!open.has(key)) open.set(key, a);
      continue;
    }
    const fired = open.get(key);
    open.delete(key);
    out.push({
      start: Math.max(fired?.at ?? start, start),
      end: Math.min(a.at, end),
      severity: fired?.severity ?? a.severity,
      monitor: a.monitor,
      group: a.group,
    });
  }
  for (const a of open.values()) {
    out.push({ start: Math.max(a.at, start), end, severity: a.severity, monitor: a.monitor, group: a.group });
  }
  return out.filter((s) => s.end >= s.start).sort((a, b) => a.start - b.start);
}

/** The colour of an annotation: its severity's when it fired, green when it resolved. */
export function annotationColor(a: Pick<AlertAnnotation, "kind" | "severity">): string {
  if (a.kind === "resolved") return RESOLVED_COLOR;
  return SEVERITY_COLORS[a.severity ?? "critical"];
}

/** Every x of the series' points, in order, each once: where the axis tooltip can stop. */
export function pointTimes(series: readonly LineSeriesOption[]): number[] {
  const times = new Set<number>();
  for (const s of series) {
    if (!Array.isArray(s.data)) continue;
    for (const d of s.data) {
      const t = Array.isArray(d) ? Number(d[0]) : NaN;
      if (Number.isFinite(t)) times.add(t);
    }
  }
  return [...times].sort((a, b) => a - b);
}

/** The element of `times` (sorted, not empty) nearest to `t`. */
function nearest(times: readonly number[], t: number): number {
  let lo = 0;
  let hi = times.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 && t - times[lo - 1] <= times[lo] - t ? times[lo - 1] : times[lo];
}

/**
 * The annotations the tooltip at `t` tells about: those nearest to the same point as `t`. The
 * axis tooltip stops at points, so an event between two points is told about at the nearer
 * one, and every event is reached by pointing at it. Without points, those within `toleranceMs`.
 */
export function annotationsNear(
  annotations: readonly AlertAnnotation[],
  t: number,
  times: readonly number[],
  toleranceMs: number,
): AlertAnnotation[] {
  if (times.length === 0) return annotations.filter((a) => Math.abs(a.at - t) <= toleranceMs);
  const at = nearest(times, t);
  return annotations.filter((a) => nearest(times, a.at) === at);
}

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

interface AxisParam {
  axisValue?: unknown;
  axisValueLabel?: unknown;
  seriesName?: string;
  marker?: unknown;
  value?: unknown;
}

/** One tooltip line per annotation: `● Fired · CPU high · host=web-1`. */
export function annotationTooltipRows(annotations: readonly AlertAnnotation[]): string {
  return annotations
    .map(
      (a) =>
        `<div style="line-height:1.35"><span style="display:inline-block;margin-right:6px;width:10px;height:10px;` +
        `transform:rotate(45deg);vertical-align:middle;background:${annotationColor(a)}"></span>` +
        `${a.kind === "firing" ? "Fired" : "Resolved"} · <b>${escapeHtml(a.monitor)}</b> · ${escapeHtml(a.group)}</div>`,
    )
    .join("");
}

/**
 * `option` (a time-series panel's) with the alert annotations drawn: a line where each event
 * happened (silent: the chart's own tooltip tells about it), the firing time shaded, added to
 * the first series' marks (which thresholds use too, and which merged lines keep). Without
 * annotations the option is returned as it is.
 */
export function withAlertAnnotations(
  option: EChartsOption,
  annotations: readonly AlertAnnotation[],
  range: [number, number],
): EChartsOption {
  const series = (Array.isArray(option.series) ? option.series : option.series ? [option.series] : []) as LineSeriesOption[];
  const shown = annotations.filter((a) => a.at >= range[0] && a.at <= range[1]);
  const spans = annotationSpans(annotations, range);
  if (series.length === 0 || (shown.length === 0 && spans.length === 0)) return option;

  const first = series[0];
  const lines: NonNullable<MarkLineComponentOption["data"]> = shown.map((a) => ({
    xAxis: a.at,
    name: `${a.kind === "firing" ? "Fired" : "Resolved"}: ${a.monitor} · ${a.group}`,
    label: { show: false },
    lineStyle: { color: annotationColor(a), type: a.kind === "firing" ? ("solid" as const) : ("dashed" as const), width: 1.5 },
  }));
  const areas: NonNullable<MarkAreaComponentOption["data"]> = spans.map(
    (s) =>
      [
        { xAxis: s.start, itemStyle: { color: SEVERITY_COLORS[s.severity ?? "critical"], opacity: 0.08 } },
        { xAxis: s.end },
      ] as [object, object],
  );
  const markLine: MarkLineComponentOption = first.markLine
    ? { ...first.markLine, data: [...(first.markLine.data ?? []), ...lines] }
    : { silent: true, symbol: "none", data: lines };
  const markArea: MarkAreaComponentOption = first.markArea
    ? { ...first.markArea, data: [...(first.markArea.data ?? []), ...areas] }
    : { silent: true, data: areas };
  const nextSeries = [{ ...first, markLine, markArea }, ...series.slice(1)];

  const tooltip = Array.isArray(option.tooltip) ? undefined : option.tooltip;
  if (!tooltip || tooltip.formatter !== undefined || shown.length === 0) return { ...option, series: nextSeries };
  const valueFormatter =
    typeof tooltip.valueFormatter === "function" ? tooltip.valueFormatter : (v: unknown) => String(v);
  const times = pointTimes(series);
  const tolerance = (range[1] - range[0]) / 200;
  const formatter = (params: unknown): string => {
    const list = (Array.isArray(params) ? params : [params]) as AxisParam[];
    const t = Number(list[0]?.axisValue);
    const head = `<div style="margin-bottom:4px">${escapeHtml(String(list[0]?.axisValueLabel ?? ""))}</div>`;
    const rows = list
      .map((p) => {
        const v = Array.isArray(p.value) ? p.value[p.value.length - 1] : p.value;
        const marker = typeof p.marker === "string" ? p.marker : "";
        return (
          `<div style="display:flex;gap:12px;justify-content:space-between;line-height:1.35"><span>${marker}` +
          `${escapeHtml(p.seriesName ?? "")}</span><b>${escapeHtml(valueFormatter(v as number, 0))}</b></div>`
        );
      })
      .join("");
    const near = Number.isFinite(t) ? annotationsNear(shown, t, times, tolerance) : [];
    const alerts = near.length > 0 ? `<div style="margin-top:6px">${annotationTooltipRows(near)}</div>` : "";
    return head + rows + alerts;
  };
  return { ...option, series: nextSeries, tooltip: { ...tooltip, formatter, className: "chart-tooltip" } };
}
