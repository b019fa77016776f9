import { describe, expect, it } from "vitest";
import type { Panel } from "@/api/dashboards";
import { changePanelType, compactPanel, VISUALISATIONS, visualisationOf } from "./panelSpec";

const stat: Panel = {
  id: "p",
  type: "stat",
  title: "Load",
  grid: { x: 0, y: 0, w: 6, h: 4 },
  queries: [{ query: "M::system:(last(load1))" }],
  unit: "short",
  thresholds: [{ value: 4, color: "orange" }],
  reduce: "max",
  sparkline: false,
};

describe("changePanelType", () => {
  it("keeps the shared settings and drops fields the new type does not have", () => {
    const line = compactPanel(changePanelType(stat, "timeseries"));
    expect(line).toEqual({
      id: "p",
      type: "timeseries",
      title: "Load",
      grid: stat.grid,
      queries: stat.queries,
      unit: "short",
      thresholds: stat.thresholds,
    });
    expect("sparkline" in line).toBe(false);
  });

  it("turns a panel into text and back, the queries and settings coming back from before", () => {
    const text = changePanelType({ ...stat, description: "Load average" }, "text");
    expect(text).toEqual({ id: "p", type: "text", title: "Load", description: "Load average", grid: stat.grid, content: "" });
    const written = { ...text, title: "Load, explained", content: "## Load" } as Panel;
    expect(changePanelType(written, "text")).toMatchObject({ content: "## Load" });
    // back to a chart: the stat's query, unit and thresholds, with the title typed meanwhile
    expect(compactPanel(changePanelType(written, "timeseries", stat))).toEqual({
      id: "p",
      type: "timeseries",
      title: "Load, explained",
      description: "Load average",
      grid: stat.grid,
      queries: stat.queries,
      unit: "short",
      thresholds: stat.thresholds,
    });
    // a text panel that never had a query starts as a line chart with an empty one
    expect(changePanelType(written, "bar")).toMatchObject({ type: "bar", queries: [{ ref_id: "A", query: "" }] });
    expect(visualisationOf(written)).toBe("text");
  });

  it("carries reduce between stat and table, stack between line, area and bar", () => {
    expect(changePanelType(stat, "table")).toMatchObject({ type: "table", reduce: "max" });
    const area = changePanelType({ ...changePanelType(stat, "bar"), stack: true } as Panel, "area");
    expect(area).toMatchObject({ type: "area", stack: true });
    expect(changePanelType(area, "stat")).toMatchObject({ type: "stat", reduce: "last", sparkline: true });
  });

  it("turns a stat into a gauge keeping its reducer, and keeps a gauge's range and what it repeats for", () => {
    const gauge = changePanelType({ ...stat, repeat: "host", max_per_row: 3 }, "gauge");
    expect(compactPanel(gauge)).toMatchObject({ type: "gauge", reduce: "max", repeat: "host", max_per_row: 3 });
    const ranged = { ...gauge, min: 10, max: 90 } as Panel;
    expect(changePanelType(ranged, "gauge")).toMatchObject({ min: 10, max: 90 });
    expect(compactPanel(changePanelType(ranged, "stat"))).not.toHaveProperty("min");
    expect(VISUALISATIONS.map((v) => v.value)).toContain("gauge");
  });

  it("edits a top list as a top list, keeping its reducer, limit and order", () => {
    const top = { ...stat, type: "toplist", reduce: "avg", limit: 5, order: "asc", sparkline: undefined } as Panel;
    expect(visualisationOf(top)).toBe("toplist");
    expect(VISUALISATIONS.map((v) => v.label)).toContain("Top list");
    expect(compactPanel(changePanelType(top, "toplist"))).toEqual({
      id: "p",
      type: "toplist",
      title: "Load",
      grid: stat.grid,
      queries: stat.queries,
      unit: "short",
      thresholds: stat.thresholds,
      reduce: "avg",
      limit: 5,
      order: "asc",
    });
    // a stat becomes a top list of the same values; a top list a stat of its reducer
    expect(compactPanel(changePanelType(stat, "toplist"))).toMatchObject({ type: "toplist", reduce: "max" });
    expect("limit" in compactPanel(changePanelType(stat, "toplist"))).toBe(false);
    expect(changePanelType(top, "stat")).toMatchObject({ type: "stat", reduce: "avg" });
    expect("limit" in changePanelType(top, "stat")).toBe(false);
  });

  it("edits a heatmap as a heatmap, keeping the query and its colours both ways", () => {
    const heatmap = { ...stat, type: "heatmap", color_scheme: "reds", reduce: undefined, sparkline: undefined } as Panel;
    expect(visualisationOf(heatmap)).toBe("heatmap");
    expect(visualisationOf(stat)).toBe("stat");
    expect(VISUALISATIONS.map((v) => v.label)).toContain("Heatmap");
    expect(compactPanel(changePanelType(heatmap, "heatmap"))).toEqual({
      id: "p",
      type: "heatmap",
      title: "Load",
      grid: stat.grid,
      queries: stat.queries,
      unit: "short",
      thresholds: stat.thresholds,
      color_scheme: "reds",
    });
    // to and from a heatmap: the query stays, fields of the other type go
    const fromStat = compactPanel(changePanelType(stat, "heatmap"));
    expect(fromStat).toMatchObject({ type: "heatmap", queries: stat.queries, unit: "short" });
    expect(Object.keys(fromStat)).not.toContain("reduce");
    expect(Object.keys(fromStat)).not.toContain("color_scheme");
    const line = compactPanel(changePanelType(heatmap, "timeseries"));
    expect(line).toMatchObject({ type: "timeseries", queries: stat.queries });
    expect("color_scheme" in line).toBe(false);
  });

  it("edits a panel of a type it does not know as lines", () => {
    expect(visualisationOf({ ...stat, type: "sankey" } as unknown as Panel)).toBe("timeseries");
  });
});
