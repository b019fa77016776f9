import { describe, expect, it } from "vitest";
import { interpolateText, interpolateVariables, panelTitle, variablesFromSearch } from "./variables";

describe("interpolateVariables", () => {
  it("replaces single values, braced or bare", () => {
    expect(interpolateVariables("M::cpu {host='$host'} BY ${dc}", { host: ["web-01"], dc: ["eu"] })).toBe(
      "M::cpu {host='web-01'} BY eu",
    );
  });

  it("joins several values as an escaped regex alternation", () => {
    expect(interpolateVariables("{host = re'$host'}", { host: ["a.b", "c"] })).toBe("{host = re'a\\.b|c'}");
  });

  it("leaves unknown names untouched and turns an empty selection into all", () => {
    expect(interpolateVariables("x = '$nope' and re'$empty'", { empty: [] })).toBe("x = '$nope' and re'.*'");
  });
});

describe("interpolateText", () => {
  it("lists the values for people to read, All for an empty selection, and keeps unknown names", () => {
    expect(interpolateText("Hosts: $host in ${dc}; $nope, $all", { host: ["a.b", "c"], dc: ["eu"], all: [] })).toBe(
      "Hosts: a.b, c in eu; $nope, All",
    );
  });
});

describe("panelTitle", () => {
  it("fills the variables in a panel's title, and names a panel without one", () => {
    expect(panelTitle("CPU on $host", { host: ["web-1"] })).toBe("CPU on web-1");
    expect(panelTitle("CPU on ${host}", { host: [] })).toBe("CPU on All");
    expect(panelTitle("", {})).toBe("Untitled panel");
    expect(panelTitle(undefined, {})).toBe("Untitled panel");
  });
});

describe("variablesFromSearch", () => {
  it("collects repeated var- parameters", () => {
    const p = new URLSearchParams("var-host=a&var-host=b&from=now-1h&var-dc=eu");
    expect(variablesFromSearch(p)).toEqual({ host: ["a", "b"], dc: ["eu"] });
  });
});
