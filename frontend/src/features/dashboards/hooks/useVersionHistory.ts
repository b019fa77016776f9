import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { listDashboardVersions, restoreDashboardVersion, type Dashboard } from "@/api/dashboards";
import { listMembers, membersQueryKey } from "@/api/members";
import { dashboardKey, dashboardsKey } from "@/api/useDashboards";

const versionsKey = (workspaceId: string, dashboardId: string): unknown[] => [
  ...dashboardKey(workspaceId, dashboardId),
  "versions",
];

export function useDashboardVersions(workspaceId: string, dashboardId: string, enabled = true) {
  return useQuery({
    queryKey: versionsKey(workspaceId, dashboardId),
    queryFn: ({ signal }) => listDashboardVersions(workspaceId, dashboardId, signal),
    enabled,
  });
}

export function useRestoreDashboardVersion(workspaceId: string, dashboardId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (version: number) => restoreDashboardVersion(workspaceId, dashboardId, version),
    onSuccess: (d: Dashboard) => qc.setQueryData(dashboardKey(workspaceId, dashboardId), d),
    onSettled: () => qc.invalidateQueries({ queryKey: dashboardsKey(workspaceId) }),
  });
}

/** Member names by user id, to show who saved each version. */
export function useMemberNames(workspaceId: string, enabled = true) {
  return useQuery({
    queryKey: membersQueryKey(workspaceId),
    queryFn: ({ signal }) => listMembers(workspaceId, signal),
    select: (m) => new Map(m.data.map((u) => [u.user_id, u.full_name || u.email])),
    staleTime: 60_000,
    enabled,
  });
}
