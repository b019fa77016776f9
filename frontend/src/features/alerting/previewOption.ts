import type { EChartsOption, LineSeriesOption, MarkAreaComponentOption, MarkLineComponentOption } from "echarts";
import { number } from "echarts/core";
import { SERIES_COLORS } from "@/components/charts/palette";
import { chartGrid, formatNumber, MANY_SERIES } from "@/components/panels/toLineSeriesOption";
import { formatAxisTime, formatDateTime, localTimeZone, timeZoneLabel } from "@/lib/time";
import type { Condition, Preview, Severity } from "./api";
import { describeCondition } from "./conditions";
import { describeTags, SEVERITIES, SEVERITY_COLORS, SEVERITY_LABELS } from "./severity";

type PreviewAlert = Preview["alerts"][number];

export interface PreviewOptionSettings {
  timeZone?: string;
  /** Change detection is on: the values are changes, in percent or as differences. */
  change?: "percent" | "absolute";
}

/** A y range `[from, to]` painted in a severity's colour: where its condition holds. */
export interface ThresholdBand {
  severity: Severity;
  from: number;
  to: number;
}

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

/** A series' name in the preview: its group's tags, or the value for a query without groups. */
export function previewSeriesName(tags: Record<string, string>): string {
  return Object.keys(tags).length === 0 ? "value" : describeTags(tags);
}

/**
 * The value axis's range: every value and every threshold inside it (a threshold far above the
 * data is still seen), widened to round ticks with a step of room past a value on an edge.
 */
export function previewExtent(preview: Pick<Preview, "series" | "conditions">): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const s of preview.series) {
    for (const [, v] of s.points) {
      if (v === null || !Number.isFinite(v)) continue;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  for (const c of preview.conditions) {
    for (const t of [c.threshold, c.threshold2]) {
      if (t === null || t === undefined) continue;
      if (t < lo) lo = t;
      if (t > hi) hi = t;
    }
  }
  if (!Number.isFinite(lo)) return [0, 1];
  if (lo === hi) {
    const pad = Math.abs(lo) / 10 || 1;
    [lo, hi] = [lo - pad, hi + pad];
  }
  const step = number.nice((hi - lo) / 5, true);
  let top = Math.ceil(hi / step) * step;
  let bottom = Math.floor(lo / step) * step;
  if (top === hi) top += step;
  if (bottom === lo && lo !== 0) bottom -= step;
  return [bottom, top];
}

/**
 * Where each condition holds on the value axis `[lo, hi]`: above or below its threshold, between
 * its bounds, or outside them (two bands). `==` and `!=` hold on a line, drawn as one.
 */
export function thresholdBands(conditions: readonly Condition[], [lo, hi]: [number, number]): ThresholdBand[] {
  const out: ThresholdBand[] = [];
  for (const c of conditions) {
    const t = c.threshold;
    const t2 = c.threshold2 ?? t;
    switch (c.op) {
      case ">":
      case ">=":
        if (t < hi) out.push({ severity: c.severity, from: t, to: hi });
        break;
      case "<":
      case "<=":
        if (t > lo) out.push({ severity: c.severity, from: lo, to: t });
        break;
      case "between":
        out.push({ severity: c.severity, from: t, to: t2 });
        break;
      case "outside":
        if (t > lo) out.push({ severity: c.severity, from: lo, to: t });
        if (t2 < hi) out.push({ severity: c.severity, from: t2, to: hi });
        break;
      default:
        break;
    }
  }
  return out;
}

/** The alerts the preview raised that were firing (or without data) at `t`. */
export function alertsAt(alerts: readonly PreviewAlert[], t: number, end: number): PreviewAlert[] {
  return alerts.filter((a) => a.start <= t && t <= (a.end ?? end));
}

/** `Critical` / `No data`: how an alert's severity reads. */
export function alertSeverityLabel(severity: PreviewAlert["severity"]): string {
  return severity === "nodata" ? "No data" : SEVERITY_LABELS[severity];
}

/** Which severity is worse (bands of the worse one are drawn over the lesser). */
const rank = (s: Severity): number => SEVERITIES.indexOf(s);

/**
 * The preview as a chart: each group's value at every evaluation, the conditions as coloured
 * bands (worst severity on top) with a dashed line at each threshold, and where the monitor
 * would have fired as shaded time ranges in the alert's severity colour, starting with a
 * line. The legend names the groups and cannot hide them: the bands and alerts stay drawn.
 */
export function previewOption(preview: Preview, settings: PreviewOptionSettings = {}): EChartsOption {
  const timeZone = settings.timeZone ?? localTimeZone();
  const span = Math.max(preview.end - preview.start, 1);
  const [lo, hi] = previewExtent(preview);
  const suffix = settings.change === "percent" ? " %" : "";
  const format = (v: number): string => `${formatNumber(v)}${suffix}`;
  const many = preview.series.length > MANY_SERIES;

  const bands = thresholdBands(preview.conditions, [lo, hi]).sort((a, b) => rank(b.severity) - rank(a.severity));
  const areas: NonNullable<MarkAreaComponentOption["data"]> = [
    ...bands.map(
      (b) =>
        [
          { yAxis: b.from, itemStyle: { color: SEVERITY_COLORS[b.severity], opacity: 0.1 } },
          { yAxis: b.to },
        ] as [object, object],
    ),
    ...preview.alerts.map(
      (a) =>
        [
          {
            xAxis: a.start,
            name: `${alertSeverityLabel(a.severity)} · ${describeTags(a.tags)}`,
            itemStyle: { color: SEVERITY_COLORS[a.severity], opacity: 0.16 },
            label: { show: false },
          },
          { xAxis: a.end ?? preview.end },
        ] as [object, object],
    ),
  ];
  const lines: NonNullable<MarkLineComponentOption["data"]> = [
    ...preview.conditions.flatMap((c) =>
      [c.threshold, ...(c.op === "between" || c.op === "outside" ? [c.threshold2 ?? c.threshold] : [])].map((t) => ({
        yAxis: t,
        name: `${SEVERITY_LABELS[c.severity]} ${describeCondition(c)}`,
        lineStyle: { color: SEVERITY_COLORS[c.severity], type: "dashed" as const, width: 1 },
        label: { formatter: `${SEVERITY_LABELS[c.severity]} ${describeCondition(c)}`, color: SEVERITY_COLORS[c.severity] },
      })),
    ),
    ...preview.alerts.map((a) => ({
      xAxis: a.start,
      name: `fires: ${describeTags(a.tags)}`,
      lineStyle: { color: SEVERITY_COLORS[a.severity], type: "solid" as const, width: 1.5 },
      label: { show: false },
    })),
  ];

  const series: LineSeriesOption[] = preview.series.map((s, i) => ({
    type: "line",
    name: previewSeriesName(s.tags),
    data: s.points,
    color: SERIES_COLORS[i % SERIES_COLORS.length],
    showSymbol: s.points.filter(([, v]) => v !== null).length < 2,
    symbolSize: 4,
    connectNulls: false,
    lineStyle: { width: 1.5 },
    emphasis: many ? { disabled: true } : { focus: "series" },
    ...(s.points.length > 1000 ? { sampling: "lttb" as const } : {}),
  }));
  if (series.length > 0 && (areas.length > 0 || lines.length > 0)) {
    series[0] = {
      ...series[0],
      markArea: { silent: true, data: areas },
      markLine: {
        silent: true,
        symbol: "none",
        label: { show: true, position: "insideEndTop", fontSize: 11 },
        data: lines,
      },
    };
  }

  const tooltip = (params: unknown): string => {
    const list = (Array.isArray(params) ? params : [params]) as {
      axisValue?: unknown;
      seriesName?: string;
      value?: unknown;
      color?: string;
    }[];
    const t = Number(list[0]?.axisValue);
    if (!Number.isFinite(t)) return "";
    const rows = list
      .map((p) => ({ name: p.seriesName ?? "", color: p.color ?? "", value: Array.isArray(p.value) ? p.value[1] : p.value }))
      .filter((r): r is { name: string; color: string; value: number } => typeof r.value === "number")
      .sort((a, b) => b.value - a.value);
    const firing = alertsAt(preview.alerts, t, preview.end);
    const row = (color: string, name: string, value: string): string =>
      `<div style="display:flex;gap:12px;justify-content:space-between;line-height:1.35"><span>` +
      `<span style="display:inline-block;margin-right:6px;width:10px;height:10px;border-radius:5px;vertical-align:middle;` +
      `background:${escapeHtml(color)}"></span>${escapeHtml(name)}</span><b>${escapeHtml(value)}</b></div>`;
    return (
      `<div style="margin-bottom:4px">${escapeHtml(formatDateTime(t, timeZone))}</div>` +
      rows
        .slice(0, 10)
        .map((r) => row(r.color, r.name, format(r.value)))
        .join("") +
      (rows.length > 10 ? `<div style="opacity:0.7">and ${rows.length - 10} more series</div>` : "") +
      (firing.length > 0
        ? `<div style="margin-top:6px;font-weight:600">Would be firing</div>` +
          firing
            .slice(0, 5)
            .map((a) => row(SEVERITY_COLORS[a.severity], describeTags(a.tags), alertSeverityLabel(a.severity)))
            .join("") +
          (firing.length > 5 ? `<div style="opacity:0.7">and ${firing.length - 5} more</div>` : "")
        : "")
    );
  };

  return {
    animation: false,
    backgroundColor: "transparent",
    grid: chartGrid({ left: 64, right: 24, top: 16, bottom: 64 }),
    legend: {
      show: series.length > 0,
      type: "scroll",
      bottom: 0,
      // the groups are named, not switched off: the bands and alerts hang on the first one
      selectedMode: false,
      data: series.map((s) => String(s.name)),
    },
    tooltip: {
      trigger: "axis",
      axisPointer: { type: "cross", label: { show: false } },
      formatter: tooltip,
      className: "chart-tooltip",
    },
    xAxis: {
      type: "time",
      min: preview.start,
      max: preview.end,
      name: timeZoneLabel(timeZone, preview.end),
      nameLocation: "middle",
      nameGap: 28,
      axisLabel: { hideOverlap: true, formatter: (v: number) => formatAxisTime(v, span, timeZone) },
    },
    yAxis: {
      type: "value",
      min: lo,
      max: hi,
      axisLabel: { formatter: (v: number) => format(v) },
    },
    series,
  };
}

export interface PreviewAlertRow {
  severity: PreviewAlert["severity"];
  group: string;
  start: number;
  /** Undefined: still firing at the end of the preview. */
  end?: number;
}

/** The preview's alerts for people, newest first: the list under the chart. */
export function previewAlertRows(preview: Pick<Preview, "alerts">): PreviewAlertRow[] {
  return [...preview.alerts]
    .sort((a, b) => b.start - a.start)
    .map((a) => ({ severity: a.severity, group: describeTags(a.tags), start: a.start, end: a.end ?? undefined }));
}

/** "Would have fired 3 times (2 groups) in the last 24 hours", or that it would not have. */
export function previewSummary(preview: Pick<Preview, "alerts" | "start" | "end">): string {
  const hours = Math.round((preview.end - preview.start) / 3_600_000);
  const when = `in the last ${hours === 1 ? "hour" : `${hours} hours`}`;
  const n = preview.alerts.length;
  if (n === 0) return `Would not have fired ${when}.`;
  const groups = new Set(preview.alerts.map((a) => describeTags(a.tags))).size;
  const times = n === 1 ? "once" : `${n} times`;
  const still = preview.alerts.some((a) => a.end === null || a.end === undefined) ? "; firing now" : "";
  return `Would have fired ${times}${groups > 1 ? ` (${groups} groups)` : ""} ${when}${still}.`;
}
