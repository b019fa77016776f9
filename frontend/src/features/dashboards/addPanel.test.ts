import { describe, expect, it } from "vitest";
import type { QueryPanel } from "@/api/dashboards";
import { panelFromExplore, panelTypeForView, specWithPanel, titleForQuery, withPanel } from "./addPanel";

const cpu = {
  id: "panel-1",
  type: "timeseries",
  title: "CPU",
  grid: { x: 0, y: 0, w: 12, h: 8 },
  queries: [{ ref_id: "A", query: "M::cpu:(avg(usage_user))" }],
} as QueryPanel;

describe("adding what Explore shows to a dashboard", () => {
  it("draws each Explore view as the panel type that draws it the same way", () => {
    expect(["line", "area", "bar", "stat", "table", "odd"].map(panelTypeForView)).toEqual([
      "timeseries",
      "area",
      "bar",
      "stat",
      "table",
      "timeseries",
    ]);
  });

  it("starts the title from the measurement and the fields", () => {
    expect(titleForQuery("M::cpu:(avg(usage_user)) [::1m] BY host")).toBe("cpu avg(usage_user)");
    expect(titleForQuery("  M::`disk io`:(max(reads), max(writes)) BY host")).toBe("disk io max(reads), max(writes)");
    expect(titleForQuery("show_measurement()")).toBe("New panel");
  });

  it("starts a PromQL query's title from its first metric", () => {
    expect(titleForQuery('sum by (mode) (rate(node_cpu_seconds_total{mode!="idle"}[5m]))', "promql")).toBe(
      "node_cpu_seconds_total",
    );
    expect(titleForQuery("cpu:usage_user / on(host) mem:used", "promql")).toBe("cpu:usage_user");
    expect(titleForQuery("sum(vector(1))", "promql")).toBe("New panel");
  });

  it("makes a panel beside or below the others, with a new id, the unit and the view's type", () => {
    const panel = panelFromExplore([cpu], { title: " Load ", queries: [{ ref_id: "A", query: "M::system:(avg(load1))" }], view: "stat", unit: "percent" });
    expect(panel).toEqual({
      id: "panel-2",
      type: "stat",
      title: "Load",
      grid: { x: 12, y: 0, w: 12, h: 8 },
      queries: [{ ref_id: "A", query: "M::system:(avg(load1))" }],
      unit: "percent",
      legend: { show: true, position: "bottom", values: [] },
      reduce: "last",
      sparkline: true,
    });
    const table = panelFromExplore([], { title: "", queries: [{ query: "M::mem:(last(used))" }], view: "table", unit: "" });
    expect([table.type, table.title, table.unit, "reduce" in table ? table.reduce : "?"]).toEqual(["table", "New panel", "none", null]);
  });

  it("carries Explore's queries into the panel, with their legend formats and hidden ones", () => {
    const p = panelFromExplore([], {
      title: "",
      queries: [
        { ref_id: "A", query: "M::cpu:(avg(x)) BY host", legend_format: " {{host}} " },
        { ref_id: "C", query: "M::mem:(avg(y)) BY host", legend_format: "", hidden: true },
      ],
      view: "line",
      unit: "",
    });
    expect(p.queries).toEqual([
      { ref_id: "A", query: "M::cpu:(avg(x)) BY host", legend_format: "{{host}}" },
      { ref_id: "C", query: "M::mem:(avg(y)) BY host", hidden: true },
    ]);
    const one = panelFromExplore([], { title: "", queries: [{ query: "M::a:(b)", legend_format: null }], view: "line", unit: "" });
    expect(one.queries).toEqual([{ ref_id: "A", query: "M::a:(b)" }]);
    const promql = panelFromExplore([], {
      title: "",
      queries: [{ query: "rate(x[5m])", language: "promql", legend_format: "{{instance}}" }, { query: "M::a:(b)", language: "dql" }],
      view: "line",
      unit: "",
    });
    expect(promql.queries).toEqual([
      { ref_id: "A", query: "rate(x[5m])", language: "promql", legend_format: "{{instance}}" },
      { ref_id: "B", query: "M::a:(b)" },
    ]);
  });

  it("adds the panel after the dashboard's, or makes a dashboard of it over Explore's range", () => {
    const added = panelFromExplore([cpu], { title: "x", queries: [{ query: "M::a:(b)" }], view: "line", unit: "none" });
    expect(withPanel({ schema_version: 1, panels: [cpu] }, added).panels?.map((p) => p.id)).toEqual(["panel-1", "panel-2"]);
    expect(specWithPanel(added, { from: "now-6h", to: "now" })).toEqual({
      schema_version: 1,
      time: { from: "now-6h", to: "now" },
      panels: [added],
    });
  });
});
