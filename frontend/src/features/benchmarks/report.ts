/**
 * The report's tables, from a scenario's flat measurements: one row per figure (metric,
 * labels, sweep position), one column per subject (a system, or a system and query language),
 * ratios to a chosen reference subject, and the deltas between two runs.
 */
import type { BenchmarkMeasurement, BenchmarkScenarioResult } from "./api";
import { profileOf } from "./scenarios";

/** Labels that tell subjects apart rather than figures (vigil-storage DQL vs PromQL). */
const SUBJECT_LABELS = ["language"];
/** Per-process figures of one system are added up into the system's figure. */
const PROCESS_LABEL = "process";

/** `k=v` pairs sorted by key, separated by spaces (as the exports print a figure's labels). */
export function labelsText(labels: Record<string, string> | undefined): string {
  return Object.keys(labels ?? {})
    .sort()
    .map((k) => `${k}=${(labels ?? {})[k]}`)
    .join(" ");
}

export type Better = "higher" | "lower" | undefined;

/** Which direction is better for a metric, from its name. */
export function betterOf(metric: string): Better {
  if (/per_second|_pps|throughput|rows_written/.test(metric)) return "higher";
  if (/latency|cpu|rss|disk|bytes|lag|_ms|_s_p\d|over_|time_s$/.test(metric)) return "lower";
  return undefined;
}

export function subjectOf(m: Pick<BenchmarkMeasurement, "system" | "labels">): string {
  const parts = [m.system, ...SUBJECT_LABELS.map((l) => m.labels?.[l]).filter((v): v is string => Boolean(v))];
  return parts.join(" · ");
}

/** The label holding the sweep position (`clients`, `batch_rows`), if the figure has one. */
export function sweepLabelOf(m: Pick<BenchmarkMeasurement, "labels" | "x">): string | undefined {
  if (m.x === null || m.x === undefined) return undefined;
  return Object.entries(m.labels ?? {}).find(([, v]) => Number(v) === m.x)?.[0];
}

/**
 * The labels that name the figure within a subject: no subject, process or sweep label, and
 * (given `keys`, the label names every figure of the metric has) no occasional annotation
 * such as `refused=HTTP 413`.
 */
export function figureLabels(m: Pick<BenchmarkMeasurement, "labels" | "x">, keys?: Set<string>): Record<string, string> {
  const skip = new Set([...SUBJECT_LABELS, PROCESS_LABEL, sweepLabelOf(m)]);
  return Object.fromEntries(Object.entries(m.labels ?? {}).filter(([k]) => !skip.has(k) && (!keys || keys.has(k))));
}

/**
 * The label names that tell a metric's figures apart: those on every one of `ms` — unless
 * each subject has a single figure (per process), in which case its labels only describe it
 * (`max_points_per_second` reached at `clients=4`).
 */
export function commonLabelKeys(ms: Pick<BenchmarkMeasurement, "system" | "labels" | "x">[]): Set<string> {
  if (ms.length === 0) return new Set();
  const perSubject = new Map<string, number>();
  for (const m of ms) {
    const k = `${subjectOf(m)}|${m.labels?.[PROCESS_LABEL] ?? ""}|${m.x ?? ""}`;
    perSubject.set(k, (perSubject.get(k) ?? 0) + 1);
  }
  if (Math.max(...perSubject.values()) === 1) return new Set();
  const [first, ...rest] = ms;
  return new Set(Object.keys(first.labels ?? {}).filter((k) => rest.every((m) => k in (m.labels ?? {}))));
}

/** The occasional labels of a figure (`refused=HTTP 413`), as text. */
function annotationOf(m: BenchmarkMeasurement, keys: Set<string>): string {
  const skip = new Set([...SUBJECT_LABELS, PROCESS_LABEL, sweepLabelOf(m)]);
  return Object.entries(m.labels ?? {})
    .filter(([k]) => !skip.has(k) && !keys.has(k))
    .map(([k, v]) => `${k}: ${v}`)
    .join(", ");
}

export interface Cell {
  value: number | null;
  /** Why the figure is missing or special (`refused: HTTP 413`). */
  note?: string;
  /** The per-process parts when the value adds several processes up. */
  parts?: { process: string; value: number | null }[];
}

export interface FigureRow {
  key: string;
  metric: string;
  unit: string;
  labels: string;
  x: number | null;
  better: Better;
  cells: Map<string, Cell>;
}

function metricRank(scenario: string, metrics: string[]): (m: string) => number {
  const order = profileOf(scenario).metrics;
  return (m) => {
    const i = order.indexOf(m);
    return i >= 0 ? i : order.length + metrics.indexOf(m);
  };
}

/** Subjects in the order the scenario lists its systems. */
export function subjectsOf(sc: BenchmarkScenarioResult): string[] {
  const seen: string[] = [];
  for (const m of sc.measurements ?? []) {
    const s = subjectOf(m);
    if (!seen.includes(s)) seen.push(s);
  }
  const systems = (sc.systems ?? []).map((s) => s.id);
  const rank = (s: string): number => {
    const i = systems.indexOf(s.split(" · ")[0]);
    return i < 0 ? systems.length : i;
  };
  return seen.map((s, i) => ({ s, i })).sort((a, b) => rank(a.s) - rank(b.s) || a.i - b.i).map((e) => e.s);
}

export function metricsOf(sc: BenchmarkScenarioResult): string[] {
  const metrics: string[] = [];
  for (const m of sc.measurements ?? []) if (!metrics.includes(m.metric)) metrics.push(m.metric);
  const rank = metricRank(sc.scenario, metrics);
  return [...metrics].sort((a, b) => rank(a) - rank(b));
}

/** One row per figure; values of a system's processes are added up. */
export function figureRows(sc: BenchmarkScenarioResult, metric?: string): FigureRow[] {
  const rows = new Map<string, FigureRow>();
  const all = sc.measurements ?? [];
  const keysOf = new Map<string, Set<string>>();
  for (const name of new Set(all.map((m) => m.metric))) keysOf.set(name, commonLabelKeys(all.filter((m) => m.metric === name)));
  for (const m of all) {
    if (metric && m.metric !== metric) continue;
    const keys = keysOf.get(m.metric) ?? new Set<string>();
    const labels = labelsText(figureLabels(m, keys));
    const note = annotationOf(m, keys) || undefined;
    const x = m.x ?? null;
    const key = `${m.metric}|${labels}|${x ?? ""}`;
    let row = rows.get(key);
    if (!row) {
      row = { key, metric: m.metric, unit: m.unit, labels, x, better: betterOf(m.metric), cells: new Map() };
      rows.set(key, row);
    }
    const subject = subjectOf(m);
    const process = m.labels?.[PROCESS_LABEL];
    const cell = row.cells.get(subject);
    if (!cell) {
      row.cells.set(subject, { value: m.value, note, parts: process ? [{ process, value: m.value }] : undefined });
    } else {
      cell.value = cell.value === null || m.value === null ? (cell.value ?? m.value) : cell.value + m.value;
      cell.parts = [...(cell.parts ?? []), { process: process ?? "", value: m.value }];
    }
  }
  const metrics = metricsOf(sc);
  const rank = metricRank(sc.scenario, metrics);
  const labelOrder: string[] = [];
  for (const r of rows.values()) if (!labelOrder.includes(r.labels)) labelOrder.push(r.labels);
  return [...rows.values()]
    .map((r, i) => ({ r, i }))
    .sort(
      (a, b) =>
        rank(a.r.metric) - rank(b.r.metric) ||
        labelOrder.indexOf(a.r.labels) - labelOrder.indexOf(b.r.labels) ||
        (a.r.x ?? 0) - (b.r.x ?? 0) ||
        a.i - b.i,
    )
    .map((e) => e.r);
}

/** value ÷ reference, or undefined when either is missing or the reference is zero. */
export function ratioTo(value: number | null | undefined, reference: number | null | undefined): number | undefined {
  if (value === null || value === undefined || reference === null || reference === undefined || reference === 0) return undefined;
  return value / reference;
}

/** The default reference: Vigil's own store when present, else the first subject. */
export function defaultReference(subjects: string[]): string {
  return subjects.find((s) => s === "vigil-storage") ?? subjects.find((s) => s.startsWith("vigil-storage")) ?? subjects[0] ?? "";
}

export interface CompareRow {
  key: string;
  metric: string;
  unit: string;
  labels: string;
  x: number | null;
  subject: string;
  better: Better;
  a: number | null;
  b: number | null;
  /** (b − a) ÷ |a| */
  change: number | undefined;
}

/** Figures present in both runs' scenarios, side by side, with the relative change. */
export function compareScenarios(a: BenchmarkScenarioResult, b: BenchmarkScenarioResult, metric?: string): CompareRow[] {
  const rowsB = new Map(figureRows(b, metric).map((r) => [r.key, r]));
  const subjects = subjectsOf(a);
  const out: CompareRow[] = [];
  for (const ra of figureRows(a, metric)) {
    const rb = rowsB.get(ra.key);
    if (!rb) continue;
    for (const subject of subjects) {
      const ca = ra.cells.get(subject);
      const cb = rb.cells.get(subject);
      if (!ca || !cb) continue;
      const av = ca.value;
      const bv = cb.value;
      out.push({
        key: `${ra.key}|${subject}`,
        metric: ra.metric,
        unit: ra.unit,
        labels: ra.labels,
        x: ra.x,
        subject,
        better: ra.better,
        a: av,
        b: bv,
        change: av === null || bv === null || av === 0 ? undefined : (bv - av) / Math.abs(av),
      });
    }
  }
  return out;
}

/** Whether a change is an improvement, a regression, or neither (within ±tolerance). */
export function verdict(change: number | undefined, better: Better, tolerance = 0.05): "better" | "worse" | "same" | undefined {
  if (change === undefined || better === undefined) return undefined;
  if (Math.abs(change) <= tolerance) return "same";
  return (change > 0) === (better === "higher") ? "better" : "worse";
}
