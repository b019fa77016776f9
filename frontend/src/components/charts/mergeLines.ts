import type { EChartsOption, LineSeriesOption } from "echarts";
import { withHiddenSeries } from "./ChartLegend";

/** A line as the chart options hold it: `[time, value]` points, sorted by time. */
type Point = [number, number | null];

interface Member {
  name: string;
  color: string;
  points: Point[];
  dashed: boolean;
}

/** Series ids of merged lines: `lines:<members>:<group>`, read back by `countDrawn`. */
export const MERGED_ID_PREFIX = "lines:";

/** The number of lines a merged series draws, or undefined for an ordinary series id. */
export function mergedMembers(id: unknown): number | undefined {
  if (typeof id !== "string" || !id.startsWith(MERGED_ID_PREFIX)) return undefined;
  const n = Number(id.slice(MERGED_ID_PREFIX.length).split(":")[0]);
  return Number.isInteger(n) && n >= 0 ? n : undefined;
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** Index of the point nearest to `t` in time-sorted `points` (-1 when empty). */
function nearestIndex(points: Point[], t: number): number {
  let lo = 0;
  let hi = points.length - 1;
  if (hi < 0) return -1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (points[mid][0] < t) lo = mid + 1;
    else hi = mid;
  }
  if (lo > 0 && Math.abs(points[lo - 1][0] - t) <= Math.abs(points[lo][0] - t)) return lo - 1;
  return lo;
}

/**
 * Rows the tooltip lists: at most this many, largest values first, then a count of the rest,
 * so that it fits a dashboard panel (it stays inside the chart: a tooltip placed in the page
 * costs ECharts a layout per chart when the chart is created).
 */
export const TOOLTIP_MAX_ROWS = 10;

/**
 * The tooltip rows at time `t`: each visible line's value at the timestamp nearest `t` that
 * any line has (what ECharts' axis tooltip picks), largest first.
 */
export function tooltipRows(members: Member[], t: number): { member: Member; value: number }[] {
  let best = Infinity;
  const found: { member: Member; point: Point }[] = [];
  for (const member of members) {
    const i = nearestIndex(member.points, t);
    if (i < 0) continue;
    const point = member.points[i];
    const d = Math.abs(point[0] - t);
    if (d > best) continue;
    if (d < best) {
      best = d;
      found.length = 0;
    }
    found.push({ member, point });
  }
  return found
    .filter((f) => f.point[1] !== null)
    .map((f) => ({ member: f.member, value: f.point[1] as number }))
    .sort((a, b) => b.value - a.value);
}

/** Points of a line that have a value. */
function drawnPoints(points: Point[]): number {
  let n = 0;
  for (const p of points) if (p[1] !== null) n += 1;
  return n;
}

/** Whether a data item is a `[time, value]` pair, as `toChartSeries` makes them. */
function isPoint(p: unknown): p is Point {
  return Array.isArray(p) && p.length === 2 && typeof p[0] === "number" && (p[1] === null || typeof p[1] === "number");
}

/**
 * A line chart of many series drawn as a few: one ECharts series per colour and style, whose
 * data is its lines one after another with a gap between them, as one flat
 * `[x0, y0, x1, y1, …]` Float64Array (NaN for a gap) that ECharts copies in one piece instead
 * of point by point. The picture is the same, but
 * ECharts builds a model, a data store and a view per series, which for hundreds of lines
 * costs far more than drawing them. Lines named in `hidden` are left out; the tooltip lists
 * every drawn line at the hovered time from the lines themselves.
 *
 * Only plain line and area charts are merged: bars and stacked series keep one series each
 * (stacking needs one series per line), with `hidden` applied through the legend's selection.
 * Either way the canvas legend is switched off: the lines are named in an HTML legend.
 */
export function mergeLines(option: EChartsOption, hidden: ReadonlySet<string>): EChartsOption {
  const series = (Array.isArray(option.series) ? option.series : option.series ? [option.series] : []) as LineSeriesOption[];
  const mergeable =
    series.length > 0 &&
    series.every(
      (s) =>
        s.type === "line" &&
        !s.stack &&
        typeof s.name === "string" &&
        typeof s.color === "string" &&
        Array.isArray(s.data) &&
        (s.data.length === 0 || isPoint(s.data[0])),
    );
  if (!mergeable) {
    const shown = withHiddenSeries(option, hidden);
    return Array.isArray(shown.legend) ? shown : { ...shown, legend: { ...shown.legend, show: false } };
  }

  const members: Member[] = [];
  const groups = new Map<string, { first: LineSeriesOption; members: Member[] }>();
  for (const s of series) {
    const name = s.name as string;
    if (hidden.has(name)) continue;
    const points = s.data as Point[];
    const lineStyle = s.lineStyle ?? {};
    const member: Member = { name, color: s.color as string, points, dashed: lineStyle.type === "dashed" };
    members.push(member);
    // a lone point has no line to show it: its group draws symbols
    const lone = drawnPoints(points) === 1;
    const key = JSON.stringify([s.color, lineStyle, s.areaStyle ?? null, lone || s.showSymbol === true]);
    const group = groups.get(key);
    if (group) group.members.push(member);
    else groups.set(key, { first: s, members: [member] });
  }

  const marks = series[0];
  const merged: LineSeriesOption[] = [...groups.values()].map(({ first, members: ms }, i) => {
    let n = ms.length - 1;
    for (const m of ms) n += m.points.length;
    const data = new Float64Array(2 * n);
    let k = 0;
    for (const m of ms) {
      if (k > 0) {
        data[k++] = m.points[0]?.[0] ?? 0;
        data[k++] = NaN;
      }
      for (const p of m.points) {
        data[k++] = p[0];
        data[k++] = p[1] ?? NaN;
      }
    }
    const lone = ms.every((m) => drawnPoints(m.points) === 1);
    return {
      type: "line",
      id: `${MERGED_ID_PREFIX}${ms.length}:${i}`,
      name: ms.length === 1 ? ms[0].name : `${ms[0].name} and ${ms.length - 1} more`,
      data: data as unknown as LineSeriesOption["data"],
      dimensions: ["time", "value"],
      color: first.color,
      lineStyle: first.lineStyle,
      ...(first.areaStyle ? { areaStyle: first.areaStyle } : {}),
      showSymbol: first.showSymbol === true || lone,
      symbolSize: first.symbolSize ?? 4,
      connectNulls: false,
      emphasis: { disabled: true },
      ...(i === 0 && marks.markLine ? { markLine: marks.markLine } : {}),
      ...(i === 0 && marks.markArea ? { markArea: marks.markArea } : {}),
    };
  });
  // thresholds stay drawn when every line is hidden
  if (merged.length === 0 && (marks.markLine || marks.markArea)) {
    merged.push({ type: "line", id: `${MERGED_ID_PREFIX}0:marks`, data: [], markLine: marks.markLine, markArea: marks.markArea });
  }

  const tooltip = (Array.isArray(option.tooltip) ? option.tooltip[0] : option.tooltip) ?? {};
  const format =
    typeof tooltip.valueFormatter === "function"
      ? (tooltip.valueFormatter as (v: number) => string)
      : (v: number) => String(v);
  const formatter = (params: unknown): string => {
    const list = (Array.isArray(params) ? params : [params]) as { axisValue?: unknown; axisValueLabel?: unknown }[];
    const t = Number(list[0]?.axisValue);
    if (!Number.isFinite(t)) return "";
    const rows = tooltipRows(members, t);
    const head = `<div style="margin-bottom:4px">${escapeHtml(String(list[0]?.axisValueLabel ?? ""))}</div>`;
    const body = rows
      .slice(0, TOOLTIP_MAX_ROWS)
      .map(
        ({ member, value }) =>
          `<div style="display:flex;gap:12px;justify-content:space-between;line-height:1.35"><span>` +
          `<span style="display:inline-block;margin-right:6px;width:10px;height:${member.dashed ? 2 : 10}px;` +
          `border-radius:${member.dashed ? 0 : 5}px;vertical-align:middle;background:${escapeHtml(member.color)}"></span>` +
          `${escapeHtml(member.name)}</span><b>${escapeHtml(format(value))}</b></div>`,
      )
      .join("");
    const more =
      rows.length > TOOLTIP_MAX_ROWS
        ? `<div style="opacity:0.7;margin-top:4px">and ${rows.length - TOOLTIP_MAX_ROWS} more series</div>`
        : "";
    return head + body + more;
  };

  return {
    ...option,
    legend: { show: false },
    tooltip: { ...tooltip, formatter, confine: true, className: "chart-tooltip" },
    series: merged,
  };
}
