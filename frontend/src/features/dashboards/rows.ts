import { isRow, type DashboardItem, type Panel, type RowPanel } from "@/api/dashboards";
import { GRID_COLUMNS } from "./layout";

/**
 * Rows: collapsible headings that group the panels below them, as in Grafana.
 *
 * The panels after a row (by `grid.y`) up to the next row belong to it. An expanded row's
 * panels are on the grid like any other; collapsing moves them into the row (`panels`, their
 * positions kept) and lifts what is below by the height they took. Expanding puts them back
 * under the row and pushes what is below down again. A collapsed row's panels are neither
 * drawn nor asked for their data.
 */

/** Items in reading order: by row of the grid, a row's heading before what shares its line, then left to right. */
function readingOrder(items: readonly DashboardItem[]): DashboardItem[] {
  return [...items].sort(
    (a, b) => a.grid.y - b.grid.y || Number(isRow(b)) - Number(isRow(a)) || a.grid.x - b.grid.x,
  );
}

/** The panels on the grid that belong to the row `rowId` (those below it, up to the next row). */
export function rowMembers(items: readonly DashboardItem[], rowId: string): Panel[] {
  const ordered = readingOrder(items);
  const start = ordered.findIndex((i) => i.id === rowId);
  if (start < 0) return [];
  const out: Panel[] = [];
  for (const item of ordered.slice(start + 1)) {
    if (isRow(item)) break;
    out.push(item);
  }
  return out;
}

/** How many panels a row groups: those inside it when collapsed, else those below it. */
export function rowPanelCount(items: readonly DashboardItem[], row: RowPanel): number {
  return row.collapsed ? (row.panels ?? []).length : rowMembers(items, row.id).length;
}

/** The grid rows `panels` take below `top` (0 when none). */
function heightBelow(panels: readonly Panel[], top: number): number {
  return Math.max(0, ...panels.map((p) => p.grid.y + p.grid.h - top));
}

/** Collapses the row `rowId`: its panels go into it and what is below moves up by their height. */
export function collapseRow(items: readonly DashboardItem[], rowId: string): DashboardItem[] {
  const row = items.find((i): i is RowPanel => i.id === rowId && isRow(i));
  if (!row || row.collapsed) return [...items];
  const members = rowMembers(items, rowId);
  const inside = new Set(members.map((p) => p.id));
  const top = row.grid.y + row.grid.h;
  const lift = heightBelow(members, top);
  // what follows the row's panels in reading order: the next rows and everything under them
  const ordered = readingOrder(items);
  const below = new Set(ordered.slice(ordered.indexOf(row) + 1 + members.length).map((i) => i.id));
  return items
    .filter((i) => !inside.has(i.id))
    .map((i) => {
      if (i.id === rowId) return { ...row, collapsed: true, panels: members };
      return below.has(i.id) ? { ...i, grid: { ...i.grid, y: Math.max(0, i.grid.y - lift) } } : i;
    });
}

/** Expands the row `rowId`: its panels come back right under it and what is below moves down. */
export function expandRow(items: readonly DashboardItem[], rowId: string): DashboardItem[] {
  const row = items.find((i): i is RowPanel => i.id === rowId && isRow(i));
  if (!row || !row.collapsed) return [...items];
  const inner = row.panels ?? [];
  const top = row.grid.y + row.grid.h;
  // the row may have moved since it was collapsed: its panels keep their places relative to it
  const offset = inner.length ? top - Math.min(...inner.map((p) => p.grid.y)) : 0;
  const placed = inner.map((p) => ({ ...p, grid: { ...p.grid, y: p.grid.y + offset } }));
  const push = heightBelow(placed, top);
  const out: DashboardItem[] = [];
  for (const i of items) {
    if (i.id === rowId) {
      out.push({ ...row, collapsed: false, panels: [] }, ...placed);
    } else if (i.grid.y > row.grid.y) {
      out.push({ ...i, grid: { ...i.grid, y: i.grid.y + push } });
    } else {
      out.push(i);
    }
  }
  return out;
}

/** Collapses an expanded row, expands a collapsed one. */
export function toggleRow(items: readonly DashboardItem[], rowId: string): DashboardItem[] {
  const row = items.find((i) => i.id === rowId);
  if (!row || !isRow(row)) return [...items];
  return row.collapsed ? expandRow(items, rowId) : collapseRow(items, rowId);
}

/**
 * The items with each row of `collapsed` (row id → collapsed) as it says: how one person has
 * folded the rows while looking, over what the dashboard saved. Rows are set top to bottom.
 */
export function withRowsFolded(items: readonly DashboardItem[], collapsed: Readonly<Record<string, boolean>>): DashboardItem[] {
  let out: DashboardItem[] = [...items];
  const rows = readingOrder(items).filter(isRow);
  for (const row of rows) {
    const want = collapsed[row.id];
    const now = out.find((i) => i.id === row.id);
    if (want === undefined || !now || !isRow(now) || Boolean(now.collapsed) === want) continue;
    out = toggleRow(out, row.id);
  }
  return out;
}

/**
 * `items` with a new row at the top, everything else one grid row lower, as Grafana adds
 * them: the first row groups the whole dashboard; a later one is dragged to its place.
 */
export function withNewRow(items: readonly DashboardItem[], id: string, title = "Row title"): DashboardItem[] {
  const row: RowPanel = { id, type: "row", title, collapsed: false, panels: [], grid: { x: 0, y: 0, w: GRID_COLUMNS, h: 1 } };
  return [row, ...items.map((i) => ({ ...i, grid: { ...i.grid, y: i.grid.y + 1 } }))];
}

/**
 * Removes the row `rowId`. An expanded row's panels stay on the dashboard (they join the
 * row above, if any); a collapsed row's go with it.
 */
export function removeRow(items: readonly DashboardItem[], rowId: string): DashboardItem[] {
  return items.filter((i) => i.id !== rowId);
}

/** `items` with the panel of `panel`'s id replaced by it, on the grid or inside a collapsed row. */
export function replacePanel(items: readonly DashboardItem[], panel: Panel): DashboardItem[] {
  return items.map((i) => {
    if (i.id === panel.id) return panel;
    if (isRow(i) && i.panels?.some((p) => p.id === panel.id)) {
      return { ...i, panels: i.panels.map((p) => (p.id === panel.id ? panel : p)) };
    }
    return i;
  });
}
