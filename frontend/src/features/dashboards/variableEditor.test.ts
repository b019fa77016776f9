import { describe, expect, it } from "vitest";
import type { DashboardItem, DashboardVariable, Panel, QueryPanel } from "@/api/dashboards";
import {
  emptyVariableForm,
  formQuery,
  formToVariable,
  moveItem,
  panelsUsingVariable,
  parseTagValuesQuery,
  renameVariableInPanels,
  splitOptions,
  stopRepeating,
  tagValuesQuery,
  variableErrors,
  variableToForm,
  type VariableForm,
} from "./variableEditor";

const form = (patch: Partial<VariableForm>): VariableForm => ({ ...emptyVariableForm(), ...patch });

describe("the tag-values query", () => {
  it("is built from measurement and tag key and read back", () => {
    expect(tagValuesQuery("cpu", "host")).toBe("show_tag_value(from=['cpu'], keyin=['host'])");
    expect(parseTagValuesQuery("show_tag_value(from=['cpu'], keyin=['host'])")).toEqual({ measurement: "cpu", tagKey: "host" });
    expect(parseTagValuesQuery(" show_tag_value( from = ['cpu'] ,keyin=['host'] ) ")).toEqual({
      measurement: "cpu",
      tagKey: "host",
    });
  });

  it("quotes odd names and reads them back unchanged", () => {
    for (const [m, k] of [
      ["it's", "a\\b"],
      ["my-metric", "tag with space"],
    ]) {
      const q = tagValuesQuery(m, k);
      expect(parseTagValuesQuery(q)).toEqual({ measurement: m, tagKey: k });
    }
    expect(tagValuesQuery("it's", "k")).toBe("show_tag_value(from=['it\\'s'], keyin=['k'])");
  });

  it("leaves any other query to the DQL field", () => {
    expect(parseTagValuesQuery("show_tag_value(from=['cpu'], keyin=['host'], where=`x`)")).toBeUndefined();
    expect(parseTagValuesQuery("show_tag_value(from=['cpu','mem'], keyin=['host'])")).toBeUndefined();
    expect(parseTagValuesQuery("show_measurement()")).toBeUndefined();
  });
});

describe("variable form ↔ spec", () => {
  it("opens a builder query in the builder and saves it as the same query variable", () => {
    const v: DashboardVariable = {
      name: "host",
      label: "Host",
      language: "dql",
      regex: null,
      type: "query",
      query: "show_tag_value(from=['cpu'], keyin=['host'])",
      options: [],
      multi: true,
      include_all: true,
      default: ["a", "b"],
    };
    const f = variableToForm(v);
    expect(f).toMatchObject({ source: "tags", measurement: "cpu", tagKey: "host", multi: true, includeAll: true });
    expect(formToVariable(f)).toEqual(v);
  });

  it("keeps a hand-written query, a fixed list and a constant as they are", () => {
    // As the backend returns them: every field present.
    const query: DashboardVariable = {
      name: "m",
      label: "",
      language: "dql",
      regex: null,
      type: "query",
      query: "show_measurement()",
      options: [],
      default: [],
      multi: false,
      include_all: false,
    };
    expect(variableToForm(query).source).toBe("query");
    expect(formToVariable(variableToForm(query))).toEqual(query);
    const custom: DashboardVariable = {
      name: "dc",
      label: "DC",
      language: "dql",
      regex: null,
      type: "custom",
      query: null,
      options: ["east", "west"],
      default: ["west"],
      multi: false,
      include_all: true,
    };
    expect(variableToForm(custom).options).toBe("east, west");
    expect(formToVariable(variableToForm(custom))).toEqual(custom);
    const constant: DashboardVariable = {
      name: "env",
      label: "",
      language: "dql",
      regex: null,
      type: "constant",
      query: null,
      options: [],
      default: ["prod"],
      multi: false,
      include_all: false,
    };
    expect(formToVariable(variableToForm(constant))).toEqual(constant);
  });

  it("trims, keeps one default for a single-value variable and drops defaults a fixed list lacks", () => {
    expect(formToVariable(form({ name: " host ", measurement: " cpu ", tagKey: "host", defaults: ["a", "b"] }))).toEqual({
      name: "host",
      label: "",
      language: "dql",
      regex: null,
      type: "query",
      query: "show_tag_value(from=['cpu'], keyin=['host'])",
      options: [],
      multi: false,
      include_all: false,
      default: ["a"],
    });
    expect(formToVariable(form({ name: "dc", source: "custom", options: "east, west", multi: true, defaults: ["west", "gone"] })).default).toEqual([
      "west",
    ]);
  });

  it("opens a PromQL variable as one and keeps its regex", () => {
    const v: DashboardVariable = {
      name: "node",
      label: "Host",
      language: "promql",
      regex: "/(.*):9100/",
      type: "query",
      query: 'label_values(node_uname_info{job="$job"}, instance)',
      options: [],
      default: [],
      multi: false,
      include_all: false,
    };
    const f = variableToForm(v);
    expect(f).toMatchObject({ source: "promql", query: v.query, regex: "/(.*):9100/" });
    expect(formToVariable(f)).toEqual(v);
    // a regex only goes with a query of one's own: the tag builder's has none
    expect(formToVariable({ ...f, source: "tags", measurement: "cpu", tagKey: "host" }).regex).toBeNull();
    expect(formQuery(f)).toBe(v.query);
  });

  it("checks a PromQL variable's query and regex as the backend does", () => {
    const f = form({ name: "node", source: "promql", query: "up{job='x'}" });
    expect(variableErrors(f, [])).toEqual({
      query: "Enter label_values(metric, label), label_values(label), label_names(), metrics(regex) or query_result(query).",
    });
    expect(variableErrors({ ...f, query: "label_values(up, instance)", regex: "/(unclosed/" }, [])).toEqual({
      regex: "This is not a regular expression (write /…/ or the expression alone).",
    });
    expect(variableErrors({ ...f, query: "label_values(up, instance)", regex: "/(.*):9100/" }, [])).toEqual({});
  });

  it("runs the query of the source that is chosen", () => {
    expect(formQuery(form({ measurement: "cpu", tagKey: "" }))).toBeUndefined();
    expect(formQuery(form({ measurement: "cpu", tagKey: "host" }))).toBe("show_tag_value(from=['cpu'], keyin=['host'])");
    expect(formQuery(form({ source: "query", query: " show_measurement() " }))).toBe("show_measurement()");
    expect(formQuery(form({ source: "custom", options: "a" }))).toBeUndefined();
  });

  it("splits a fixed list on commas without blanks or repeats", () => {
    expect(splitOptions(" a, b,,a , c ")).toEqual(["a", "b", "c"]);
    expect(splitOptions(" , ")).toEqual([]);
  });
});

describe("variableErrors", () => {
  const ok = form({ name: "host", measurement: "cpu", tagKey: "host" });

  it("accepts a complete form", () => {
    expect(variableErrors(ok, ["dc"])).toEqual({});
  });

  it("checks the name as the backend does, and that it is unique", () => {
    for (const good of ["host", "_x", "Host_2", "a".repeat(64)]) expect(variableErrors({ ...ok, name: good }, []).name).toBeUndefined();
    expect(variableErrors({ ...ok, name: "" }, []).name).toMatch(/Give the variable a name/);
    for (const bad of ["2host", "host-name", "host name", "$host", "é", "a".repeat(65)]) {
      expect(variableErrors({ ...ok, name: bad }, []).name).toMatch(/starts with a letter or _/);
    }
    expect(variableErrors(ok, ["host"]).name).toBe("Another variable is already called host.");
  });

  it("asks for what the chosen source needs", () => {
    expect(variableErrors({ ...ok, measurement: "", tagKey: " " }, [])).toEqual({
      measurement: "Choose the measurement whose tag values to offer.",
      tagKey: "Choose the tag key whose values to offer.",
    });
    expect(variableErrors({ ...ok, source: "query", query: "" }, []).query).toMatch(/Enter a metadata query/);
    expect(variableErrors({ ...ok, source: "custom", options: " , " }, []).options).toMatch(/at least one value/);
    expect(variableErrors({ ...ok, source: "constant" }, [])).toEqual({});
    expect(variableErrors({ ...ok, label: "x".repeat(101) }, []).label).toMatch(/at most 100/);
  });
});

describe("list helpers", () => {
  it("moves an item up or down and ignores moves past either end", () => {
    expect(moveItem(["a", "b", "c"], 2, -1)).toEqual(["a", "c", "b"]);
    expect(moveItem(["a", "b", "c"], 0, 1)).toEqual(["b", "a", "c"]);
    expect(moveItem(["a", "b", "c"], 0, -1)).toEqual(["a", "b", "c"]);
    expect(moveItem(["a", "b", "c"], 2, 1)).toEqual(["a", "b", "c"]);
  });

  it("finds the panels whose queries use a variable, bare or braced", () => {
    const panel = (title: string, query: string): Panel =>
      ({ id: title, type: "timeseries", title, grid: { x: 0, y: 0, w: 6, h: 4 }, queries: [{ query }] }) as Panel;
    const panels = [
      panel("bare", "M::cpu:(avg(usage_user)) {host = re'$host'}"),
      panel("braced", "M::cpu:(avg(usage_user)) BY ${host}"),
      panel("longer name", "M::cpu:(avg(usage_user)) {host = '$hostname'}"),
      panel("", "M::cpu:(avg(usage_user))"),
    ];
    expect(panelsUsingVariable(panels, "host")).toEqual(["bare", "braced"]);
    expect(panelsUsingVariable(panels, "hostname")).toEqual(["longer name"]);
    expect(panelsUsingVariable(panels, "dc")).toEqual([]);
  });

  it("renames a variable in the panel queries that use it, and only there", () => {
    const panel = (title: string, ...queries: string[]): QueryPanel =>
      ({ id: title, type: "timeseries", title, grid: { x: 0, y: 0, w: 6, h: 4 }, queries: queries.map((query) => ({ query })) }) as QueryPanel;
    const untouched = panel("other", "M::cpu:(avg(usage_user)) {host = '$hostname'}");
    const panels = [
      panel("both", "M::cpu:(avg(usage_user)) {host = re'$host'} BY ${host}", "M::mem:(avg(used)) {host = '$host', dc = '$dc'}"),
      untouched,
    ];
    const renamed = renameVariableInPanels(panels, "host", "server");
    expect((renamed[0] as QueryPanel).queries.map((q) => q.query)).toEqual([
      "M::cpu:(avg(usage_user)) {host = re'$server'} BY ${server}",
      "M::mem:(avg(used)) {host = '$server', dc = '$dc'}",
    ]);
    expect(renamed[1]).toBe(untouched);
    expect(renameVariableInPanels(panels, "host", "host")).toEqual(panels);
  });

  it("finds and renames a variable in a text panel's text too", () => {
    const notes: Panel = {
      id: "notes",
      type: "text",
      title: "Notes",
      grid: { x: 0, y: 0, w: 6, h: 4 },
      content: "Runbook for $host (${host}), not $hostname",
    };
    expect(panelsUsingVariable([notes], "host")).toEqual(["Notes"]);
    const [renamed] = renameVariableInPanels([notes], "host", "server");
    expect(renamed).toEqual({ ...notes, content: "Runbook for $server (${server}), not $hostname" });
  });

  it("finds, renames and stops repeating a variable in collapsed rows and in what panels repeat for", () => {
    const repeated = {
      id: "cpu",
      type: "timeseries",
      title: "CPU",
      repeat: "host",
      grid: { x: 0, y: 1, w: 6, h: 4 },
      queries: [{ query: "M::cpu:(avg(usage_user))" }],
    } as Panel;
    const folded = {
      id: "disk",
      type: "timeseries",
      title: "Disk",
      grid: { x: 0, y: 2, w: 6, h: 4 },
      queries: [{ query: "M::disk:(avg(used)) {host = '$host'}" }],
    } as Panel;
    const items: DashboardItem[] = [
      repeated,
      { id: "r", type: "row", title: "Storage", collapsed: true, grid: { x: 0, y: 0, w: 24, h: 1 }, panels: [folded] },
    ];
    expect(panelsUsingVariable(items, "host")).toEqual(["CPU", "Disk"]);
    const renamed = renameVariableInPanels(items, "host", "server");
    expect((renamed[0] as Panel).repeat).toBe("server");
    const row = renamed[1] as Extract<DashboardItem, { type: "row" }>;
    expect((row.panels![0] as QueryPanel).queries[0].query).toBe("M::disk:(avg(used)) {host = '$server'}");
    const once = stopRepeating(items, "host");
    expect((once[0] as Panel).repeat).toBeNull();
    expect(once[1]).toBe(items[1]);
  });
});
