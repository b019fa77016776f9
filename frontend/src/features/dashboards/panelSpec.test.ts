import { describe, expect, it } from "vitest";
import type { Panel } from "./api";
import { changePanelType, compactPanel, visualisationOf } from "./panelSpec";

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

  it("carries reduce between stat and table, stack between line, area and bar", () => {
    expect(changePanelType(stat, "table")).toMatchObject({ type: "table", reduce: "max" });
    const area = changePanelType({ ...changePanelType(stat, "bar"), stack: true } as Panel, "area");
    expect(area).toMatchObject({ type: "area", stack: true });
    expect(changePanelType(area, "stat")).toMatchObject({ type: "stat", reduce: "last", sparkline: true });
  });

  it("edits heatmap and top list panels as lines", () => {
    expect(visualisationOf({ ...stat, type: "heatmap" } as Panel)).toBe("timeseries");
    expect(visualisationOf(stat)).toBe("stat");
  });
});
