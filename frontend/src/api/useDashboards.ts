import { queryOptions, useQuery } from "@tanstack/react-query";
import { listDashboards, readDashboard } from "./dashboards";

/** The start of the keys of everything cached about a workspace's dashboards. */
export const dashboardsKey = (workspaceId: string): unknown[] => ["workspaces", workspaceId, "dashboards"];
export const dashboardKey = (workspaceId: string, dashboardId: string): unknown[] => [...dashboardsKey(workspaceId), dashboardId];

/** The workspace's dashboards (the list, without their panels). */
export function useDashboards(workspaceId: string) {
  return useQuery({ queryKey: dashboardsKey(workspaceId), queryFn: ({ signal }) => listDashboards(workspaceId, signal) });
}

/** One dashboard; shared by the page hook and the router's prefetch. */
export function dashboardQuery(workspaceId: string, dashboardId: string) {
  return queryOptions({
    queryKey: dashboardKey(workspaceId, dashboardId),
    queryFn: ({ signal }) => readDashboard(workspaceId, dashboardId, signal),
    // Fresh for a moment: the copy the router prefetched while the page's code loaded is
    // the one the page shows, not fetched a second time on mount.
    staleTime: 10_000,
  });
}

export function useDashboard(workspaceId: string, dashboardId: string) {
  return useQuery(dashboardQuery(workspaceId, dashboardId));
}
