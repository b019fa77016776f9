import { useQueries, type UseQueryResult } from "@tanstack/react-query";
import { alertingKey, listEvents, type AlertEvent } from "@/api/alertEvents";
import { annotationsFromEvents, type AlertAnnotation } from "./alertAnnotations";

/** At most this many events of one query annotate a panel (the newest). */
export const ANNOTATION_LIMIT = 500;

const NONE: AlertAnnotation[] = [];

/** Every answer's events as annotations (a stable function: the result is kept until an answer changes). */
function combine(results: UseQueryResult<{ data: AlertEvent[] }>[]): AlertAnnotation[] {
  const events = results.flatMap((r) => r.data?.data ?? []);
  return events.length === 0 ? NONE : annotationsFromEvents(events);
}

/**
 * The alert events (fired, resolved) of monitors whose query is one of `queries` (a panel's
 * queries as sent, variables filled in) within `range`. Asked once the panel has its data
 * (`range` given), so the annotations never hold up the chart; a failure leaves the chart
 * without them.
 */
export function usePanelAlertAnnotations(
  workspaceId: string,
  queries: readonly string[],
  range: [number, number] | undefined,
  enabled: boolean,
): AlertAnnotation[] {
  return useQueries({
    queries: queries.map((query) => ({
      queryKey: [...alertingKey(workspaceId), "annotations", query, range],
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        listEvents(
          workspaceId,
          {
            query,
            kind: ["firing", "resolved"],
            since: new Date((range as [number, number])[0]).toISOString(),
            until: new Date((range as [number, number])[1]).toISOString(),
            limit: ANNOTATION_LIMIT,
          },
          signal,
        ),
      enabled: enabled && range !== undefined,
      staleTime: 10_000,
      retry: false,
    })),
    combine,
  });
}
