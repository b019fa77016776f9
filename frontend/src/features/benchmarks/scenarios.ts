/**
 * What each scenario's report shows first, and its headline: the one ratio the run list
 * prints for it, read from the scenario's `summary` (the runner's headline figures).
 */
import type { BenchmarkScenarioOverview } from "./api";

export interface HeadlineSpec {
  /** Per-system summary key prefix (`max_pps` reads `max_pps/<system>`), or a whole key. */
  key: string;
  label: string;
  better: "higher" | "lower";
  /** The summary already holds the ratio under `key` (subject and reference are fixed). */
  ratioOf?: { subject: string; reference: string };
  /** `key/<system>/<lang>` are ratios to the subject: invert to read subject ÷ reference. */
  inverseRatios?: boolean;
}

export interface ScenarioProfile {
  /** Number in the methodology (docs/benchmarks.md); component benchmarks have none. */
  number?: number;
  /** Metrics in the order the report shows them; others follow in document order. */
  metrics: string[];
  /** Metrics left out of plots (still in the table and exports). */
  hidden?: string[];
  /** Metrics plotted until the reader asks for every plot; all of them when unset. */
  plots?: string[];
  headline: HeadlineSpec;
}

export const PROFILES: Record<string, ScenarioProfile> = {
  "write-cost": {
    number: 1,
    metrics: ["cpu_percent", "rss_bytes_max", "disk_growth_bytes", "points_per_second", "generator_cpu_percent"],
    headline: { key: "cpu_percent", label: "CPU % at the same load", better: "lower" },
  },
  "write-saturation": {
    number: 2,
    metrics: ["points_per_second", "max_points_per_second", "cpu_percent", "generator_cpu_percent"],
    headline: { key: "max_pps", label: "points/s at saturation", better: "higher" },
  },
  "query-latency": {
    number: 3,
    metrics: ["latency_ms_p50", "latency_ms_p99", "load_points_per_second"],
    headline: { key: "latency_ratio", label: "query latency", better: "lower", inverseRatios: true },
  },
  "disk-footprint": {
    number: 4,
    metrics: ["disk_bytes", "bytes_per_point", "load_points_per_second"],
    headline: { key: "disk_bytes", label: "bytes on disk", better: "lower" },
  },
  "batch-size": {
    number: 5,
    metrics: ["rows_per_second", "request_latency_ms_p50", "request_latency_ms_p99", "points_per_second"],
    hidden: ["rows_written"],
    headline: { key: "best_rows_per_second", label: "best rows/s", better: "higher" },
  },
  concurrency: {
    number: 6,
    metrics: ["ops_per_second", "latency_ms_p99", "latency_ms_p50", "cpu_percent", "points_per_second", "generator_cpu_percent"],
    plots: ["ops_per_second", "latency_ms_p99", "cpu_percent"],
    headline: { key: "peak_ops/aggregate", label: "peak aggregate ops/s", better: "higher" },
  },
  "point-queries": {
    number: 7,
    metrics: ["total_time_s", "time_per_query_ms", "latency_ms_p50", "cpu_percent", "generator_cpu_percent"],
    plots: ["total_time_s", "time_per_query_ms", "cpu_percent"],
    headline: { key: "total_s_max", label: "total time, most concurrent queries", better: "lower" },
  },
  "read-write-mix": {
    number: 8,
    metrics: ["ops_per_second", "writes_per_second", "refused_per_second", "cpu_percent", "generator_cpu_percent"],
    plots: ["ops_per_second", "cpu_percent"],
    headline: { key: "ops_heaviest", label: "ops/s, most writes and clients", better: "higher" },
  },
  soak: {
    number: 9,
    metrics: ["lines_per_second", "queryable_lag_s", "kafka_lag_records", "points_per_second", "max_points_per_second"],
    headline: {
      key: "throughput_last_over_first",
      label: "throughput",
      better: "higher",
      ratioOf: { subject: "last window", reference: "first window" },
    },
  },
  "storage-ingest": {
    metrics: ["points_per_second"],
    headline: {
      key: "ratio",
      label: "points/s",
      better: "higher",
      ratioOf: { subject: "vigil-storage", reference: "victoriametrics" },
    },
  },
  dql: {
    metrics: ["dql_over_metricsql", "latency_ms_p50", "latency_ms_p99"],
    headline: { key: "ratio_geomean", label: "latency (geomean)", better: "lower", ratioOf: { subject: "DQL", reference: "MetricsQL" } },
  },
  ingest: {
    metrics: ["points_per_second", "lag_s_p50", "lag_s_p99"],
    headline: { key: "ratio", label: "points/s", better: "higher", ratioOf: { subject: "through Kafka", reference: "direct" } },
  },
  "ingest-consumers": {
    metrics: ["points_per_second", "ratio_to_one_consumer", "cpu_percent", "busiest_consumer_share"],
    plots: ["points_per_second", "cpu_percent"],
    headline: {
      key: "ratio",
      label: "one workspace's points/s",
      better: "higher",
      ratioOf: { subject: "most consumers", reference: "1 consumer" },
    },
  },
  fairness: {
    metrics: ["b_query_p50_s", "b_query_p99_s", "b_write_p50_s", "b_write_p99_s", "a_admitted_pps", "b_429_or_5xx"],
    headline: {
      key: "b_query_p50_ratio",
      label: "workspace B's query latency, median",
      better: "lower",
      ratioOf: { subject: "B during A's flood", reference: "B alone" },
    },
  },
};

const FALLBACK: ScenarioProfile = { metrics: [], headline: { key: "ratio", label: "ratio", better: "higher" } };

export function profileOf(scenario: string): ScenarioProfile {
  return PROFILES[scenario] ?? FALLBACK;
}

/** The systems Vigil is represented by, best first, and those it is held against. */
const SUBJECTS = ["vigil-storage", "vigil"];
const REFERENCES = ["influxdb", "victoriametrics", "postgres"];

export interface Headline {
  label: string;
  subject: string;
  reference: string;
  /** subject ÷ reference */
  ratio: number;
  better: "higher" | "lower";
}

function num(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

/** The scenario's headline ratio, or undefined when its summary does not hold one. */
export function headlineOf(sc: { scenario: string; summary?: BenchmarkScenarioOverview["summary"] }): Headline | undefined {
  const spec = profileOf(sc.scenario).headline;
  const summary = sc.summary ?? {};
  if (spec.ratioOf) {
    const ratio = num(summary[spec.key]);
    return ratio === undefined ? undefined : { label: spec.label, ...spec.ratioOf, ratio, better: spec.better };
  }
  const prefix = `${spec.key}/`;
  const values = new Map<string, number>();
  for (const [k, v] of Object.entries(summary)) {
    const n = num(v);
    if (k.startsWith(prefix) && n !== undefined) values.set(k.slice(prefix.length), n);
  }
  if (spec.inverseRatios) {
    // keys are `<system>/<language>` = that system's latency ÷ the subject's (`summary.reference`)
    const subject = typeof summary.reference === "string" ? summary.reference : undefined;
    for (const ref of REFERENCES) {
      const key = [...values.keys()].find((k) => k.split("/")[0] === ref);
      const v = key === undefined ? undefined : values.get(key);
      if (subject && key && v) return { label: spec.label, subject, reference: key, ratio: 1 / v, better: spec.better };
    }
    return undefined;
  }
  const subject = SUBJECTS.find((s) => values.has(s));
  const reference = REFERENCES.find((s) => values.has(s));
  if (!subject || !reference) return undefined;
  const r = values.get(reference)!;
  if (r === 0) return undefined;
  return { label: spec.label, subject, reference, ratio: values.get(subject)! / r, better: spec.better };
}
