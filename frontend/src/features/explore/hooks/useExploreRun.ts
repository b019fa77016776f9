import { keepPreviousData, useQuery, type UseQueryResult } from "@tanstack/react-query";
import { queryEach, type QueryOutcome } from "@/api/query";
import { resolveTimeRange, type TimeRangeSpec } from "@/lib/time";

/** A query Explore runs: its reference and its text. */
export interface RunQuery {
  ref: string;
  query: string;
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
export function useExploreRun({ workspaceId, queries, timeRange, refreshMs }: ExploreRunInput): UseQueryResult<ExploreRun> {
  return useQuery({
    queryKey: ["dql", workspaceId, queries.map((q) => [q.ref, q.query]), timeRange.from, timeRange.to],
    queryFn: async ({ signal }): Promise<ExploreRun> => {
      const range = resolveTimeRange(timeRange);
      const outcomes = await queryEach(
        workspaceId,
        queries.map((q) => ({ query: q.query, time_range: range })),
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
