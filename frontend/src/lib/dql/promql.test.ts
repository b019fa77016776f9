import { describe, expect, it } from "vitest";
import { fillPromqlBuiltins, languageOf, promqlStepSeconds, toDqlQuery } from "./promql";

describe("promqlStepSeconds", () => {
  it("fits the range in the points, in whole seconds, at least one", () => {
    expect(promqlStepSeconds(3_600_000, 720)).toBe(5);
    expect(promqlStepSeconds(86_400_000, 720)).toBe(120);
    expect(promqlStepSeconds(60_000, 720)).toBe(1);
    expect(promqlStepSeconds(3_601_000, 720)).toBe(6);
  });
  it("never goes below the query's min step", () => {
    expect(promqlStepSeconds(3_600_000, 720, "30s")).toBe(30);
    expect(promqlStepSeconds(86_400_000, 720, "1m")).toBe(120);
    expect(promqlStepSeconds(3_600_000, 720, "soon")).toBe(5);
  });
});

describe("fillPromqlBuiltins", () => {
  it("fills Grafana's interval and range variables", () => {
    const q = "rate(x[$__rate_interval]) + rate(y[${__interval}]) + z[$__range] + $__interval_ms + $__range_s";
    expect(fillPromqlBuiltins(q, 5, 3_600_000)).toBe("rate(x[60s]) + rate(y[5s]) + z[3600s] + 5000 + 3600");
  });
  it("makes $__rate_interval one scrape interval longer than a long step", () => {
    expect(fillPromqlBuiltins("rate(x[$__rate_interval])", 120, 86_400_000)).toBe("rate(x[135s])");
  });
  it("leaves other names alone", () => {
    expect(fillPromqlBuiltins('up{job="$job", x="$__unknown"}', 5, 1000)).toBe('up{job="$job", x="$__unknown"}');
  });
});

describe("toDqlQuery", () => {
  const range: [number, number] = [1_700_000_000_000, 1_700_003_600_000];
  it("sends DQL as it is, with max_point", () => {
    expect(toDqlQuery({ query: "M::cpu:(avg(usage_user))" }, range, 720)).toEqual({
      query: "M::cpu:(avg(usage_user))",
      time_range: range,
      max_point: 720,
    });
  });
  it("sends PromQL with its qtype, step and built-ins filled in", () => {
    expect(toDqlQuery({ query: "rate(x[$__rate_interval])", language: "promql", min_step: "30s" }, range, 720)).toEqual({
      query: "rate(x[60s])",
      qtype: "promql",
      time_range: range,
      step: "30s",
      max_point: 720,
    });
  });
});

it("reads anything but promql as DQL", () => {
  expect(languageOf({ language: "promql" })).toBe("promql");
  expect(languageOf({})).toBe("dql");
  expect(languageOf({ language: null })).toBe("dql");
});
