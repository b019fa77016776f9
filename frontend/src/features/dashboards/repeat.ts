import { isRow, type DashboardItem, type Panel, type RowPanel } from "@/api/dashboards";
import { GRID_COLUMNS, MIN_PANEL_W } from "./layout";
import { rowMembers, withRowsFolded } from "./rows";

/**
 * Repeated panels and rows, as in Grafana: a panel with `repeat: "host"` is drawn once per value of
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

/** The values the item `id` is drawn with: the dashboard's, with what its copy sets over them. */
function valuesOf(
  values: Readonly<Record<string, string[]>>,
  scope: ReadonlyMap<string, Record<string, string[]>>,
  id: string,
): Record<string, string[]> {
  const own = scope.get(id);
  return own ? { ...values, ...own } : { ...values };
}

/**
 * Replaces each repeated panel of `items` by its copies, for the dashboard's selected
 * `values` and the variables' known `options` (name → every value). `base` holds what an
 * earlier step set: the variables of the panels of a repeated row's copies.
 */
export function expandRepeats(
  items: readonly DashboardItem[],
  values: Readonly<Record<string, string[]>>,
  options: Readonly<Record<string, readonly string[] | undefined>>,
  base?: RepeatedItems,
): RepeatedItems {
  const scope = new Map(base?.scope);
  const waiting = new Map(base?.waiting);
  let out: DashboardItem[] = [...items];
  const repeated = [...items]
    .filter((i): i is Panel => !isRow(i) && !!i.repeat)
    .sort((a, b) => a.grid.y - b.grid.y || a.grid.x - b.grid.x);
  for (const source of repeated) {
    const name = source.repeat!;
    const own = valuesOf(values, scope, source.id);
    const list = repeatValues(own[name], options[name]);
    if (list === undefined) {
      waiting.set(source.id, name);
      continue;
    }
    if (list.length === 0) continue;
    const panel = out.find((i) => i.id === source.id) as Panel;
    const grids = copyGrids(panel, list.length);
    const inherited = scope.get(panel.id);
    const copies: Panel[] = list.map((value, i) => {
      const id = i === 0 ? panel.id : `${panel.id}@${value}`;
      scope.set(id, { ...inherited, [name]: [value] });
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
 * Replaces each repeated row of `items` by its copies, one under another, each with its
 * panels (on the grid under an open row, inside a folded one), all of them with the variable
 * set to the copy's value. The first copy keeps the ids; the others' are `<id>@<value>`.
 */
export function expandRowRepeats(
  items: readonly DashboardItem[],
  values: Readonly<Record<string, string[]>>,
  options: Readonly<Record<string, readonly string[] | undefined>>,
): RepeatedItems {
  const scope = new Map<string, Record<string, string[]>>();
  const waiting = new Map<string, string>();
  let out: DashboardItem[] = [...items];
  const repeated = items.filter((i): i is RowPanel => isRow(i) && !!i.repeat).sort((a, b) => a.grid.y - b.grid.y);
  for (const source of repeated) {
    const name = source.repeat!;
    const row = out.find((i) => i.id === source.id) as RowPanel;
    const members = row.collapsed ? [] : rowMembers(out, row.id);
    const inside = row.panels ?? [];
    const list = repeatValues(values[name], options[name]);
    if (list === undefined) {
      for (const p of [row, ...members, ...inside]) waiting.set(p.id, name);
      continue;
    }
    if (list.length === 0) continue;
    const height = Math.max(row.grid.y + row.grid.h, ...members.map((m) => m.grid.y + m.grid.h)) - row.grid.y;
    const section = new Set([row.id, ...members.map((m) => m.id)]);
    const copy = <T extends DashboardItem>(item: T, value: string, i: number): T => {
      const id = i === 0 ? item.id : `${item.id}@${value}`;
      scope.set(id, { [name]: [value] });
      return { ...item, id, grid: { ...item.grid, y: item.grid.y + i * height } };
    };
    const copies = list.flatMap((value, i) => [
      { ...copy(row, value, i), panels: inside.map((p) => ({ ...copy(p, value, i), grid: p.grid })) },
      ...members.map((m) => copy(m, value, i)),
    ]);
    const added = (list.length - 1) * height;
    const bottom = row.grid.y + height;
    out = out.flatMap((item) => {
      if (item.id === row.id) return copies;
      if (section.has(item.id)) return [];
      return item.grid.y >= bottom ? [{ ...item, grid: { ...item.grid, y: item.grid.y + added } }] : [item];
    });
  }
  return { items: out, scope, waiting };
}

/**
 * What a dashboard's grid draws outside edit mode: repeated rows as their copies, rows as one
 * person folded them (row id → collapsed) over what was saved, then repeated panels as theirs.
 */
export function dashboardGrid(
  items: readonly DashboardItem[],
  values: Readonly<Record<string, string[]>>,
  options: Readonly<Record<string, readonly string[] | undefined>>,
  folded: Readonly<Record<string, boolean>> = {},
): RepeatedItems {
  const rows = expandRowRepeats(items, values, options);
  return expandRepeats(withRowsFolded(rows.items, folded), values, options, rows);
}

/**
 * While the layout is edited a repeated panel or row is drawn once, as its first copy: the
 * variable set to its first value (its values unknown yet, it waits for them). A row's
 * panels are drawn with the row's value.
 */
export function firstCopies(
  items: readonly DashboardItem[],
  values: Readonly<Record<string, string[]>>,
  options: Readonly<Record<string, readonly string[] | undefined>>,
): RepeatedItems {
  const scope = new Map<string, Record<string, string[]>>();
  const waiting = new Map<string, string>();
  const first = (ids: readonly string[], name: string, own: Record<string, string[]> = {}): void => {
    const list = repeatValues({ ...values, ...own }[name], options[name]);
    for (const id of ids) {
      if (list === undefined) waiting.set(id, name);
      else if (list.length > 0) scope.set(id, { ...scope.get(id), [name]: [list[0]] });
    }
  };
  for (const item of items) {
    if (isRow(item) && item.repeat) {
      const members = item.collapsed ? (item.panels ?? []) : rowMembers(items, item.id);
      first([item.id, ...members.map((m) => m.id)], item.repeat);
    }
  }
  for (const item of items) {
    if (!isRow(item) && item.repeat) first([item.id], item.repeat, scope.get(item.id));
  }
  return { items: [...items], scope, waiting };
}
