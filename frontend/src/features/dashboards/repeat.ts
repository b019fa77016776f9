import { isRow, type DashboardItem, type Panel } from "./api";
import { GRID_COLUMNS, MIN_PANEL_W } from "./layout";

/**
 * Repeated panels, as in Grafana: a panel with `repeat: "host"` is drawn once per value of
 * `$host` (the selected ones; every one when none or All is selected), each copy with the
 * variable set to its value. The copies are laid out side by side, `max_per_row` to a line
 * (`repeat_direction: "h"`), or one under another (`"v"`); what is below moves down to make room.
 * The first copy keeps the panel's id, the others are `<id>@<value>`.
 */

export interface RepeatedItems {
  /** The items to draw: each repeated panel replaced by its copies. */
  items: DashboardItem[];
  /** The variables of each copy that differ from the dashboard's (copy id → name → values). */
  scope: Map<string, Record<string, string[]>>;
  /** Repeated panels whose variable's values are not known yet: they wait for them. */
  waiting: Map<string, string>;
}

/** The id of the panel a copy was made from (`cpu@web-2` → `cpu`). */
export function sourcePanelId(id: string): string {
  const at = id.indexOf("@");
  return at < 0 ? id : id.slice(0, at);
}

/**
 * The values a panel repeated for `name` is drawn for: the selected ones, else every option
 * (undefined while the options are not known).
 */
export function repeatValues(selected: readonly string[] | undefined, options: readonly string[] | undefined): string[] | undefined {
  const list = selected?.length ? selected : options;
  return list ? [...new Set(list)] : undefined;
}

/** The copies' positions: `n` of them from the panel's place, across or down. */
function copyGrids(panel: Panel, n: number): Panel["grid"][] {
  const g = panel.grid;
  if (panel.repeat_direction === "v") return Array.from({ length: n }, (_, i) => ({ ...g, y: g.y + i * g.h }));
  const perRow = Math.max(1, Math.min(n, panel.max_per_row ?? 4));
  const w = Math.max(MIN_PANEL_W, Math.floor(GRID_COLUMNS / perRow));
  return Array.from({ length: n }, (_, i) => ({
    x: Math.min(GRID_COLUMNS - w, (i % perRow) * w),
    y: g.y + Math.floor(i / perRow) * g.h,
    w,
    h: g.h,
  }));
}

function overlapsX(a: Panel["grid"], x0: number, x1: number): boolean {
  return a.x < x1 && a.x + a.w > x0;
}

/**
 * Replaces each repeated panel of `items` by its copies, for the dashboard's selected
 * `values` and the variables' known `options` (name → every value).
 */
export function expandRepeats(
  items: readonly DashboardItem[],
  values: Readonly<Record<string, string[]>>,
  options: Readonly<Record<string, readonly string[] | undefined>>,
): RepeatedItems {
  const scope = new Map<string, Record<string, string[]>>();
  const waiting = new Map<string, string>();
  let out: DashboardItem[] = [...items];
  const repeated = [...items]
    .filter((i): i is Panel => !isRow(i) && !!i.repeat)
    .sort((a, b) => a.grid.y - b.grid.y || a.grid.x - b.grid.x);
  for (const source of repeated) {
    const name = source.repeat!;
    const list = repeatValues(values[name], options[name]);
    if (list === undefined) {
      waiting.set(source.id, name);
      continue;
    }
    if (list.length === 0) continue;
    const panel = out.find((i) => i.id === source.id) as Panel;
    const grids = copyGrids(panel, list.length);
    const copies: Panel[] = list.map((value, i) => {
      const id = i === 0 ? panel.id : `${panel.id}@${value}`;
      scope.set(id, { [name]: [value] });
      return { ...panel, id, grid: grids[i] };
    });
    const top = panel.grid.y;
    const bottom = panel.grid.y + panel.grid.h;
    const blockBottom = Math.max(...grids.map((g) => g.y + g.h));
    const x0 = Math.min(...grids.map((g) => g.x));
    const x1 = Math.max(...grids.map((g) => g.x + g.w));
    const next: DashboardItem[] = [];
    for (const item of out) {
      if (item.id === panel.id) {
        next.push(...copies);
      } else if (item.grid.y >= bottom) {
        // below the panel: down by the height the copies add
        next.push({ ...item, grid: { ...item.grid, y: item.grid.y + blockBottom - bottom } });
      } else if (item.grid.y >= top && overlapsX(item.grid, x0, x1)) {
        // beside the panel where the copies now are: under them
        next.push({ ...item, grid: { ...item.grid, y: item.grid.y - top + blockBottom } });
      } else {
        next.push(item);
      }
    }
    out = next;
  }
  return { items: out, scope, waiting };
}

/**
 * While the layout is edited a repeated panel is drawn once, as its first copy: the variable
 * set to its first value (its values unknown yet, it waits for them).
 */
export function firstCopies(
  items: readonly DashboardItem[],
  values: Readonly<Record<string, string[]>>,
  options: Readonly<Record<string, readonly string[] | undefined>>,
): RepeatedItems {
  const scope = new Map<string, Record<string, string[]>>();
  const waiting = new Map<string, string>();
  for (const item of items) {
    if (isRow(item) || !item.repeat) continue;
    const list = repeatValues(values[item.repeat], options[item.repeat]);
    if (list === undefined) waiting.set(item.id, item.repeat);
    else if (list.length > 0) scope.set(item.id, { [item.repeat]: [list[0]] });
  }
  return { items: [...items], scope, waiting };
}
