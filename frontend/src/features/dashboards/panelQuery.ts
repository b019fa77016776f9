import { queryOptions, type QueryClient } from "@tanstack/react-query";
import { isQueryError, queryEach, queryRawBatched, refusedQuery, type QueryOutcome } from "@/features/explore/api";
import type { DqlQuery, DqlResult } from "@/features/explore/dql";
import type { ApiError } from "@/lib/apiError";
import { effectiveRefresh } from "@/lib/refresh";
import { DEFAULT_TIME_RANGE, resolveTimeRange, type TimeRangeSpec } from "@/lib/time";
import { everyPanel, isRow, isTextPanel, type DashboardSpec, type QueryPanel } from "./api";
import type { PanelCompare } from "./panelOption";
import { dashboardGrid } from "./repeat";
import { effectiveTimeShift, parseTimeShift, shiftRange, timeShiftSuffix } from "./timeShift";
import { interpolateVariables, referencedVariables, variablesFromSearch } from "./variables";

/** Buckets a panel asks for at most: longer ranges widen the query's interval instead of failing. */
export const PANEL_MAX_POINTS = 720;

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

export interface PanelData {
  result: DqlResult;
  range: [number, number];
  compare?: PanelCompare;
  /** How many of the result's series each visible query gave, in order. */
  perQuery?: number[];
  /** The visible queries the storage refused (by their place), while the others drew. */
  refused?: { index: number; error: ApiError }[];
}

/**
 * A panel's queries (`visible` of them, over one or two ranges) in one request. The storage
 * refuses a whole request for one bad query: then each query's own outcome is asked for
 * (`queryEach`), so the others still draw and the bad ones are named. When every query is
 * refused, the first one's error is the panel's.
 */
async function runPanelQueries(
  workspaceId: string,
  flat: DqlQuery[],
  visible: number,
  signal?: AbortSignal,
): Promise<{ content: DqlResult[]; refused?: { index: number; error: ApiError }[] }> {
  try {
    return { content: (await queryRawBatched(workspaceId, { queries: flat }, signal)).content };
  } catch (err) {
    if (visible < 2 || !isQueryError(err)) throw err;
    // the query the error names is known refused: the others are asked again without it
    const named = refusedQuery(err, flat.length);
    const others = flat.filter((_, i) => i !== named?.index);
    const outcomes: QueryOutcome[] = named ? await queryEach(workspaceId, others, signal) : await queryEach(workspaceId, flat, signal);
    if (named) outcomes.splice(named.index, 0, { error: named.error });
    const refused = new Map<number, ApiError>();
    outcomes.forEach((o, i) => {
      if (o.error && !refused.has(i % visible)) refused.set(i % visible, o.error);
    });
    if (refused.size === visible) throw err;
    return {
      content: outcomes.map((o) => o.result ?? { series: [] }),
      refused: [...refused].sort(([a], [b]) => a - b).map(([index, error]) => ({ index, error })),
    };
  }
}

/**
 * A panel's data as Inspect and Download CSV give it: the present series, then, with a
 * comparison, the past ones named as the legend names them (`cpu (1d ago)`), at the times
 * they were measured.
 */
export function inspectedResult(data: PanelData): DqlResult {
  if (!data.compare) return data.result;
  const suffix = timeShiftSuffix(data.compare.shift);
  return {
    series: [...data.result.series, ...data.compare.result.series.map((s) => ({ ...s, name: `${s.name} (${suffix})` }))],
  };
}

/** Whether the panel draws its series over time (a stat, a gauge or a table does not). */
export function isChart(type: QueryPanel["type"]): boolean {
  return type !== "stat" && type !== "gauge" && type !== "table";
}

/**
 * Whether a comparison draws past series on the panel: line, area and bar charts do; a top
 * list (one value per series, ranked) and a heatmap (one row per series) have nowhere to draw
 * them, so they do not ask for them.
 */
export function comparesWithPast(type: QueryPanel["type"]): boolean {
  return isChart(type) && type !== "toplist" && type !== "heatmap";
}

/** The start of every panel query's key in a workspace: what a dashboard refresh refetches. */
export function panelQueryPrefix(workspaceId: string): unknown[] {
  return ["dql-panel", workspaceId];
}

export interface VisibleQuery {
  refId: string;
  /** The query as sent: the variables filled in. */
  query: string;
  /** How its series are named (`{{host}}`), when the panel says. */
  legend?: string;
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
    }));
}

/**
 * The legend format of each series of a result (`toChartSeries`' `legends`), from the
 * queries that gave them and how many each gave; undefined when no query has one.
 */
export function seriesLegends(queries: readonly VisibleQuery[], perQuery: readonly number[] | undefined): (string | undefined)[] | undefined {
  if (!perQuery || !queries.some((q) => q.legend)) return undefined;
  return queries.flatMap((q, i) => Array<string | undefined>(perQuery[i] ?? 0).fill(q.legend));
}

/** A panel's queries as sent: the visible ones, with the variables filled in. */
export function panelQueries(panel: QueryPanel, variables: Record<string, string[]>): string[] {
  return visibleQueries(panel, variables).map((q) => q.query);
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
  const queries = panelQueries(panel, variables);
  const waiting = awaitsVariable(panel, pending);
  const shiftMs = comparesWithPast(panel.type) ? parseTimeShift(compare) : undefined;
  return queryOptions({
    queryKey: [...panelQueryPrefix(workspaceId), queries, timeRange.from, timeRange.to, shiftMs ?? 0],
    queryFn: async ({ signal }): Promise<PanelData> => {
      // a relative range is resolved when the request goes out
      const range = resolveTimeRange(timeRange);
      const ranges = shiftMs ? [range, shiftRange(range, shiftMs)] : [range];
      const flat = ranges.flatMap((r) => queries.map((query) => ({ query, time_range: r, max_point: PANEL_MAX_POINTS })));
      const { content, refused } = await runPanelQueries(workspaceId, flat, queries.length, signal);
      const contents = (i: number) => content.slice(i * queries.length, (i + 1) * queries.length);
      const part = (i: number): DqlResult => ({ series: contents(i).flatMap((c) => c.series) });
      const perQuery = (i: number): number[] => contents(i).map((c) => c.series.length);
      return {
        result: part(0),
        range,
        perQuery: perQuery(0),
        refused,
        compare: shiftMs && compare ? { result: part(1), shiftMs, shift: compare, perQuery: perQuery(1) } : undefined,
      };
    },
    enabled: queries.length > 0 && !waiting,
    // Fresh for a moment: what the router asked for while the page's code loaded is what the
    // panel shows, not asked for a second time when it mounts.
    staleTime: 10_000,
    retry: false,
  });
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
