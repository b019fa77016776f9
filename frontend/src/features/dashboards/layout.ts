import { moveElement, verticalCompactor, type LayoutItem } from "react-grid-layout/core";
import { everyItem, isRow, type DashboardItem } from "@/api/dashboards";

/** The dashboard grid is 24 columns wide (the schema's `GRID_COLUMNS`); rows are `ROW_HEIGHT` px. */
export const GRID_COLUMNS = 24;
export const ROW_HEIGHT = 36;
export const MIN_PANEL_W = 3;
export const MIN_PANEL_H = 2;
/** The schema's bounds on `grid.y` and `grid.h`. */
const MAX_Y = 10_000;
const MAX_H = 100;

/** One grid cell as react-grid-layout describes it; `i` is the panel id. */
export interface GridItem {
  i: string;
  x: number;
  y: number;
  w: number;
  h: number;
  minW?: number;
  minH?: number;
  maxH?: number;
  isResizable?: boolean;
}

/** What has a place on the grid: a panel or a row. */
type Placed = Pick<DashboardItem, "id" | "grid">;
type Grid = DashboardItem["grid"];

/** The panels' and rows' `grid` positions as a grid layout; a row spans the width, one grid row high. */
export function toGridLayout(items: readonly DashboardItem[]): GridItem[] {
  return items.map((p) =>
    isRow(p)
      ? { i: p.id, ...clampGrid(p.grid), x: 0, w: GRID_COLUMNS, h: 1, minW: GRID_COLUMNS, maxH: 1, isResizable: false }
      : { i: p.id, ...clampGrid(p.grid), minW: MIN_PANEL_W, minH: MIN_PANEL_H },
  );
}

/** Keeps a position inside what the schema accepts: whole numbers, `x + w` ≤ 24. */
export function clampGrid(g: { x: number; y: number; w: number; h: number }): Grid {
  const w = Math.min(GRID_COLUMNS, Math.max(1, Math.round(g.w)));
  const x = Math.min(GRID_COLUMNS - w, Math.max(0, Math.round(g.x)));
  const y = Math.min(MAX_Y, Math.max(0, Math.round(g.y)));
  const h = Math.min(MAX_H, Math.max(1, Math.round(g.h)));
  return { x, y, w, h };
}

/**
 * Writes a grid layout back into the panels. Returns the same array when no position
 * changed, so an unchanged layout never marks the dashboard as modified.
 */
export function applyGridLayout<T extends Placed>(panels: T[], layout: readonly GridItem[]): T[] {
  const byId = new Map(layout.map((l) => [l.i, l]));
  let changed = false;
  const next = panels.map((p) => {
    const l = byId.get(p.id);
    if (!l) return p;
    const grid = clampGrid(l);
    if (grid.x === p.grid.x && grid.y === p.grid.y && grid.w === p.grid.w && grid.h === p.grid.h) return p;
    changed = true;
    return { ...p, grid };
  });
  return changed ? next : panels;
}

/** Where a new `w` × `h` panel goes: the first place from the top where it fits, else below all. */
export function nextPanelPosition(panels: readonly Placed[], w = 12, h = 8): Grid {
  const bottom = panels.reduce((m, p) => Math.max(m, p.grid.y + p.grid.h), 0);
  const overlaps = (x: number, y: number): boolean =>
    panels.some((p) => x < p.grid.x + p.grid.w && x + w > p.grid.x && y < p.grid.y + p.grid.h && y + h > p.grid.y);
  for (let y = 0; y < bottom; y += 1) {
    for (let x = 0; x + w <= GRID_COLUMNS; x += 1) {
      if (!overlaps(x, y)) return { x, y, w, h };
    }
  }
  return { x: 0, y: bottom, w, h };
}

/** An id not used yet by a panel or row, in rows too: `panel-1`, `panel-2`, … (`row-1` … with `prefix`). */
export function newPanelId(items: readonly DashboardItem[], prefix = "panel"): string {
  const all = everyItem(items);
  const used = new Set(all.map((p) => p.id));
  let n = all.filter((i) => i.id.startsWith(`${prefix}-`)).length + 1;
  while (used.has(`${prefix}-${n}`)) n += 1;
  return `${prefix}-${n}`;
}

/**
 * The keyboard alternative to dragging: moves one panel a cell in `direction` (or, with
 * `resize`, grows/shrinks it), pushing and compacting the others as a drag would. A step the
 * compaction would undo (up into a taller panel) continues until the layout changes.
 */
export function keyboardMove(
  panels: DashboardItem[],
  id: string,
  direction: "left" | "right" | "up" | "down",
  resize = false,
): DashboardItem[] {
  const [dx, dy] = { left: [-1, 0], right: [1, 0], up: [0, -1], down: [0, 1] }[direction];
  const start = panels.find((p) => p.id === id);
  // a row spans the width, one grid row high: it only moves
  if (!start || (resize && isRow(start))) return panels;
  for (let step = 1; step <= MAX_H; step += 1) {
    const layout: LayoutItem[] = toGridLayout(panels).map((l) => ({ ...l }));
    const item = layout.find((l) => l.i === id)!;
    let moved: LayoutItem[];
    if (resize) {
      item.w = Math.max(MIN_PANEL_W, Math.min(GRID_COLUMNS - item.x, item.w + dx * step));
      item.h = Math.max(MIN_PANEL_H, Math.min(MAX_H, item.h + dy * step));
      moved = layout;
    } else {
      const x = Math.max(0, Math.min(GRID_COLUMNS - item.w, item.x + dx * step));
      const y = Math.max(0, item.y + dy * step);
      moved = [...moveElement(layout, item, x, y, true, false, "vertical", GRID_COLUMNS)];
    }
    const next = applyGridLayout(panels, verticalCompactor.compact(moved, GRID_COLUMNS) as GridItem[]);
    const after = next.find((p) => p.id === id)!.grid;
    if (next !== panels && (after.x !== start.grid.x || after.y !== start.grid.y || resize)) return next;
    if (dx !== 0 || resize) return panels;
  }
  return panels;
}

/** Below this width (px) panels are shown one per row, full width, in reading order. */
export const NARROW_WIDTH = 720;

/** The one-column layout of narrow screens: panels top to bottom, left to right, full width. */
export function stackedLayout(panels: readonly Placed[]): GridItem[] {
  const ordered = [...panels].sort((a, b) => a.grid.y - b.grid.y || a.grid.x - b.grid.x);
  let y = 0;
  return ordered.map((p) => {
    const item = { i: p.id, x: 0, y, w: GRID_COLUMNS, h: p.grid.h };
    y += p.grid.h;
    return item;
  });
}
