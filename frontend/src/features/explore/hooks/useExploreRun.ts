import { keepPreviousData, useQuery, type UseQueryResult } from "@tanstack/react-query";
import { queryEach, type QueryOutcome } from "@/api/query";
import { PANEL_MAX_POINTS } from "@/components/panels/panelData";
import { languageOf, toDqlQuery, type QueryLanguage } from "@/lib/dql/promql";
import { resolveTimeRange, type TimeRangeSpec } from "@/lib/time";

/** A query Explore runs: its reference, its text and its language. */
export interface RunQuery {
  ref: string;
  query: string;
  language?: QueryLanguage;
}

/** What the last run said about one query: its result, or the DQL error it alone caused. */
export type QueryAnswer = RunQuery & QueryOutcome;

export interface ExploreRun {
  /** One answer per query run, in their order. */
  answers: QueryAnswer[];
  /** The absolute range the queries ran over. */
  range: [number, number];
}

export interface ExploreRunInput {
  workspaceId: string;
  /** The visible, non-empty queries. */
  queries: readonly RunQuery[];
  timeRange: TimeRangeSpec;
  /** Re-run every n ms (auto refresh); off when undefined or 0. */
  refreshMs?: number;
}

/**
 * Runs Explore's queries together over a time range (`queryEach`: one request, each query
 * with its own result or error). A relative range is resolved when the request is sent, so a
 * refresh moves the window forward. While new answers come, the previous ones stay shown.
 */
/**
 * The request for one of Explore's queries: DQL as written (its own interval, or the
 * storage's default), PromQL over the range in at most as many points as a panel draws.
 */
function explored(q: RunQuery, range: [number, number]) {
  return languageOf(q) === "promql" ? toDqlQuery(q, range, PANEL_MAX_POINTS) : { query: q.query, time_range: range };
}

export function useExploreRun({ workspaceId, queries, timeRange, refreshMs }: ExploreRunInput): UseQueryResult<ExploreRun> {
  return useQuery({
    queryKey: ["dql", workspaceId, queries.map((q) => [q.ref, q.query, languageOf(q)]), timeRange.from, timeRange.to],
    queryFn: async ({ signal }): Promise<ExploreRun> => {
      const range = resolveTimeRange(timeRange);
      const outcomes = await queryEach(
        workspaceId,
        queries.map((q) => explored(q, range)),
        signal,
      );
      return { answers: queries.map((q, i) => ({ ...q, ...outcomes[i] })), range };
    },
    enabled: queries.length > 0,
    placeholderData: keepPreviousData,
    refetchInterval: refreshMs && refreshMs > 0 ? refreshMs : false,
    retry: false,
  });
}
