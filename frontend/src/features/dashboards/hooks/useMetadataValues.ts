import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { queryRaw } from "@/features/explore/api";
import { columnValues } from "@/features/explore/dql";

/**
 * The values a DQL metadata statement lists (`show_measurement()`, `show_tag_key(…)`,
 * `show_tag_value(…)`): its `value` column, else its first column. Cached for a minute, so a
 * variable's picker and its preview in the settings share one request. Off while `query` is
 * undefined.
 */
export function useMetadataValues(workspaceId: string, query: string | undefined): UseQueryResult<string[]> {
  return useQuery({
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
