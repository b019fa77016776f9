import { describe, expect, it } from "vitest";
import { promqlCompletionContext } from "./promqlCompletionContext";

describe("promqlCompletionContext", () => {
  it("offers metric names where an expression starts", () => {
    expect(promqlCompletionContext("node_cp")).toEqual({ kind: "metric", prefix: "node_cp" });
    expect(promqlCompletionContext("sum(rate(node_")).toEqual({ kind: "metric", prefix: "node_" });
    expect(promqlCompletionContext("a / ")).toEqual({ kind: "metric", prefix: "" });
  });
  it("offers label names in a selector's braces, for its metric", () => {
    expect(promqlCompletionContext("node_cpu_seconds_total{")).toEqual({
      kind: "labelName",
      metric: "node_cpu_seconds_total",
      prefix: "",
    });
    expect(promqlCompletionContext('up{job="x", inst')).toEqual({ kind: "labelName", metric: "up", prefix: "inst" });
    expect(promqlCompletionContext("{mo")).toEqual({ kind: "labelName", metric: undefined, prefix: "mo" });
  });
  it("offers label names in by, without and vector matching", () => {
    expect(promqlCompletionContext("sum by (")).toEqual({ kind: "labelName", prefix: "" });
    expect(promqlCompletionContext("sum without (cpu, mo")).toEqual({ kind: "labelName", prefix: "mo" });
    expect(promqlCompletionContext("a / on(ins")).toEqual({ kind: "labelName", prefix: "ins" });
  });
  it("offers a label's values in its quotes", () => {
    expect(promqlCompletionContext('node_cpu_seconds_total{mode="id')).toEqual({
      kind: "labelValue",
      metric: "node_cpu_seconds_total",
      label: "mode",
      prefix: "id",
    });
    expect(promqlCompletionContext('up{job=~"a|')).toEqual({ kind: "labelValue", metric: "up", label: "job", prefix: "a|" });
  });
  it("offers nothing in a range, a number or a closed string", () => {
    expect(promqlCompletionContext("rate(x[5")).toEqual({ kind: "none", prefix: "5" });
    expect(promqlCompletionContext("x > 10")).toEqual({ kind: "none", prefix: "10" });
    expect(promqlCompletionContext('label_replace(x, "ds')).toEqual({ kind: "none", prefix: "" });
    expect(promqlCompletionContext('up{job="a"')).toEqual({ kind: "none", prefix: "" });
  });
});
