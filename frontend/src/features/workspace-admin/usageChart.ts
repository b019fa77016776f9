import type { EChartsOption } from "echarts";
import { formatAxisTime, formatDateTime, localTimeZone, timeZoneLabel } from "@/lib/time";
import { formatNumber } from "@/lib/format";

export interface UsageChartSettings {
  /** Legend name of the usage line, e.g. "Ingest rate". */
  name: string;
  /** Unit shown in the tooltip and the limit label, e.g. "points/s". */
  unit: string;
  /** `[start, end]` in epoch ms. */
  range: [number, number];
  /** The workspace's limit for this figure, drawn as a dashed line; omitted when unknown. */
  limit?: number;
  timeZone?: string;
}

/** Legend name of the limit line, carrying its value. */
export function limitSeriesName(limit: number, unit: string): string {
  return `Limit (${formatNumber(limit)} ${unit})`;
}

/**
 * Usage over time as an area line, with the limit as a dashed horizontal line. The y axis
 * fits both, so the headroom shows; hiding the limit in the legend fits it to usage alone.
 */
export function toUsageChartOption(points: { t: number; value: number }[], settings: UsageChartSettings): EChartsOption {
  const timeZone = settings.timeZone ?? localTimeZone();
  const [start, end] = settings.range;
  const span = Math.max(end - start, 1);
  const limit = settings.limit;
  const limitName = limit === undefined ? "" : limitSeriesName(limit, settings.unit);
  const fmt = (v: number): string => `${formatNumber(v)} ${settings.unit}`;
  return {
    animation: false,
    backgroundColor: "transparent",
    grid: { left: 56, right: 24, top: 24, bottom: 56, containLabel: true },
    legend: { bottom: 0, data: limit === undefined ? [settings.name] : [settings.name, limitName] },
    tooltip: {
      trigger: "axis",
      valueFormatter: (v) => (typeof v === "number" ? fmt(v) : "–"),
    },
    xAxis: {
      type: "time",
      min: start,
      max: end,
      name: timeZoneLabel(timeZone, end),
      nameLocation: "middle",
      nameGap: 28,
      axisLabel: { hideOverlap: true, formatter: (value: number) => formatAxisTime(value, span, timeZone) },
      axisPointer: { label: { formatter: (p) => formatDateTime(Number(p.value), timeZone) } },
    },
    yAxis: { type: "value", min: 0, axisLabel: { formatter: (v: number) => formatNumber(v) } },
    series: [
      {
        type: "line",
        name: settings.name,
        data: points.map((p) => [p.t, p.value]),
        showSymbol: points.length < 2,
        symbolSize: 4,
        areaStyle: { opacity: 0.18 },
      },
      ...(limit === undefined
        ? []
        : [
            {
              type: "line" as const,
              name: limitName,
              data: [
                [start, limit],
                [end, limit],
              ],
              showSymbol: false,
              lineStyle: { type: "dashed" as const, width: 2, color: "#d9534f" },
              itemStyle: { color: "#d9534f" },
              tooltip: { show: false },
            },
          ]),
    ],
  };
}

/** Queries per UTC day as bars. */
export function toQueriesChartOption(days: { day: string; queries: number }[]): EChartsOption {
  return {
    animation: false,
    backgroundColor: "transparent",
    grid: { left: 56, right: 24, top: 24, bottom: 32, containLabel: true },
    tooltip: { trigger: "axis", valueFormatter: (v) => (typeof v === "number" ? `${formatNumber(v)} queries` : "–") },
    xAxis: { type: "category", data: days.map((d) => d.day.slice(5)) },
    yAxis: { type: "value", min: 0, minInterval: 1, axisLabel: { formatter: (v: number) => formatNumber(v) } },
    series: [{ type: "bar", name: "Queries", data: days.map((d) => d.queries), barMaxWidth: 28 }],
  };
}
