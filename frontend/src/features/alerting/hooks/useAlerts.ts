import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { listActive, listEvents, listNotifications, readEvent, readSummary, type EventsQuery, type NotificationsQuery } from "../api";
import { alertingKey } from "./keys";
import { LIVE_REFRESH_MS } from "./useMonitors";

/** How often the header's badge asks how many alerts fire. */
export const SUMMARY_REFRESH_MS = 15_000;

/** How many alerts fire now, by severity, and the notifications that could not be delivered. */
export function useAlertSummary(workspaceId: string) {
  return useQuery({
    queryKey: [...alertingKey(workspaceId), "summary"],
    queryFn: ({ signal }) => readSummary(workspaceId, signal),
    refetchInterval: SUMMARY_REFRESH_MS,
    // the badge is a hint: a failure keeps the last count and is not retried in a loop
    retry: false,
  });
}

export function useActiveAlerts(workspaceId: string) {
  return useQuery({
    queryKey: [...alertingKey(workspaceId), "active"],
    queryFn: ({ signal }) => listActive(workspaceId, signal),
    refetchInterval: LIVE_REFRESH_MS,
  });
}

export function useAlertEvents(
  workspaceId: string,
  query: EventsQuery | undefined,
  { live = true, enabled = true }: { live?: boolean; enabled?: boolean } = {},
) {
  return useQuery({
    queryKey: [...alertingKey(workspaceId), "events", query],
    queryFn: ({ signal }) => listEvents(workspaceId, query ?? {}, signal),
    enabled: enabled && query !== undefined,
    placeholderData: keepPreviousData,
    refetchInterval: live ? LIVE_REFRESH_MS : false,
  });
}

export function useAlertEvent(workspaceId: string, eventId: string) {
  return useQuery({
    queryKey: [...alertingKey(workspaceId), "event", eventId],
    queryFn: ({ signal }) => readEvent(workspaceId, eventId, signal),
    // its notifications are sent and retried after the event: follow them
    refetchInterval: LIVE_REFRESH_MS,
  });
}

export function useNotifications(workspaceId: string, query: NotificationsQuery, enabled = true) {
  return useQuery({
    queryKey: [...alertingKey(workspaceId), "notifications", query],
    queryFn: ({ signal }) => listNotifications(workspaceId, query, signal),
    enabled,
    refetchInterval: LIVE_REFRESH_MS,
  });
}
