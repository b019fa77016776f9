import { describe, expect, it } from "vitest";
import { everyItem, everyPanel, type DashboardItem, type Panel, type RowPanel } from "@/api/dashboards";
import {
  collapseRow,
  expandRow,
  replacePanel,
  rowMembers,
  rowPanelCount,
  toggleRow,
  withNewRow,
  withRowsFolded,
} from "./rows";

function panel(id: string, x: number, y: number, w = 12, h = 8): Panel {
  return { id, type: "timeseries", title: id, grid: { x, y, w, h }, queries: [{ query: "M::cpu:(avg(usage_user))" }] };
}

function row(id: string, y: number, extra: Partial<RowPanel> = {}): RowPanel {
  return { id, type: "row", title: id, collapsed: false, panels: [], grid: { x: 0, y, w: 24, h: 1 }, ...extra };
}

/** id → [x, y, w, h] of the grid's items, and the ids inside each collapsed row. */
function shape(items: readonly DashboardItem[]): Record<string, unknown> {
  return Object.fromEntries(
    items.map((i) => [
      i.id,
      i.type === "row" && i.collapsed ? { y: i.grid.y, inside: (i.panels ?? []).map((p) => `${p.id}@${p.grid.y}`) } : [i.grid.x, i.grid.y, i.grid.w, i.grid.h],
    ]),
  );
}

// overview row, cpu | mem, disk row, disk (taller) | io, net row, net
const DASHBOARD: DashboardItem[] = [
  row("overview", 0),
  panel("cpu", 0, 1),
  panel("mem", 12, 1),
  row("storage", 9),
  panel("disk", 0, 10, 12, 10),
  panel("io", 12, 10, 12, 6),
  row("network", 20),
  panel("net", 0, 21),
];

describe("rows", () => {
  it("groups the panels below a row up to the next one", () => {
    expect(rowMembers(DASHBOARD, "overview").map((p) => p.id)).toEqual(["cpu", "mem"]);
    expect(rowMembers(DASHBOARD, "storage").map((p) => p.id)).toEqual(["disk", "io"]);
    expect(rowMembers(DASHBOARD, "network").map((p) => p.id)).toEqual(["net"]);
    expect(rowMembers(DASHBOARD, "nope")).toEqual([]);
  });

  it("collapsing puts the row's panels in it and lifts what is below by their height", () => {
    const collapsed = collapseRow(DASHBOARD, "storage");
    expect(shape(collapsed)).toEqual({
      overview: [0, 0, 24, 1],
      cpu: [0, 1, 12, 8],
      mem: [12, 1, 12, 8],
      storage: { y: 9, inside: ["disk@10", "io@10"] },
      network: [0, 10, 24, 1],
      net: [0, 11, 12, 8],
    });
    expect(rowPanelCount(collapsed, collapsed.find((i) => i.id === "storage") as RowPanel)).toBe(2);
    // nothing is lost: every panel is still there, once
    expect(everyPanel(collapsed).map((p) => p.id).sort()).toEqual(["cpu", "disk", "io", "mem", "net"]);
  });

  it("expanding brings them back under the row and pushes what is below down: a round trip", () => {
    const back = expandRow(collapseRow(DASHBOARD, "storage"), "storage");
    expect(shape(back)).toEqual(shape(DASHBOARD));
    expect((back.find((i) => i.id === "storage") as RowPanel).panels).toEqual([]);
  });

  it("keeps a collapsed row's panels in place relative to the row when the row moved", () => {
    const collapsed = collapseRow(DASHBOARD, "network");
    const moved = collapsed.map((i) => (i.id === "network" ? { ...i, grid: { ...i.grid, y: 0 } } : { ...i, grid: { ...i.grid, y: i.grid.y + 1 } }));
    const expanded = expandRow(moved, "network");
    expect(shape(expanded)).toMatchObject({ network: [0, 0, 24, 1], net: [0, 1, 12, 8], overview: [0, 9, 24, 1], cpu: [0, 10, 12, 8] });
  });

  it("collapses an empty row without moving anything, and toggles back", () => {
    const items = [row("empty", 0), row("next", 1), panel("a", 0, 2)];
    const collapsed = toggleRow(items, "empty");
    expect(shape(collapsed)).toEqual({ empty: { y: 0, inside: [] }, next: [0, 1, 24, 1], a: [0, 2, 12, 8] });
    expect(shape(toggleRow(collapsed, "empty"))).toEqual(shape(items));
  });

  it("folds rows as one person chose over what was saved, top to bottom", () => {
    const saved = collapseRow(DASHBOARD, "overview");
    const folded = withRowsFolded(saved, { overview: false, storage: true, network: true });
    expect(shape(folded)).toEqual({
      overview: [0, 0, 24, 1],
      cpu: [0, 1, 12, 8],
      mem: [12, 1, 12, 8],
      storage: { y: 9, inside: ["disk@10", "io@10"] },
      network: { y: 10, inside: ["net@11"] },
    });
    // a choice that is what was saved, or names no row, changes nothing
    expect(withRowsFolded(DASHBOARD, { overview: false, gone: true })).toEqual(DASHBOARD);
  });

  it("adds a row across the top, everything one line lower, and replaces a panel wherever it is", () => {
    const added = withNewRow(DASHBOARD, "row-1");
    expect(added[0]).toEqual({
      id: "row-1",
      type: "row",
      title: "Row title",
      collapsed: false,
      panels: [],
      grid: { x: 0, y: 0, w: 24, h: 1 },
    });
    expect(added.slice(1).map((i) => [i.id, i.grid.y])).toEqual(DASHBOARD.map((i) => [i.id, i.grid.y + 1]));
    const collapsed = collapseRow(DASHBOARD, "storage");
    const renamed = replacePanel(collapsed, { ...panel("io", 12, 10, 12, 6), title: "Disk I/O" });
    expect(everyItem(renamed).find((i) => i.id === "io")?.title).toBe("Disk I/O");
    expect(renamed.length).toBe(collapsed.length);
  });
});
