/**
 * ECharts options for a scenario, built from its measurements and resource samples:
 * bars per system for single figures (stacked by process where a system is several),
 * grouped bars per query, lines over the sweep position for sweeps, and CPU % / RSS over time.
 */
import type { EChartsOption, SeriesOption } from "echarts";
import type { BenchmarkMeasurement, BenchmarkResourceSeries, BenchmarkScenarioResult } from "./api";
import { betterOf, commonLabelKeys, figureLabels, metricsOf, subjectOf, subjectsOf, sweepLabelOf } from "./report";
import { profileOf } from "./scenarios";
import { formatTick, formatValue } from "./units";

export interface ChartSpec {
  id: string;
  metric: string;
  title: string;
  /** What the chart shows, for screen readers. */
  label: string;
  option: EChartsOption;
  /** Needs the full width (many grouped bars). */
  wide?: boolean;
}

const SYSTEM_COLORS: Record<string, string> = {
  vigil: "#3b6fe0",
  "vigil-storage": "#8a3ffc",
  victoriametrics: "#e8743b",
  influxdb: "#1a9e77",
  postgres: "#d1495b",
};
const SHADES: Record<string, string[]> = {
  vigil: ["#3b6fe0", "#7fa3f0"],
  "vigil-storage": ["#8a3ffc", "#c09cff"],
  victoriametrics: ["#e8743b", "#f3ac88"],
  influxdb: ["#1a9e77", "#74cfb2"],
  postgres: ["#d1495b", "#e89aa5"],
};
const FALLBACK_COLORS = ["#5470c6", "#91cc75", "#fac858", "#73c0de", "#3ba272", "#fc8452", "#9a60b4", "#ea7ccc"];

/** A stable colour per subject: the system's, lighter for its second query language. */
export function colorOf(subject: string, subjects: string[]): string {
  const system = subject.split(" · ")[0];
  // the system alone and its first language share the system's colour
  const languages = subjects.filter((s) => s.startsWith(`${system} · `));
  const shades = SHADES[system];
  if (shades) return shades[Math.min(Math.max(0, languages.indexOf(subject)), shades.length - 1)];
  return SYSTEM_COLORS[system] ?? FALLBACK_COLORS[Math.max(0, subjects.indexOf(subject)) % FALLBACK_COLORS.length];
}

export function metricTitle(metric: string): string {
  return metric.replace(/_/g, " ").replace(/\bms\b/, "(ms)").replace(/\bp(50|99)\b/, "p$1");
}

/** Log scale when the values span two orders of magnitude or more. */
function wantsLog(values: (number | null)[]): boolean {
  const pos = values.filter((v): v is number => v !== null && v > 0);
  if (pos.length < 2) return false;
  return Math.max(...pos) / Math.min(...pos) >= 100;
}

function valueAxis(unit: string, log: boolean, name?: string): EChartsOption["yAxis"] {
  return {
    type: log ? "log" : "value",
    name: name ?? (log ? `${unit} (log)` : unit),
    nameTextStyle: { align: "left" },
    axisLabel: { formatter: (v: number) => formatTick(v, unit) },
    splitLine: { show: true },
  };
}

/** Bytes drawn in the binary unit of their largest value, so ticks fall on round numbers. */
export interface DisplayScale {
  factor: number;
  axisUnit: string;
}

export function displayScale(values: (number | null)[], unit: string): DisplayScale {
  if (unit !== "bytes") return { factor: 1, axisUnit: unit };
  const max = Math.max(0, ...values.filter((v): v is number => v !== null).map(Math.abs));
  const names = ["B", "KiB", "MiB", "GiB", "TiB"];
  let i = 0;
  while (max / 1024 ** i >= 1024 && i < names.length - 1) i += 1;
  return { factor: 1024 ** i, axisUnit: names[i] };
}

function scaledAxis(scale: DisplayScale, name?: string): EChartsOption["yAxis"] {
  return {
    type: "value",
    name: name ? `${name} (${scale.axisUnit})` : scale.axisUnit,
    nameTextStyle: { align: "left" },
    axisLabel: { formatter: (v: number) => formatTick(v, "") },
    splitLine: { show: true },
  };
}

const GRID = { left: 16, right: 24, top: 48, bottom: 28, containLabel: true };

function tooltipValue(unit: string) {
  return (v: unknown): string => formatValue(typeof v === "number" ? v : Array.isArray(v) ? Number(v[1]) : null, unit);
}

function logSafe(v: number | null, log: boolean): number | null {
  return log && v !== null && v <= 0 ? null : v;
}

/**
 * Bars on a log scale, drawn as exponents above the axis floor on a linear axis, so every bar
 * rises from the bottom of the chart (ECharts roots bars at 0, and at 1 on a log axis).
 * Bytes of a kibibyte or more use powers of 1024.
 */
export interface LogScale {
  base: number;
  /** The exponent at the bottom of the axis. */
  min: number;
  max: number;
}

export function logScale(values: (number | null)[], unit: string): LogScale {
  const pos = values.filter((v): v is number => v !== null && v > 0);
  const base = unit === "bytes" && Math.min(...pos) >= 1024 ? 1024 : 10;
  const exps = pos.map((v) => Math.log(v) / Math.log(base));
  const min = Math.floor(Math.min(...exps));
  return { base, min, max: Math.max(Math.ceil(Math.max(...exps)), min + 1) };
}

/** Height of a bar: the value's exponent above the axis floor. */
export function logHeight(v: number | null, scale: LogScale): number | null {
  return v === null || v <= 0 ? null : Math.log(v) / Math.log(scale.base) - scale.min;
}

/** The value a bar height stands for. */
export function logValue(height: number, scale: LogScale): number {
  return scale.base ** (height + scale.min);
}

function logBarAxis(unit: string, scale: LogScale): EChartsOption["yAxis"] {
  return {
    type: "value",
    name: `${unit} (log)`,
    nameTextStyle: { align: "left" },
    min: 0,
    max: scale.max - scale.min,
    interval: 1,
    axisLabel: { formatter: (h: number) => formatTick(logValue(h, scale), unit) },
    splitLine: { show: true },
  };
}

function processPart(process: string, system: string): string {
  if (process === system) return "server";
  return process.startsWith(`${system}/`) ? process.slice(system.length + 1) : process;
}

/** Bars: one per subject, or stacked by process when a system runs several. */
function barsBySubject(id: string, metric: string, ms: BenchmarkMeasurement[], subjects: string[]): ChartSpec {
  const unit = ms[0].unit;
  const present = subjects.filter((s) => ms.some((m) => subjectOf(m) === s));
  const byProcess = ms.some((m) => m.labels?.process && m.labels.process !== m.system);
  const title = metricTitle(metric);
  if (byProcess) {
    const parts: string[] = [];
    for (const m of ms) {
      const p = processPart(m.labels?.process ?? m.system, m.system);
      if (!parts.includes(p)) parts.push(p);
    }
    const totals = present.map((s) => ms.filter((m) => subjectOf(m) === s).reduce((sum, m) => sum + (m.value ?? 0), 0));
    const scale = displayScale(totals, unit);
    const series: SeriesOption[] = parts.map((part) => ({
      type: "bar",
      name: part,
      stack: "total",
      emphasis: { focus: "series" },
      data: present.map((s) => {
        const vs = ms.filter((m) => subjectOf(m) === s && processPart(m.labels?.process ?? m.system, m.system) === part);
        return vs.length === 0 ? null : vs.reduce((sum, m) => sum + (m.value ?? 0), 0) / scale.factor;
      }),
    }));
    return {
      id,
      metric,
      title,
      label: `${title} per system, stacked by process`,
      option: {
        animation: false,
      grid: GRID,
        legend: { top: 0, type: "scroll" },
        tooltip: {
          trigger: "axis",
          axisPointer: { type: "shadow" },
          valueFormatter: (v: unknown) => formatValue(v === null ? null : Number(v) * scale.factor, unit),
        },
        xAxis: { type: "category", data: present, axisLabel: { interval: 0 } },
        yAxis: scaledAxis(scale),
        series,
      },
    };
  }
  const values = present.map((s) => ms.find((m) => subjectOf(m) === s)?.value ?? null);
  const scale = wantsLog(values) ? logScale(values, unit) : undefined;
  const linear = displayScale(values, unit);
  const shown = (v: unknown): string => formatValue(scale ? logValue(Number(v), scale) : Number(v) * linear.factor, unit);
  return {
    id,
    metric,
    title,
    label: `${title} per system${scale ? ", log scale" : ""}`,
    option: {
      animation: false,
      grid: GRID,
      tooltip: { trigger: "axis", axisPointer: { type: "shadow" }, valueFormatter: shown },
      xAxis: { type: "category", data: present, axisLabel: { interval: 0 } },
      yAxis: scale ? logBarAxis(unit, scale) : scaledAxis(linear),
      series: [
        {
          type: "bar",
          name: title,
          data: present.map((s, i) => ({
            value: scale ? logHeight(values[i], scale) : values[i] === null ? null : values[i]! / linear.factor,
            itemStyle: { color: colorOf(s, subjects) },
          })),
          label: { show: true, position: "top", formatter: (p: { value: unknown }) => shown(p.value) },
        },
      ],
    },
  };
}

/** Grouped bars: categories from the label that varies most (the query), one series per subject. */
function barsByCategory(id: string, metric: string, ms: BenchmarkMeasurement[], subjects: string[], category: string): ChartSpec {
  const unit = ms[0].unit;
  const categories: string[] = [];
  for (const m of ms) {
    const c = m.labels?.[category] ?? "";
    if (!categories.includes(c)) categories.push(c);
  }
  const present = subjects.filter((s) => ms.some((m) => subjectOf(m) === s));
  const values = ms.map((m) => m.value);
  const scale = wantsLog(values) ? logScale(values, unit) : undefined;
  const shown = (v: unknown): string => formatValue(scale ? logValue(Number(v), scale) : Number(v), unit);
  const title = metricTitle(metric);
  return {
    id,
    metric,
    title,
    label: `${title} by ${category}, one bar per system${scale ? ", log scale" : ""}`,
    wide: categories.length * present.length > 16,
    option: {
      animation: false,
      grid: GRID,
      legend: { top: 0, type: "scroll" },
      tooltip: { trigger: "axis", axisPointer: { type: "shadow" }, valueFormatter: shown },
      xAxis: { type: "category", data: categories, axisLabel: { interval: 0, rotate: categories.length > 10 ? 30 : 0 } },
      yAxis: scale ? logBarAxis(unit, scale) : valueAxis(unit, false),
      series: present.map((s) => ({
        type: "bar",
        name: s,
        itemStyle: { color: colorOf(s, subjects) },
        data: categories.map((c) => {
          const v = ms.find((m) => subjectOf(m) === s && (m.labels?.[category] ?? "") === c)?.value ?? null;
          return scale ? logHeight(v, scale) : v;
        }),
      })),
    },
  };
}

/** Lines over the sweep position (batch size, clients), one per subject. */
function sweepLines(id: string, metric: string, ms: BenchmarkMeasurement[], subjects: string[], suffix: string): ChartSpec {
  const unit = ms[0].unit;
  const xs = ms.map((m) => m.x as number);
  const xLog = xs.every((x) => x > 0) && Math.max(...xs) / Math.min(...xs) >= 100;
  const yLog = betterOf(metric) === "lower" && unit !== "%" && wantsLog(ms.map((m) => m.value));
  const sweepLabel = sweepLabelOf(ms[0]) ?? "x";
  const present = subjects.filter((s) => ms.some((m) => subjectOf(m) === s));
  const title = metricTitle(metric) + suffix;
  return {
    id,
    metric,
    title,
    label: `${title} against ${sweepLabel.replace(/_/g, " ")}, one line per system`,
    option: {
      animation: false,
      grid: GRID,
      legend: { top: 0, type: "scroll" },
      tooltip: { trigger: "axis", valueFormatter: tooltipValue(unit) },
      xAxis: {
        type: xLog ? "log" : "value",
        logBase: 10,
        name: sweepLabel.replace(/_/g, " "),
        nameLocation: "middle",
        nameGap: 28,
        min: Math.min(...xs),
        max: Math.max(...xs),
        minInterval: 1,
        // on a log axis an end that is not a power of ten (128 clients) crowds the tick before it
        axisLabel: { formatter: (v: number) => formatTick(v, ""), showMaxLabel: !xLog || Number.isInteger(Math.log10(Math.max(...xs))) },
      },
      yAxis: valueAxis(unit, yLog),
      series: present.map((s) => ({
        type: "line",
        name: s,
        symbolSize: 7,
        connectNulls: false,
        itemStyle: { color: colorOf(s, subjects) },
        lineStyle: { color: colorOf(s, subjects), width: 2 },
        data: ms
          .filter((m) => subjectOf(m) === s)
          .sort((a, b) => (a.x as number) - (b.x as number))
          .map((m) => [m.x as number, logSafe(m.value, yLog)]),
      })),
    },
  };
}

/** The label among `labels` that takes the most distinct values across `ms`. */
function mostVaried(ms: BenchmarkMeasurement[], labels: string[]): string | undefined {
  let best: string | undefined;
  let count = 1;
  for (const l of labels) {
    const n = new Set(ms.map((m) => m.labels?.[l])).size;
    if (n > count) {
      best = l;
      count = n;
    }
  }
  return best;
}

/** Every plot of a scenario's figures, in the profile's metric order. */
export function figureCharts(sc: BenchmarkScenarioResult): ChartSpec[] {
  const hidden = new Set(profileOf(sc.scenario).hidden ?? []);
  const subjects = subjectsOf(sc);
  const out: ChartSpec[] = [];
  for (const metric of metricsOf(sc)) {
    if (hidden.has(metric)) continue;
    const ms = (sc.measurements ?? []).filter((m) => m.metric === metric);
    const sweep = ms.filter((m) => m.x !== null && m.x !== undefined);
    if (sweep.length > 0) {
      // one chart per remaining label set (e.g. per task), lines over x
      const groups = new Map<string, BenchmarkMeasurement[]>();
      const keys = commonLabelKeys(sweep);
      for (const m of sweep) {
        const key = Object.entries(figureLabels(m, keys))
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([k, v]) => `${k}=${v}`)
          .join(" ");
        groups.set(key, [...(groups.get(key) ?? []), m]);
      }
      for (const [key, group] of groups) {
        out.push(sweepLines(`${metric}:${key}`, metric, group, subjects, key ? ` — ${key.replace(/^\w+=/, "")}` : ""));
      }
      continue;
    }
    // a figure only one system has (PostgreSQL's table sizes) stays in the table
    if (subjects.length > 1 && new Set(ms.map(subjectOf)).size < 2) continue;
    const keys = commonLabelKeys(ms);
    const labelNames = [...new Set(ms.flatMap((m) => Object.keys(figureLabels(m, keys))))];
    const category = mostVaried(ms, labelNames);
    out.push(category ? barsByCategory(metric, metric, ms, subjects, category) : barsBySubject(metric, metric, ms, subjects));
  }
  return out;
}

export interface ResourceGroup {
  /** What the samples were taken during: `run`, `load`, `x4`, `batch 1000`, … */
  phase: string;
  series: { system: string; generator: boolean; resources: BenchmarkResourceSeries[] }[];
}

function systemOfResource(r: BenchmarkResourceSeries): string {
  return r.name.split("/")[0];
}

/**
 * Resource series grouped by phase, the system's name taken off the phase (`vigil x4` and
 * `influxdb x4` are both `x4`), so one chart shows every system under the same conditions.
 * A generator belongs to the system sampled just before it.
 */
export function resourceGroups(sc: BenchmarkScenarioResult): ResourceGroup[] {
  const systems = (sc.systems ?? []).map((s) => s.id);
  const groups = new Map<string, ResourceGroup>();
  let lastSystem = "";
  for (const r of sc.resources ?? []) {
    const generator = r.role === "generator";
    const phaseSystem = systems.find((s) => r.phase === s || (r.phase ?? "").startsWith(`${s} `));
    const system = generator ? (phaseSystem ?? lastSystem) : systemOfResource(r);
    if (!generator) lastSystem = system;
    let phase = r.phase ?? "";
    if (phaseSystem) phase = phase.slice(phaseSystem.length).trim();
    phase = phase || "run";
    const group = groups.get(phase) ?? { phase, series: [] };
    groups.set(phase, group);
    let entry = group.series.find((e) => e.system === system && e.generator === generator);
    if (!entry) {
      entry = { system, generator, resources: [] };
      group.series.push(entry);
    }
    entry.resources.push(r);
  }
  return [...groups.values()];
}

/** Samples of several process trees added up per second. */
export function sumSamples(resources: BenchmarkResourceSeries[], field: "cpu_percent" | "rss_bytes"): [number, number][] {
  const sums = new Map<number, number>();
  for (const r of resources) {
    for (const s of r.samples ?? []) {
      const t = Math.round(s.t);
      sums.set(t, (sums.get(t) ?? 0) + s[field]);
    }
  }
  return [...sums.entries()].sort((a, b) => a[0] - b[0]);
}

export function resourceChart(
  group: ResourceGroup,
  field: "cpu_percent" | "rss_bytes",
  subjects: string[],
  showGenerators: boolean,
): ChartSpec {
  const unit = field === "cpu_percent" ? "%" : "bytes";
  const title = field === "cpu_percent" ? "CPU % over time" : "RSS over time";
  const entries = group.series.filter((e) => showGenerators || !e.generator);
  const sums = entries.map((e) => sumSamples(e.resources, field));
  const scale = displayScale(sums.flatMap((points) => points.map(([, v]) => v)), unit);
  const series: SeriesOption[] = entries.map((e, i) => {
    const color = colorOf(e.system, subjects.length ? subjects : entries.map((x) => x.system));
    const procs = e.resources.length > 1 ? ` (${e.resources.length} processes)` : "";
    return {
      type: "line",
      name: e.generator ? `${e.system} load generator` : `${e.system}${procs}`,
      showSymbol: sums[i].length <= 3,
      itemStyle: { color },
      lineStyle: { color, width: e.generator ? 1.5 : 2, type: e.generator ? "dashed" : "solid" },
      data: sums[i].map(([t, v]) => [t, v / scale.factor]),
    };
  });
  return {
    id: `${field}:${group.phase}`,
    metric: field,
    title: group.phase === "run" ? title : `${title} — ${group.phase}`,
    label: `${title} per system${group.phase === "run" ? "" : ` during ${group.phase}`}, 1 s samples`,
    option: {
      animation: false,
      grid: GRID,
      legend: { top: 0, type: "scroll" },
      tooltip: {
        trigger: "axis",
        valueFormatter: (v: unknown) => formatValue(Array.isArray(v) ? Number(v[1]) * scale.factor : Number(v) * scale.factor, unit),
      },
      xAxis: { type: "value", name: "s", nameLocation: "end", min: 0, axisLabel: { formatter: (v: number) => `${v}` } },
      yAxis: field === "cpu_percent" ? valueAxis(unit, false, "% of one CPU") : scaledAxis(scale, "RSS"),
      series,
    },
  };
}

function maxOfSeries(option: EChartsOption): number | undefined {
  const series = (Array.isArray(option.series) ? option.series : option.series ? [option.series] : []) as { data?: unknown[]; stack?: string }[];
  const stacked = new Map<number, number>();
  let max: number | undefined;
  const see = (v: number): void => {
    if (Number.isFinite(v)) max = max === undefined ? v : Math.max(max, v);
  };
  for (const s of series) {
    (s.data ?? []).forEach((d, i) => {
      const raw = Array.isArray(d) ? d[1] : d !== null && typeof d === "object" ? (d as { value?: unknown }).value : d;
      if (typeof raw !== "number") return;
      if (s.stack) {
        stacked.set(i, (stacked.get(i) ?? 0) + raw);
        see(stacked.get(i)!);
      } else see(raw);
    });
  }
  return max;
}

/**
 * The same y range for two charts of the same figure (this run and the other), so bars and
 * lines can be compared by eye. Charts whose axis is not a plain linear one, or whose values
 * are scaled differently (bytes in different units), are left as they are.
 */
export function alignYAxes(a: ChartSpec, b: ChartSpec): [ChartSpec, ChartSpec] {
  const ya = a.option.yAxis as { type?: string; name?: string; max?: number } | undefined;
  const yb = b.option.yAxis as { type?: string; name?: string; max?: number } | undefined;
  if (!ya || !yb || ya.type !== "value" || yb.type !== "value" || ya.max !== undefined || yb.max !== undefined || ya.name !== yb.name) {
    return [a, b];
  }
  const ma = maxOfSeries(a.option);
  const mb = maxOfSeries(b.option);
  if (ma === undefined || mb === undefined) return [a, b];
  const max = Math.max(ma, mb);
  const withMax = (c: ChartSpec): ChartSpec => ({ ...c, option: { ...c.option, yAxis: { ...(c.option.yAxis as object), max: niceCeil(max) } } });
  return [withMax(a), withMax(b)];
}

/** The next 1, 2 or 5 × 10^n at or above `v`. */
export function niceCeil(v: number): number {
  if (v <= 0) return 0;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}
