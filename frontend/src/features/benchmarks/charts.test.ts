import { describe, expect, it } from "vitest";
import type { BenchmarkRunDocument, BenchmarkScenarioResult } from "./api";
import {
  alignYAxes,
  colorOf,
  figureCharts,
  logHeight,
  logScale,
  logValue,
  niceCeil,
  resourceChart,
  resourceGroups,
  sumSamples,
} from "./charts";
import { subjectsOf } from "./report";
import runJson from "./testdata/run.json?raw";

const run = JSON.parse(runJson) as BenchmarkRunDocument;
const scenario = (id: string): BenchmarkScenarioResult => structuredClone(run.scenarios!.find((s) => s.scenario === id)!);

interface Series {
  type: string;
  name: string;
  stack?: string;
  data: unknown[];
}
const seriesOf = (option: unknown): Series[] => (option as { series: Series[] }).series;
const axis = (option: unknown, name: "xAxis" | "yAxis"): { type: string; data?: string[] } =>
  (option as Record<string, { type: string; data?: string[] }>)[name];

describe("figureCharts", () => {
  it("write-cost: stacked bars per system by process, then plain bars", () => {
    const charts = figureCharts(scenario("write-cost"));
    expect(charts.map((c) => c.id)).toEqual([
      "cpu_percent",
      "rss_bytes_max",
      "disk_growth_bytes",
      "points_per_second",
      "generator_cpu_percent",
    ]);
    const cpu = charts[0].option;
    expect(axis(cpu, "xAxis").data).toEqual(["vigil", "vigil-storage", "victoriametrics", "influxdb", "postgres"]);
    const series = seriesOf(cpu);
    expect(series.map((s) => s.name)).toEqual(["gateway", "kafka", "consumer", "storage", "server"]);
    expect(series.every((s) => s.stack === "total")).toBe(true);
    expect(series[0].data).toEqual([0.64, null, null, null, null]);
    expect(series[4].data).toEqual([null, 4.02, 2.9, 1.61, 0.58]);
    const pps = seriesOf(charts[3].option);
    expect(pps).toHaveLength(1);
    expect((pps[0].data as { value: number }[]).map((d) => d.value)).toEqual([2678.035627, 1781.57389, 1779.626349, 1780.106302, 1106.319557]);
  });

  it("batch-size: lines over a log batch axis, one per system, rows_written left out", () => {
    const charts = figureCharts(scenario("batch-size"));
    expect(charts.map((c) => c.metric)).not.toContain("rows_written");
    const rows = charts.find((c) => c.metric === "rows_per_second")!;
    expect(axis(rows.option, "xAxis").type).toBe("log");
    const series = seriesOf(rows.option);
    expect(series.map((s) => s.name)).toEqual(["vigil", "vigil-storage", "victoriametrics", "influxdb", "postgres"]);
    expect(series[0].data).toEqual([
      [10, 1934.000201],
      [100, 12243.406722],
      [1000, 38170.43691],
      [5000, 26485.016743],
    ]);
    expect(series.every((s) => s.type === "line")).toBe(true);
  });

  it("query-latency: bars per query, one series per system and language, log scale when spread", () => {
    const sc = scenario("query-latency");
    const p50 = figureCharts(sc).find((c) => c.metric === "latency_ms_p50")!;
    expect(axis(p50.option, "xAxis").data?.slice(0, 3)).toEqual(["raw-1h", "host_avg-1h", "fleet_max-1h"]);
    expect(seriesOf(p50.option).map((s) => s.name)).toEqual(["vigil-storage · DQL", "vigil-storage · PromQL"]);
    sc.measurements!.push({ system: "postgres", metric: "latency_ms_p50", value: 900, unit: "ms", labels: { language: "SQL", query: "raw-1h" }, repetitions: [] });
    const spread = figureCharts(sc).find((c) => c.metric === "latency_ms_p50")!;
    // log bars are drawn as exponents on a linear axis, so each rises from the bottom
    const y = axis(spread.option, "yAxis") as unknown as { name: string; min: number; max: number; interval: number };
    expect(y).toMatchObject({ name: "ms (log)", min: 0, max: 4, interval: 1 });
    const pg = seriesOf(spread.option).find((s) => s.name === "postgres · SQL")!;
    // the axis floor is 0.1 ms: 900 ms stands log10(900) + 1 above it
    expect(pg.data[0]).toBeCloseTo(Math.log10(900) + 1, 12);
  });

  it("concurrency: one chart per task, clients on a log axis", () => {
    const sc: BenchmarkScenarioResult = {
      scenario: "concurrency",
      title: "Concurrency sweep",
      mode: "small",
      started_at: "2026-11-21T06:00:00Z",
      duration_s: 1,
      systems: [{ id: "influxdb", available: true }],
      measurements: ["download", "aggregate"].flatMap((task) =>
        [1, 8, 128].map((clients) => ({
          system: "influxdb",
          metric: "ops_per_second",
          value: clients * (task === "download" ? 10 : 1),
          unit: "ops/s",
          labels: { task, clients: String(clients) },
          x: clients,
          repetitions: [],
        })),
      ),
    };
    const charts = figureCharts(sc);
    expect(charts.map((c) => c.title)).toEqual(["ops per second — download", "ops per second — aggregate"]);
    expect(seriesOf(charts[0].option)[0].data).toEqual([
      [1, 10],
      [8, 80],
      [128, 1280],
    ]);
  });
});

describe("logScale", () => {
  it("puts the floor below the smallest value and uses powers of 1024 for large byte counts", () => {
    const bytes = logScale([696320, 2568192, 28639232, 1799639040], "bytes");
    expect(bytes).toEqual({ base: 1024, min: 1, max: 4 });
    expect(logHeight(1024 ** 3, bytes)).toBeCloseTo(2, 12);
    expect(logValue(2, bytes)).toBe(1024 ** 3);
    const perPoint = logScale([0.322, 0.087, 3.6, 226], "bytes");
    expect(perPoint).toEqual({ base: 10, min: -2, max: 3 });
    expect(logHeight(0.087, perPoint)).toBeGreaterThan(0);
    expect(logHeight(null, perPoint)).toBeNull();
  });
});

describe("resources", () => {
  it("groups by phase without the system's name, generator with its system", () => {
    const groups = resourceGroups(scenario("batch-size"));
    expect(groups.map((g) => g.phase)).toEqual(["batch 10", "batch 100"]);
    expect(groups[0].series.map((s) => [s.system, s.generator, s.resources.length])).toEqual([
      ["vigil", false, 4],
      ["vigil", true, 1],
    ]);
    const load = resourceGroups(scenario("query-latency"));
    expect(load.map((g) => g.phase)).toEqual(["load"]);
    expect(load[0].series.map((s) => `${s.system}${s.generator ? " (gen)" : ""}`)).toEqual([
      "vigil-storage",
      "vigil-storage (gen)",
      "victoriametrics",
      "victoriametrics (gen)",
      "influxdb",
      "influxdb (gen)",
      "postgres",
      "postgres (gen)",
    ]);
    expect(resourceGroups(scenario("write-cost")).map((g) => g.phase)).toEqual(["run"]);
  });

  it("adds processes up per second", () => {
    const [group] = resourceGroups(scenario("write-cost"));
    const vigil = group.series.find((s) => s.system === "vigil" && !s.generator)!;
    const cpu = sumSamples(vigil.resources, "cpu_percent");
    expect(cpu.map(([t]) => t)).toEqual([1, 2, 3]);
    expect(cpu[0][1]).toBeCloseTo(1.95 + 1.95 + 0.98 + 41.01, 10);
  });

  it("draws one line per system, generators dashed only when asked", () => {
    const sc = scenario("write-cost");
    const [group] = resourceGroups(sc);
    const without = seriesOf(resourceChart(group, "cpu_percent", subjectsOf(sc), false).option);
    expect(without.map((s) => s.name)).toEqual(["vigil (4 processes)", "vigil-storage", "victoriametrics", "influxdb", "postgres"]);
    const withGen = seriesOf(resourceChart(group, "rss_bytes", subjectsOf(sc), true).option);
    expect(withGen).toHaveLength(10);
    expect(withGen[1].name).toBe("vigil load generator");
  });

  it("gives each system its colour, lighter for a second language", () => {
    const subjects = ["vigil-storage", "vigil-storage · DQL", "vigil-storage · PromQL", "influxdb · InfluxQL"];
    expect(colorOf("vigil-storage", subjects)).toBe("#8a3ffc");
    expect(colorOf("vigil-storage · DQL", subjects)).toBe("#8a3ffc");
    expect(colorOf("vigil-storage · PromQL", subjects)).toBe("#c09cff");
    expect(colorOf("influxdb · InfluxQL", subjects)).toBe("#1a9e77");
  });
});

describe("alignYAxes", () => {
  it("gives both runs' charts of a figure the same y range", () => {
    const a = scenario("batch-size");
    const b = scenario("batch-size");
    for (const m of b.measurements!) if (m.metric === "rows_per_second") m.value = m.value! * 2;
    const left = figureCharts(a).find((c) => c.metric === "rows_per_second")!;
    const right = figureCharts(b).find((c) => c.metric === "rows_per_second")!;
    const [l, r] = alignYAxes(left, right);
    const max = (c: typeof l): number => (c.option.yAxis as { max: number }).max;
    expect(max(l)).toBe(max(r));
    expect(max(l)).toBe(niceCeil(139147.893367 * 2));
    // stacked bars count the stack's total
    const cpu = figureCharts(scenario("write-cost"))[0];
    const [c1] = alignYAxes(cpu, cpu);
    expect((c1.option.yAxis as { max: number }).max).toBe(10);
  });

  it("rounds up to 1, 2, 2.5 or 5 times a power of ten", () => {
    expect([niceCeil(0.7), niceCeil(13), niceCeil(230), niceCeil(4100), niceCeil(0)]).toEqual([1, 20, 250, 5000, 0]);
  });
});
