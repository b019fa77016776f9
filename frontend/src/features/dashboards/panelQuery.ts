import type { QueryClient } from "@tanstack/react-query";
import { everyPanel, isRow, isTextPanel, type DashboardSpec, type QueryPanel } from "@/api/dashboards";
import { panelDataQuery, type VisibleQuery } from "@/components/panels/panelData";
import { effectiveRefresh } from "@/lib/refresh";
import { DEFAULT_TIME_RANGE, type TimeRangeSpec } from "@/lib/time";
import { effectiveTimeShift } from "@/lib/timeShift";
import { dashboardGrid } from "./repeat";
import { interpolateVariables, referencedVariables, variablesFromSearch } from "./variables";

/**
 * What a dashboard shows, from its URL (`from`, `to`, `var-<name>`, `compare`, `refresh`,
 * `viewPanel`) over its saved defaults.
 */
export interface DashboardView {
  range: TimeRangeSpec;
  /** The time shift drawn beside the data ("" = none). */
  compare: string;
  /** How often every panel is asked again (`30s`; "" = never). */
  refresh: string;
  /** Selected values of each variable of the dashboard (empty = all). */
  values: Record<string, string[]>;
  /**
   * Variables that need a value and have none yet: single-value ones without "All", until
   * the picker takes the first of their values. Panels that use one wait for it, instead of
   * asking with `.*`, which an exact filter (`{host = '$host'}`) never matches.
   */
  pending: string[];
  /** The panel shown alone, over the whole page (`viewPanel`; "" = the whole dashboard). */
  viewPanel: string;
}

export function dashboardView(spec: DashboardSpec | undefined, params: URLSearchParams): DashboardView {
  const fromUrl = variablesFromSearch(params);
  const values: Record<string, string[]> = {};
  const pending: string[] = [];
  for (const v of spec?.variables ?? []) {
    values[v.name] = fromUrl[v.name] ?? v.default ?? [];
    if (values[v.name].length === 0 && !v.multi && !v.include_all) pending.push(v.name);
  }
  return {
    range: {
      from: params.get("from") ?? spec?.time?.from ?? DEFAULT_TIME_RANGE.from,
      to: params.get("to") ?? spec?.time?.to ?? DEFAULT_TIME_RANGE.to,
    },
    // The URL's `compare` (`off` = none) overrides the comparison the dashboard saved.
    compare: effectiveTimeShift(params.get("compare"), spec?.time_shift),
    // The same for `refresh` (`off` = none) over the saved auto refresh.
    refresh: effectiveRefresh(params.get("refresh"), spec?.refresh),
    values,
    pending,
    viewPanel: params.get("viewPanel") ?? "",
  };
}

/** A panel's visible queries, each with its reference (`A`, `B` …) and the variables filled in. */
export function visibleQueries(panel: QueryPanel, variables: Record<string, string[]>): VisibleQuery[] {
  return panel.queries
    .map((q, i) => ({ q, refId: q.ref_id ?? String.fromCharCode(65 + i) }))
    .filter(({ q }) => !q.hidden)
    .map(({ q, refId }) => ({
      refId,
      query: interpolateVariables(q.query, variables),
      legend: q.legend_format?.trim() || undefined,
      ...(q.language === "promql" ? { language: "promql", min_step: q.min_step ?? undefined } : {}),
    }));
}

/** Whether a visible query of `panel` uses one of the `pending` variables. */
export function awaitsVariable(panel: QueryPanel, pending: readonly string[] | undefined): boolean {
  if (!pending?.length) return false;
  return panel.queries.some((q) => !q.hidden && pending.some((name) => referencedVariables(q.query).has(name)));
}

/**
 * The data of one panel: its queries over the time range (and over the shifted range when the
 * panel is a chart over time and a comparison is on), sent together with every other panel's.
 * Shared by the panel and the router, which asks for it as soon as the dashboard is known.
 * A relative range is resolved when the request goes out, so each refresh
 * (`useDashboardRefresh`) moves it forward.
 */
export function panelQuery(
  workspaceId: string,
  panel: QueryPanel,
  timeRange: TimeRangeSpec,
  variables: Record<string, string[]>,
  compare?: string,
  pending?: readonly string[],
) {
  const queries = visibleQueries(panel, variables);
  return panelDataQuery(workspaceId, panel.type, queries, timeRange, compare, !awaitsVariable(panel, pending));
}

/**
 * Asks for every drawn panel's data of a dashboard opened at `params`, in one request; only
 * the viewed panel's when the link shows one panel (`viewPanel`). Panels in collapsed rows are
 * not drawn, so not asked for; a repeated panel is asked for once per value the link selects
 * (one repeated for every value waits for the values, which the page asks for).
 */
export function prefetchPanels(
  client: QueryClient,
  workspaceId: string,
  spec: DashboardSpec,
  params: URLSearchParams,
): void {
  const view = dashboardView(spec, params);
  const { items, scope, waiting } = dashboardGrid(spec.panels ?? [], view.values, {});
  const drawn = items.filter((i) => !isRow(i));
  const viewed = view.viewPanel
    ? [...drawn, ...everyPanel(spec.panels ?? [])].filter((p) => p.id === view.viewPanel).slice(0, 1)
    : [];
  for (const panel of viewed.length ? viewed : drawn) {
    if (isRow(panel) || isTextPanel(panel) || waiting.has(panel.id)) continue;
    const variables = { ...view.values, ...scope.get(panel.id) };
    const options = panelQuery(workspaceId, panel, view.range, variables, view.compare, view.pending);
    if (options.enabled) void client.prefetchQuery(options);
  }
}
