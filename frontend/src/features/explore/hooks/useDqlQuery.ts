import { keepPreviousData, useQuery, type UseQueryResult } from "@tanstack/react-query";
import { resolveTimeRange, type TimeRangeSpec } from "@/lib/time";
import { queryRaw } from "../api";
import type { DqlQuery, DqlResult } from "../dql";

export interface DqlRun {
  result: DqlResult;
  /** The absolute range the query ran over. */
  range: [number, number];
}

export interface DqlQueryInput {
  workspaceId: string;
  query: string;
  timeRange: TimeRangeSpec;
  /** Re-run every n ms (auto refresh); off when undefined or 0. */
  refreshMs?: number;
  /** Extra request fields (slimit, max_point …). */
  extra?: Omit<DqlQuery, "query" | "time_range">;
  enabled?: boolean;
}

export function dqlQueryKey(input: DqlQueryInput): unknown[] {
  return ["dql", input.workspaceId, input.query, input.timeRange.from, input.timeRange.to, input.extra ?? {}];
}

/**
 * Runs one DQL statement over a time range. Relative ranges are resolved when the request
 * is sent, so a refresh moves the window forward.
 */
export function useDqlQuery(input: DqlQueryInput): UseQueryResult<DqlRun> {
  return useQuery({
    queryKey: dqlQueryKey(input),
    queryFn: async ({ signal }) => {
      const range = resolveTimeRange(input.timeRange);
      const res = await queryRaw(
        input.workspaceId,
        { queries: [{ ...input.extra, query: input.query, time_range: range }] },
        signal,
      );
      return { result: res.content[0] ?? { series: [] }, range };
    },
    enabled: (input.enabled ?? true) && input.query.trim() !== "",
    placeholderData: keepPreviousData,
    refetchInterval: input.refreshMs && input.refreshMs > 0 ? input.refreshMs : false,
    retry: false,
  });
}
