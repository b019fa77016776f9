import { alertsReadEvents } from "@/client/sdk.gen";
import type { AlertEventPublic, AlertEventsPublic, AlertsReadEventsData, Condition } from "@/client/types.gen";
import "@/lib/apiClient";

/*
 * Alert events (a monitor's group fired, resolved, …): read by the alerting pages and by the
 * panels that mark them on their charts.
 */

export type AlertEvent = AlertEventPublic;
export type Severity = Condition["severity"];
export type EventsQuery = NonNullable<AlertsReadEventsData["query"]>;

/** Every alerting query of a workspace starts with this key: a change invalidates them all. */
export const alertingKey = (workspaceId: string): unknown[] => ["workspaces", workspaceId, "alerting"];

export async function listEvents(workspaceId: string, query: EventsQuery, signal?: AbortSignal): Promise<AlertEventsPublic> {
  return (await alertsReadEvents({ path: { workspace_id: workspaceId }, query, signal, throwOnError: true })).data;
}

/** `host=web-1, region=eu` (sorted, internal `__` tags left out), or "the whole query" for none. */
export function describeTags(tags: Record<string, string>): string {
  const names = Object.keys(tags)
    .filter((k) => !k.startsWith("__"))
    .sort();
  return names.map((k) => `${k}=${tags[k]}`).join(", ") || "the whole query";
}
