import { queryOptions, useQueries, useQuery, type UseQueryResult } from "@tanstack/react-query";
import { useCallback } from "react";
import type { DashboardVariable } from "@/api/dashboards";
import { queryRaw } from "@/api/query";
import { columnValues } from "@/lib/dql/dql";

/**
 * The values a DQL metadata statement lists (`show_measurement()`, `show_tag_key(…)`,
 * `show_tag_value(…)`): its `value` column, else its first column. Cached for a minute, so a
 * variable's picker and its preview in the settings share one request. Off while `query` is
 * undefined.
 */
export function useMetadataValues(workspaceId: string, query: string | undefined): UseQueryResult<string[]> {
  return useQuery(metadataValuesQuery(workspaceId, query));
}

/**
 * Every value of each of `variables` (name → values; undefined while a `query` variable's
 * values are on their way): what a panel repeated for one is drawn for when All is selected.
 */
export function useVariableOptions(
  workspaceId: string,
  variables: readonly DashboardVariable[],
): Record<string, string[] | undefined> {
  const combine = useCallback(
    (results: UseQueryResult<string[]>[]) => {
      const out: Record<string, string[] | undefined> = {};
      variables.forEach((v, i) => {
        // values that could not be listed count as none: a panel repeated for them is drawn once
        if (v.type === "query") out[v.name] = results[i].isError ? [] : results[i].data;
        else out[v.name] = v.type === "custom" ? (v.options ?? []) : (v.default ?? []);
      });
      return out;
    },
    [variables],
  );
  return useQueries({
    queries: variables.map((v) => metadataValuesQuery(workspaceId, v.type === "query" ? (v.query ?? undefined) : undefined)),
    combine,
  });
}

function metadataValuesQuery(workspaceId: string, query: string | undefined) {
  return queryOptions({
    queryKey: ["dashboard-variable", workspaceId, query],
    queryFn: async ({ signal }) => {
      const res = await queryRaw(workspaceId, { queries: [{ query: query ?? "", disable_slimit: true }] }, signal);
      const result = res.content[0] ?? { series: [] };
      const values = columnValues(result, "value");
      return values.length > 0 ? values : columnValues(result);
    },
    enabled: query !== undefined && query.trim() !== "",
    staleTime: 60_000,
    retry: false,
  });
}
