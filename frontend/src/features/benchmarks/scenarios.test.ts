import { describe, expect, it } from "vitest";
import { headlineOf, profileOf } from "./scenarios";

describe("headlineOf", () => {
  it("reads per-system figures: vigil-storage against influxdb", () => {
    const h = headlineOf({
      scenario: "write-saturation",
      summary: { "max_pps/vigil": 23026, "max_pps/vigil-storage": 238448, "max_pps/influxdb": 241221, "max_pps/postgres": 325870 },
    });
    expect(h).toMatchObject({ subject: "vigil-storage", reference: "influxdb", better: "higher" });
    expect(h!.ratio).toBeCloseTo(238448 / 241221, 12);
  });

  it("falls back to vigil and to victoriametrics", () => {
    const h = headlineOf({ scenario: "disk-footprint", summary: { "disk_bytes/vigil": 10, "disk_bytes/victoriametrics": 4 } });
    expect(h).toMatchObject({ subject: "vigil", reference: "victoriametrics", ratio: 2.5, better: "lower" });
  });

  it("inverts query-latency ratios so they read subject ÷ reference", () => {
    const h = headlineOf({
      scenario: "query-latency",
      summary: { reference: "vigil-storage/dql", "latency_ratio/victoriametrics/promql": 0.5, "latency_ratio/influxdb/influxql": 4 },
    });
    expect(h).toMatchObject({ subject: "vigil-storage/dql", reference: "influxdb/influxql", ratio: 0.25 });
  });

  it("uses a ratio the runner already computed", () => {
    expect(headlineOf({ scenario: "storage-ingest", summary: { ratio: 0.4692, pass: false } })).toMatchObject({
      subject: "vigil-storage",
      reference: "victoriametrics",
      ratio: 0.4692,
    });
  });

  it("reads one workspace's rate with the most consumers against one", () => {
    expect(headlineOf({ scenario: "ingest-consumers", summary: { "pps/1": 100, "pps/3": 180, ratio: 1.8 } })).toMatchObject({
      subject: "most consumers",
      reference: "1 consumer",
      ratio: 1.8,
      better: "higher",
    });
  });

  it("reads concurrency's aggregate peaks", () => {
    const h = headlineOf({
      scenario: "concurrency",
      summary: { "peak_ops/aggregate/vigil-storage": 26.3, "peak_ops/aggregate/influxdb": 35.9, "peak_ops/download/influxdb": 1 },
    });
    expect(h!.ratio).toBeCloseTo(26.3 / 35.9, 12);
  });

  it("has none when the summary lacks the figures", () => {
    expect(headlineOf({ scenario: "write-cost", summary: { "cpu_percent/influxdb": 1 } })).toBeUndefined();
    expect(headlineOf({ scenario: "soak", summary: {} })).toBeUndefined();
    expect(headlineOf({ scenario: "disk-footprint", summary: { "disk_bytes/vigil": 1, "disk_bytes/influxdb": 0 } })).toBeUndefined();
  });

  it("reads the seed scenarios 7-9", () => {
    const pq = headlineOf({ scenario: "point-queries", summary: { glibc: "2.36", "total_s_max/vigil-storage": 2, "total_s_max/postgres": 8 } });
    expect(pq).toMatchObject({ subject: "vigil-storage", reference: "postgres", ratio: 0.25, better: "lower" });
    const mix = headlineOf({ scenario: "read-write-mix", summary: { "ops_heaviest/vigil-storage": 900, "ops_heaviest/influxdb": 600 } });
    expect(mix).toMatchObject({ subject: "vigil-storage", reference: "influxdb", ratio: 1.5, better: "higher" });
    expect(headlineOf({ scenario: "soak", summary: { throughput_last_over_first: 0.98, pass: true } })).toMatchObject({
      subject: "last window",
      reference: "first window",
      ratio: 0.98,
    });
  });

  it("reads fairness as B's query p50 during A's flood over B alone", () => {
    expect(headlineOf({ scenario: "fairness", summary: { b_query_p50_ratio: 1.26, b_query_p99_ratio: 3.13, pass: false } })).toMatchObject({
      subject: "B during A's flood",
      reference: "B alone",
      ratio: 1.26,
      better: "lower",
    });
    expect(headlineOf({ scenario: "fairness", summary: { b_query_p50_ratio: null } })).toBeUndefined();
  });

  it("numbers the methodology's scenarios", () => {
    expect(
      ["write-cost", "write-saturation", "query-latency", "disk-footprint", "batch-size", "concurrency", "point-queries", "read-write-mix", "soak"].map(
        (s) => profileOf(s).number,
      ),
    ).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});
