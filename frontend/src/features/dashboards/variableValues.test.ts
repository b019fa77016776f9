import { describe, expect, it } from "vitest";
import { applyVariableRegex, matchingMetrics, parsePromqlVariable, queryResultTexts, variableRegex } from "./variableValues";

describe("parsePromqlVariable", () => {
  it("reads Grafana's variable query forms", () => {
    expect(parsePromqlVariable("label_values(job)")).toEqual({ kind: "labelValues", label: "job" });
    expect(parsePromqlVariable('label_values(node_uname_info{job="$job", x=~"a,b"}, instance)')).toEqual({
      kind: "labelValues",
      label: "instance",
      match: 'node_uname_info{job="$job", x=~"a,b"}',
    });
    expect(parsePromqlVariable(" label_names() ")).toEqual({ kind: "labelNames" });
    expect(parsePromqlVariable("label_names(up)")).toEqual({ kind: "labelNames", match: "up" });
    expect(parsePromqlVariable("metrics(node_.*)")).toEqual({ kind: "metrics", regex: "node_.*" });
    expect(parsePromqlVariable("query_result(count by (job) (up))")).toEqual({
      kind: "queryResult",
      query: "count by (job) (up)",
    });
  });
  it("refuses anything else", () => {
    expect(parsePromqlVariable("up{job='x'}")).toBeUndefined();
    expect(parsePromqlVariable("label_values(up, not a label)")).toBeUndefined();
    expect(parsePromqlVariable("query_result()")).toBeUndefined();
  });
});

describe("variable regex", () => {
  it("keeps matching values, by the first group or the group named value", () => {
    expect(applyVariableRegex(["web-1:9100", "db-1:9100", "other"], "/(.*):9100/")).toEqual(["web-1", "db-1"]);
    expect(applyVariableRegex(["a-1", "a-2", "b-1"], "/(?<text>.)-(?<value>\\d)/")).toEqual(["1", "2"]);
    expect(applyVariableRegex(["web-1", "db-1"], "web")).toEqual(["web-1"]);
    expect(applyVariableRegex(["x", "x", "y"], "")).toEqual(["x", "y"]);
  });
  it("reads /…/flags and bare expressions, and ignores a broken one", () => {
    expect(variableRegex("/WEB/i")?.test("web")).toBe(true);
    expect(variableRegex("(unclosed")).toBeUndefined();
    expect(applyVariableRegex(["a", "b"], "(unclosed")).toEqual(["a", "b"]);
  });
  it("lists the metrics a regex matches", () => {
    expect(matchingMetrics(["node_load1", "go_goroutines", "node_cpu"], "node_.*")).toEqual(["node_load1", "node_cpu"]);
  });
});

it("writes query results as Grafana does, for a regex to pick from", () => {
  const texts = queryResultTexts({
    series: [
      {
        name: "go_info",
        tags: { version: "go1.22.1", job: "api", __measurement__: "go" },
        columns: ["time", "value"],
        values: [
          [1_700_000_000_000, 1],
          [1_700_000_060_000, 1],
        ],
      },
      { name: "", tags: {}, columns: ["time", "value"], values: [[1_700_000_000_000, null]] },
    ],
  });
  expect(texts).toEqual(['go_info{job="api", version="go1.22.1"} 1 1700000060']);
  expect(applyVariableRegex(texts, '/.*version="([^"]+)".*/')).toEqual(["go1.22.1"]);
});
