import { describe, expect, it } from "vitest";
import type { BenchmarkRunDocument, BenchmarkScenarioResult } from "./api";
import {
  betterOf,
  compareScenarios,
  defaultReference,
  figureRows,
  labelsText,
  metricsOf,
  ratioTo,
  subjectsOf,
  verdict,
} from "./report";
import runJson from "./testdata/run.json?raw";

const run = JSON.parse(runJson) as BenchmarkRunDocument;
const scenario = (id: string): BenchmarkScenarioResult => structuredClone(run.scenarios!.find((s) => s.scenario === id)!);

describe("figureRows", () => {
  it("adds a system's processes up into one figure and keeps the parts", () => {
    const rows = figureRows(scenario("write-cost"), "cpu_percent");
    expect(rows).toHaveLength(1);
    const vigil = rows[0].cells.get("vigil")!;
    expect(vigil.value).toBeCloseTo(0.64 + 1.29 + 0.64 + 7.41, 10);
    expect(vigil.parts?.map((p) => p.process)).toEqual(["vigil/gateway", "vigil/kafka", "vigil/consumer", "vigil/storage"]);
    expect(rows[0].cells.get("influxdb")!.value).toBe(1.61);
    expect(rows[0].better).toBe("lower");
  });

  it("orders metrics as the scenario's profile says", () => {
    expect(metricsOf(scenario("write-cost"))).toEqual([
      "cpu_percent",
      "rss_bytes_max",
      "disk_growth_bytes",
      "points_per_second",
      "generator_cpu_percent",
    ]);
  });

  it("puts the sweep position in x, sorted, and tells query languages apart", () => {
    const rows = figureRows(scenario("batch-size"), "rows_per_second");
    expect(rows.map((r) => r.x)).toEqual([10, 100, 1000, 5000]);
    expect(rows.every((r) => r.labels === "")).toBe(true);
    expect(rows[2].cells.get("vigil-storage")!.value).toBeCloseTo(77240.083296, 6);

    const latency = figureRows(scenario("query-latency"), "latency_ms_p50");
    expect(latency[0].labels).toBe("query=raw-1h shape=raw window=1h");
    expect([...latency[0].cells.keys()]).toEqual(["vigil-storage · DQL", "vigil-storage · PromQL"]);
  });

  it("keeps an occasional label as a note on the cell, not as a new row", () => {
    const sc = scenario("batch-size");
    sc.measurements!.push({
      system: "vigil",
      metric: "rows_per_second",
      value: null,
      unit: "rows/s",
      labels: { batch_rows: "100000", refused: "HTTP 413" },
      x: 100000,
      repetitions: [],
    });
    const rows = figureRows(sc, "rows_per_second");
    const last = rows[rows.length - 1];
    expect(last.x).toBe(100000);
    expect(last.labels).toBe("");
    expect(last.cells.get("vigil")).toEqual({ value: null, note: "refused: HTTP 413", parts: undefined });
  });
});

describe("figures described by their labels", () => {
  it("keeps one row when each system has a single figure (max reached at some client count)", () => {
    const sc = scenario("write-cost");
    sc.measurements = [
      { system: "vigil", metric: "max_points_per_second", value: 23026, unit: "points/s", labels: { clients: "1" }, repetitions: [] },
      { system: "influxdb", metric: "max_points_per_second", value: 241221, unit: "points/s", labels: { clients: "4" }, repetitions: [] },
    ];
    const rows = figureRows(sc);
    expect(rows).toHaveLength(1);
    expect(rows[0].labels).toBe("");
    expect(rows[0].cells.get("influxdb")).toMatchObject({ value: 241221, note: "clients: 4" });
  });
});

describe("ratios", () => {
  it("divides by the reference and refuses missing or zero references", () => {
    expect(ratioTo(3, 2)).toBe(1.5);
    expect(ratioTo(3, 0)).toBeUndefined();
    expect(ratioTo(null, 2)).toBeUndefined();
    expect(ratioTo(3, undefined)).toBeUndefined();
  });

  it("ratios of the real run: influxdb used 0.40x vigil-storage's CPU", () => {
    const [row] = figureRows(scenario("write-cost"), "cpu_percent");
    const ref = defaultReference(subjectsOf(scenario("write-cost")));
    expect(ref).toBe("vigil-storage");
    expect(ratioTo(row.cells.get("influxdb")!.value, row.cells.get(ref)!.value)).toBeCloseTo(1.61 / 4.02, 10);
  });

  it("defaults to vigil-storage, then its first language, then the first subject", () => {
    expect(defaultReference(["vigil", "vigil-storage", "influxdb"])).toBe("vigil-storage");
    expect(defaultReference(["vigil-storage · DQL", "vigil-storage · PromQL"])).toBe("vigil-storage · DQL");
    expect(defaultReference(["influxdb", "postgres"])).toBe("influxdb");
    expect(defaultReference([])).toBe("");
  });

  it("knows which way is better", () => {
    expect(betterOf("points_per_second")).toBe("higher");
    expect(betterOf("request_latency_ms_p99")).toBe("lower");
    expect(betterOf("rss_bytes_max")).toBe("lower");
    expect(betterOf("bytes_per_point")).toBe("lower");
    expect(betterOf("total_time_s")).toBe("lower");
    expect(betterOf("kafka_lag_records")).toBe("lower");
    expect(betterOf("something_else")).toBeUndefined();
  });
});

describe("compareScenarios", () => {
  it("pairs the same figure of two runs and computes the change", () => {
    const a = scenario("batch-size");
    const b = scenario("batch-size");
    for (const m of b.measurements!) if (m.metric === "rows_per_second" && m.system === "influxdb") m.value = m.value! * 1.5;
    b.measurements = b.measurements!.filter((m) => !(m.system === "postgres" && m.x === 10));
    const rows = compareScenarios(a, b, "rows_per_second");
    const influx = rows.filter((r) => r.subject === "influxdb");
    expect(influx).toHaveLength(4);
    expect(influx.every((r) => Math.abs(r.change! - 0.5) < 1e-12)).toBe(true);
    expect(verdict(influx[0].change, influx[0].better)).toBe("better");
    const vigil = rows.find((r) => r.subject === "vigil" && r.x === 10)!;
    expect(vigil.change).toBe(0);
    expect(verdict(vigil.change, vigil.better)).toBe("same");
    // a figure missing from one run is left out rather than compared with nothing
    expect(rows.find((r) => r.subject === "postgres" && r.x === 10)).toBeUndefined();
    expect(rows.find((r) => r.subject === "postgres" && r.x === 100)).toBeDefined();
  });

  it("calls a higher latency worse", () => {
    expect(verdict(0.2, "lower")).toBe("worse");
    expect(verdict(-0.2, "lower")).toBe("better");
    expect(verdict(0.2, undefined)).toBeUndefined();
  });
});

describe("labelsText", () => {
  it("sorts by key", () => {
    expect(labelsText({ window: "1h", language: "DQL" })).toBe("language=DQL window=1h");
    expect(labelsText(undefined)).toBe("");
  });
});
