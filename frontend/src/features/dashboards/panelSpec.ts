import { isTextPanel, type Panel, type QueryPanel } from "@/api/dashboards";

/** The visualisations the panel editor offers: every panel type of the schema. */
export const VISUALISATIONS = [
  { value: "timeseries", label: "Line" },
  { value: "area", label: "Area" },
  { value: "bar", label: "Bar" },
  { value: "heatmap", label: "Heatmap" },
  { value: "stat", label: "Stat" },
  { value: "gauge", label: "Gauge" },
  { value: "toplist", label: "Top list" },
  { value: "table", label: "Table" },
  { value: "text", label: "Text" },
] as const;

export type Visualisation = (typeof VISUALISATIONS)[number]["value"];
/** The visualisations of a query's result: every one but text. */
export type ChartVisualisation = Exclude<Visualisation, "text">;
export type PanelType = Panel["type"];

type Reducer = "last" | "first" | "avg" | "min" | "max" | "sum" | "count";

/**
 * The same panel as another visualisation. The schema refuses fields a type does not have
 * (a table has no `sparkline`), so only the shared fields are kept, plus the type's own
 * settings carried over where they mean the same thing (`stack`, `reduce`, a top list's
 * `limit` and `order`, a heatmap's `color_scheme`).
 *
 * A text panel has no query: `previous` gives back the queries and settings a panel had
 * before it was turned into text (the editor keeps them), else it starts with an empty query.
 */
export function changePanelType(current: Panel, type: ChartVisualisation, previous?: QueryPanel): QueryPanel;
export function changePanelType(current: Panel, type: Visualisation, previous?: QueryPanel): Panel;
export function changePanelType(current: Panel, type: Visualisation, previous?: QueryPanel): Panel {
  const shared = {
    id: current.id,
    title: current.title,
    description: current.description,
    grid: current.grid,
    repeat: current.repeat,
    repeat_direction: current.repeat_direction,
    max_per_row: current.max_per_row,
  };
  if (type === "text") return { ...shared, type, content: isTextPanel(current) ? current.content : "" };
  const panel: QueryPanel = isTextPanel(current)
    ? { ...(previous ?? newPanel(current.id, current.grid, "")), ...shared }
    : current;
  const base = {
    ...shared,
    queries: panel.queries,
    unit: panel.unit,
    decimals: panel.decimals,
    thresholds: panel.thresholds,
    legend: panel.legend,
  };
  const stack = "stack" in panel ? panel.stack : undefined;
  const reduce = "reduce" in panel && panel.reduce ? (panel.reduce as Reducer) : undefined;
  switch (type) {
    case "timeseries":
      return { ...base, type, stack, line_width: "line_width" in panel ? panel.line_width : undefined };
    case "area":
      return { ...base, type, stack, fill_opacity: "fill_opacity" in panel ? panel.fill_opacity : undefined };
    case "bar":
      return { ...base, type, stack };
    case "heatmap":
      return { ...base, type, color_scheme: "color_scheme" in panel ? panel.color_scheme : undefined };
    case "stat":
      return { ...base, type, reduce: reduce ?? "last", sparkline: "sparkline" in panel ? panel.sparkline : true };
    case "gauge":
      return {
        ...base,
        type,
        reduce: reduce ?? "last",
        min: "min" in panel ? panel.min : undefined,
        max: "max" in panel ? panel.max : undefined,
      };
    case "toplist":
      return {
        ...base,
        type,
        reduce: reduce ?? "last",
        limit: "limit" in panel ? panel.limit : undefined,
        order: "order" in panel ? panel.order : undefined,
      };
    case "table":
      return { ...base, type, reduce: reduce ?? null };
  }
}

/** Drops keys whose value is `undefined`, so the saved JSON stays as small as the schema's defaults. */
export function compactPanel<T extends Panel>(panel: T): T {
  return Object.fromEntries(Object.entries(panel).filter(([, v]) => v !== undefined)) as T;
}

/** A new line panel at `grid` querying `query`. */
export function newPanel(id: string, grid: Panel["grid"], query: string): QueryPanel {
  return {
    id,
    type: "timeseries",
    title: "New panel",
    grid,
    queries: [{ ref_id: "A", query }],
    unit: "none",
    legend: { show: true, position: "bottom", values: [] },
  };
}

/** The visualisation a stored panel is edited as (line for a type this version does not know). */
export function visualisationOf(panel: Panel): Visualisation {
  return VISUALISATIONS.some((v) => v.value === panel.type) ? (panel.type as Visualisation) : "timeseries";
}
