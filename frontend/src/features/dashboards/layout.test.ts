import { describe, expect, it } from "vitest";
import type { DashboardItem, Panel } from "@/api/dashboards";
import { applyGridLayout, clampGrid, keyboardMove, newPanelId, nextPanelPosition, stackedLayout, toGridLayout } from "./layout";

function panel(id: string, x: number, y: number, w: number, h: number): Panel {
  return { id, type: "timeseries", grid: { x, y, w, h }, queries: [{ query: "M::cpu:(avg(usage_user))" }] };
}

describe("toGridLayout / applyGridLayout", () => {
  const panels = [panel("a", 0, 0, 12, 8), panel("b", 12, 0, 12, 8)];

  it("round-trips positions by panel id", () => {
    const layout = toGridLayout(panels);
    expect(layout.map(({ i, x, y, w, h }) => ({ i, x, y, w, h }))).toEqual([
      { i: "a", x: 0, y: 0, w: 12, h: 8 },
      { i: "b", x: 12, y: 0, w: 12, h: 8 },
    ]);
    expect(applyGridLayout(panels, layout)).toBe(panels);
  });

  it("writes moved and resized panels back, leaving the others as they were", () => {
    const next = applyGridLayout(panels, [
      { i: "a", x: 0, y: 8, w: 24, h: 10 },
      { i: "b", x: 12, y: 0, w: 12, h: 8 },
    ]);
    expect(next).not.toBe(panels);
    expect(next[0].grid).toEqual({ x: 0, y: 8, w: 24, h: 10 });
    expect(next[1]).toBe(panels[1]);
  });

  it("keeps positions inside the 24-column schema", () => {
    expect(clampGrid({ x: 20, y: -1, w: 8, h: 0 })).toEqual({ x: 16, y: 0, w: 8, h: 1 });
    expect(clampGrid({ x: 1.4, y: 2.6, w: 30, h: 200 })).toEqual({ x: 0, y: 3, w: 24, h: 100 });
  });
});

describe("nextPanelPosition", () => {
  it("fills the first gap from the top, else goes below everything", () => {
    expect(nextPanelPosition([])).toEqual({ x: 0, y: 0, w: 12, h: 8 });
    expect(nextPanelPosition([panel("a", 0, 0, 12, 8)])).toEqual({ x: 12, y: 0, w: 12, h: 8 });
    expect(nextPanelPosition([panel("a", 0, 0, 12, 8), panel("b", 12, 0, 12, 8)])).toEqual({ x: 0, y: 8, w: 12, h: 8 });
  });
});

describe("newPanelId", () => {
  it("picks an unused id", () => {
    expect(newPanelId([])).toBe("panel-1");
    expect(newPanelId([panel("panel-2", 0, 0, 1, 1)])).toBe("panel-3");
    expect(newPanelId([panel("panel-2", 0, 0, 1, 1), panel("panel-3", 0, 0, 1, 1)])).toBe("panel-4");
  });
});

describe("keyboardMove", () => {
  // a | b on the first row, c below a.
  const panels = [panel("a", 0, 0, 12, 8), panel("b", 12, 0, 12, 8), panel("c", 0, 8, 12, 4)];
  const grids = (ps: DashboardItem[]): Record<string, Panel["grid"]> => Object.fromEntries(ps.map((p) => [p.id, p.grid]));

  it("moves sideways by one column and stops at the edge", () => {
    expect(grids(keyboardMove(panels, "c", "right")).c).toEqual({ x: 1, y: 8, w: 12, h: 4 });
    expect(keyboardMove(panels, "b", "right")).toBe(panels);
  });

  it("moves up past a taller panel, pushing it down as a drag would", () => {
    const next = grids(keyboardMove(panels, "c", "up"));
    expect(next.c).toEqual({ x: 0, y: 0, w: 12, h: 4 });
    expect(next.a).toEqual({ x: 0, y: 4, w: 12, h: 8 });
    expect(next.b).toEqual(panels[1].grid);
  });

  it("resizes within the grid and the minimum size", () => {
    expect(grids(keyboardMove(panels, "a", "down", true)).a).toEqual({ x: 0, y: 0, w: 12, h: 9 });
    expect(grids(keyboardMove(panels, "b", "right", true)).b.w).toBe(12);
    const small = [panel("s", 0, 0, 3, 2)];
    expect(grids(keyboardMove(small, "s", "left", true)).s).toEqual({ x: 0, y: 0, w: 3, h: 2 });
  });
});

describe("stackedLayout", () => {
  it("puts panels in reading order, one per row, full width", () => {
    const panels = [panel("b", 12, 0, 12, 8), panel("c", 0, 8, 24, 4), panel("a", 0, 0, 12, 6)];
    expect(stackedLayout(panels)).toEqual([
      { i: "a", x: 0, y: 0, w: 24, h: 6 },
      { i: "b", x: 0, y: 6, w: 24, h: 8 },
      { i: "c", x: 0, y: 14, w: 24, h: 4 },
    ]);
  });
});
