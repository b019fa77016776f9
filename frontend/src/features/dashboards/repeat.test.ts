import { describe, expect, it } from "vitest";
import type { DashboardItem, Panel, RowPanel } from "@/api/dashboards";
import { dashboardGrid, expandRepeats, expandRowRepeats, firstCopies, repeatValues, sourcePanelId } from "./repeat";

function panel(id: string, x: number, y: number, w = 12, h = 8, extra: Partial<Panel> = {}): Panel {
  return {
    id,
    type: "timeseries",
    title: `CPU on $host`,
    grid: { x, y, w, h },
    queries: [{ query: "M::cpu:(avg(usage_user)) { host = '$host' }" }],
    ...extra,
  } as Panel;
}

const grids = (items: readonly DashboardItem[]): Record<string, number[]> =>
  Object.fromEntries(items.map((i) => [i.id, [i.grid.x, i.grid.y, i.grid.w, i.grid.h]]));

describe("expandRepeats", () => {
  it("draws a panel once per selected value, side by side, each with its own value", () => {
    const items = [panel("cpu", 0, 0, 12, 8, { repeat: "host", max_per_row: 4 }), panel("below", 0, 8)];
    const { items: out, scope, waiting } = expandRepeats(items, { host: ["a", "b", "c"] }, {});
    expect(grids(out)).toEqual({
      cpu: [0, 0, 8, 8],
      "cpu@b": [8, 0, 8, 8],
      "cpu@c": [16, 0, 8, 8],
      below: [0, 8, 12, 8],
    });
    expect(scope.get("cpu")).toEqual({ host: ["a"] });
    expect(scope.get("cpu@c")).toEqual({ host: ["c"] });
    expect(waiting.size).toBe(0);
  });

  it("wraps after max_per_row and moves what is below down by the added lines", () => {
    const items = [panel("cpu", 0, 0, 12, 4, { repeat: "host", max_per_row: 2 }), panel("beside", 12, 0), panel("below", 0, 8)];
    const { items: out } = expandRepeats(items, { host: ["a", "b", "c"] }, {});
    expect(grids(out)).toEqual({
      cpu: [0, 0, 12, 4],
      "cpu@b": [12, 0, 12, 4],
      "cpu@c": [0, 4, 12, 4],
      // it was where the copies now are: under them
      beside: [12, 8, 12, 8],
      below: [0, 12, 12, 8],
    });
  });

  it("stacks the copies one under another when asked, keeping the panel's width", () => {
    const items = [panel("cpu", 6, 2, 12, 5, { repeat: "host", repeat_direction: "v" }), panel("below", 0, 7)];
    const { items: out } = expandRepeats(items, { host: ["a", "b"] }, {});
    expect(grids(out)).toEqual({ cpu: [6, 2, 12, 5], "cpu@b": [6, 7, 12, 5], below: [0, 12, 12, 8] });
  });

  it("uses every value when none is selected, and waits while they are unknown", () => {
    const items = [panel("cpu", 0, 0, 24, 8, { repeat: "host" })];
    const all = expandRepeats(items, { host: [] }, { host: ["x", "y"] });
    expect(all.items.map((i) => i.id)).toEqual(["cpu", "cpu@y"]);
    const unknown = expandRepeats(items, { host: [] }, {});
    expect(unknown.items).toEqual(items);
    expect(unknown.waiting.get("cpu")).toBe("host");
  });

  it("leaves a panel with no values, and panels that do not repeat, as they are", () => {
    const items = [panel("cpu", 0, 0, 24, 8, { repeat: "host" }), panel("plain", 0, 8)];
    expect(expandRepeats(items, { host: [] }, { host: [] }).items).toEqual(items);
    expect(expandRepeats(items, { host: ["only"] }, {}).items.map((i) => i.id)).toEqual(["cpu", "plain"]);
  });

  it("knows a copy's source, and a value listed twice makes one copy", () => {
    expect(sourcePanelId("cpu@web-1")).toBe("cpu");
    expect(sourcePanelId("cpu")).toBe("cpu");
    expect(repeatValues(["a", "a", "b"], undefined)).toEqual(["a", "b"]);
    expect(repeatValues([], ["z"])).toEqual(["z"]);
    expect(repeatValues(undefined, undefined)).toBeUndefined();
  });
});

describe("firstCopies", () => {
  it("draws each repeated panel once, as its first copy, while the layout is edited", () => {
    const items = [panel("cpu", 0, 0, 12, 8, { repeat: "host" }), panel("mem", 12, 0, 12, 8, { repeat: "dc" }), panel("plain", 0, 8)];
    const { items: out, scope, waiting } = firstCopies(items, { host: [] }, { host: ["x", "y"] });
    expect(out).toEqual(items);
    expect(scope.get("cpu")).toEqual({ host: ["x"] });
    expect(scope.has("plain")).toBe(false);
    expect(waiting.get("mem")).toBe("dc");
  });
});

function row(id: string, y: number, extra: Partial<RowPanel> = {}): RowPanel {
  return { id, type: "row", title: "DC $dc", collapsed: false, panels: [], grid: { x: 0, y, w: 24, h: 1 }, ...extra };
}

describe("expandRowRepeats", () => {
  // a row repeated for $dc over cpu | mem, then a plain row and a panel under it
  const items: DashboardItem[] = [
    row("r", 0, { repeat: "dc" }),
    panel("cpu", 0, 1),
    panel("mem", 12, 1, 12, 6),
    row("other", 9),
    panel("net", 0, 10),
  ];

  it("copies an open row with its panels, one under another, each copy with its value", () => {
    const { items: out, scope } = expandRowRepeats(items, { dc: ["east", "west"] }, {});
    expect(grids(out)).toEqual({
      r: [0, 0, 24, 1],
      cpu: [0, 1, 12, 8],
      mem: [12, 1, 12, 6],
      "r@west": [0, 9, 24, 1],
      "cpu@west": [0, 10, 12, 8],
      "mem@west": [12, 10, 12, 6],
      other: [0, 18, 24, 1],
      net: [0, 19, 12, 8],
    });
    expect(scope.get("r")).toEqual({ dc: ["east"] });
    expect(scope.get("mem@west")).toEqual({ dc: ["west"] });
    expect(scope.has("net")).toBe(false);
  });

  it("copies a folded row with the panels inside it, and waits while the values are unknown", () => {
    const folded: DashboardItem[] = [row("r", 0, { repeat: "dc", collapsed: true, panels: [panel("cpu", 0, 1)] }), panel("net", 0, 1)];
    const { items: out, scope } = expandRowRepeats(folded, { dc: [] }, { dc: ["east", "west"] });
    expect(grids(out)).toEqual({ r: [0, 0, 24, 1], "r@west": [0, 1, 24, 1], net: [0, 2, 12, 8] });
    expect((out[1] as RowPanel).panels?.map((p) => [p.id, p.grid.y])).toEqual([["cpu@west", 1]]);
    expect(scope.get("cpu@west")).toEqual({ dc: ["west"] });
    const waiting = expandRowRepeats(folded, { dc: [] }, {});
    expect(waiting.items).toEqual(folded);
    expect([...waiting.waiting.keys()]).toEqual(["r", "cpu"]);
  });

  it("repeats a panel inside each copy of a repeated row, each copy knowing both values", () => {
    const nested: DashboardItem[] = [row("r", 0, { repeat: "dc" }), panel("cpu", 0, 1, 12, 8, { repeat: "host" })];
    const { items: out, scope } = dashboardGrid(nested, { dc: ["east", "west"], host: ["a", "b"] }, {});
    expect(out.map((i) => i.id)).toEqual(["r", "cpu", "cpu@b", "r@west", "cpu@west", "cpu@west@b"]);
    expect(scope.get("cpu@west@b")).toEqual({ dc: ["west"], host: ["b"] });
    expect(scope.get("cpu")).toEqual({ dc: ["east"], host: ["a"] });
  });

  it("folds a copy of a repeated row on its own", () => {
    const { items: out } = dashboardGrid(items, { dc: ["east", "west"] }, {}, { "r@west": true });
    expect(out.map((i) => i.id)).toEqual(["r", "cpu", "mem", "r@west", "other", "net"]);
    expect((out[3] as RowPanel).panels?.map((p) => p.id)).toEqual(["cpu@west", "mem@west"]);
  });

  it("draws a repeated row and its panels as the first copy while the layout is edited", () => {
    const { scope, items: out } = firstCopies(items, { dc: [] }, { dc: ["east", "west"] });
    expect(out).toEqual(items);
    expect(scope.get("r")).toEqual({ dc: ["east"] });
    expect(scope.get("mem")).toEqual({ dc: ["east"] });
    expect(scope.has("net")).toBe(false);
  });
});
