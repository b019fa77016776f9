import { queryOptions } from "@tanstack/react-query";
import type { QueryPanel } from "@/api/dashboards";
import { isQueryError, queryEach, queryRawBatched, refusedQuery, type QueryOutcome } from "@/api/query";
import type { ApiError } from "@/lib/apiError";
import type { DqlQuery, DqlResult } from "@/lib/dql/dql";
import { toDqlQuery, type LanguageQuery } from "@/lib/dql/promql";
import { resolveTimeRange, type TimeRangeSpec } from "@/lib/time";
import { parseTimeShift, shiftRange, timeShiftSuffix } from "@/lib/timeShift";
import type { PanelCompare } from "./panelOption";

/*
 * A panel's data: its DQL and PromQL queries over a time range (and, for a chart over time with a
 * comparison, over the same range shifted into the past), asked for together with every other
 * panel's in one request. What a dashboard panel, a panel editor's preview or any other chart
 * of queries asks for.
 */

/** Buckets a panel asks for at most: longer ranges widen the query's interval instead of failing. */
export const PANEL_MAX_POINTS = 720;

export interface PanelData {
  result: DqlResult;
  range: [number, number];
  compare?: PanelCompare;
  /** How many of the result's series each visible query gave, in order. */
  perQuery?: number[];
  /** The visible queries the storage refused (by their place), while the others drew. */
  refused?: { index: number; error: ApiError }[];
}

/** The start of every panel query's key in a workspace: what a dashboard refresh refetches. */
export function panelQueryPrefix(workspaceId: string): unknown[] {
  return ["dql-panel", workspaceId];
}

export interface VisibleQuery extends LanguageQuery {
  refId: string;
  /** The query as sent: the variables filled in. */
  query: string;
  /** How its series are named (`{{host}}`), when the panel says. */
  legend?: string;
}

/** Whether the panel draws its series over time (a stat, a gauge or a table does not). */
export function isChart(type: QueryPanel["type"]): boolean {
  return type !== "stat" && type !== "gauge" && type !== "table";
}

/** Whether the panel draws lines, areas or bars over a time axis: what alert marks go on. */
export function drawsOverTime(type: QueryPanel["type"]): boolean {
  return isChart(type) && type !== "toplist" && type !== "heatmap";
}

/**
 * Whether a comparison draws past series on the panel: line, area and bar charts do; a top
 * list (one value per series, ranked) and a heatmap (one row per series) have nowhere to draw
 * them, so they do not ask for them.
 */
export function comparesWithPast(type: QueryPanel["type"]): boolean {
  return isChart(type) && type !== "toplist" && type !== "heatmap";
}

/**
 * The legend format of each series of a result (`toChartSeries`' `legends`), from the
 * queries that gave them and how many each gave; undefined when no query has one.
 */
export function seriesLegends(queries: readonly VisibleQuery[], perQuery: readonly number[] | undefined): (string | undefined)[] | undefined {
  if (!perQuery || !queries.some((q) => q.legend)) return undefined;
  return queries.flatMap((q, i) => Array<string | undefined>(perQuery[i] ?? 0).fill(q.legend));
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

/**
 * The data of one panel of `type`: `queries` (as sent: variables filled in; DQL or PromQL,
 * `toDqlQuery`) over the time range, and over the shifted range when the panel is a chart over time and `compare` is on,
 * sent together with every other panel's. Shared by the panel and the router, which asks for
 * it as soon as a dashboard is known. A relative range is resolved when the request goes out,
 * so each refresh moves it forward. `enabled: false` holds the request (a variable without a
 * value yet).
 */
export function panelDataQuery(
  workspaceId: string,
  type: QueryPanel["type"],
  queries: readonly LanguageQuery[],
  timeRange: TimeRangeSpec,
  compare?: string,
  enabled = true,
) {
  const shiftMs = comparesWithPast(type) ? parseTimeShift(compare) : undefined;
  return queryOptions({
    queryKey: [
      ...panelQueryPrefix(workspaceId),
      queries.map((q) => [q.query, q.language ?? "dql", q.min_step ?? ""]),
      timeRange.from,
      timeRange.to,
      shiftMs ?? 0,
    ],
    queryFn: async ({ signal }): Promise<PanelData> => {
      // a relative range is resolved when the request goes out
      const range = resolveTimeRange(timeRange);
      const ranges = shiftMs ? [range, shiftRange(range, shiftMs)] : [range];
      const flat = ranges.flatMap((r) => queries.map((q) => toDqlQuery(q, r, PANEL_MAX_POINTS)));
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
    enabled: queries.length > 0 && enabled,
    // Fresh for a moment: what the router asked for while the page's code loaded is what the
    // panel shows, not asked for a second time when it mounts.
    staleTime: 10_000,
    retry: false,
  });
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
