import { describe, expect, it } from "vitest";
import { completionContext } from "./completionContext";

describe("completionContext", () => {
  it.each([
    ["M::", { kind: "measurement", prefix: "" }],
    ["M::cp", { kind: "measurement", prefix: "cp" }],
    ["metric :: ", { kind: "measurement", prefix: "" }],
    ["M::cpu:(", { kind: "field", measurement: "cpu", prefix: "" }],
    ["M::cpu:(avg(usage_", { kind: "field", measurement: "cpu", prefix: "usage_" }],
    ["M::cpu:(usage_user, us", { kind: "field", measurement: "cpu", prefix: "us" }],
    ["M::cpu:(avg(x)) {", { kind: "tagKey", measurement: "cpu", prefix: "" }],
    ["M::cpu:(avg(x)) {host='a', re", { kind: "tagKey", measurement: "cpu", prefix: "re" }],
    ["M::cpu:(avg(x)) {host = 'we", { kind: "tagValue", measurement: "cpu", key: "host", prefix: "we", quote: "'" }],
    ['M::cpu {host != "', { kind: "tagValue", measurement: "cpu", key: "host", prefix: "", quote: '"' }],
    ["M::cpu {host IN ['a', 'b", { kind: "tagValue", measurement: "cpu", key: "host", prefix: "b", quote: "'" }],
    ["M::cpu:(avg(x)) [15m::1m] BY ", { kind: "tagKey", measurement: "cpu", prefix: "" }],
    ["M::cpu:(avg(x)) [15m::1m] BY host, d", { kind: "tagKey", measurement: "cpu", prefix: "d" }],
    ["M::`my-metric`:(", { kind: "field", measurement: "my-metric", prefix: "" }],
    ["M::cpu:(avg(x)) [15m::1m] BY host LIM", { kind: "keyword", prefix: "LIM" }],
    ["sho", { kind: "keyword", prefix: "sho" }],
  ])("%j", (before, expected) => {
    expect(completionContext(before)).toEqual(expected);
  });
});
