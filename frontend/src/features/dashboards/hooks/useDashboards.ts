import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createDashboard, deleteDashboard, listDashboards, readDashboard, type DashboardCreate } from "../api";

const key = (workspaceId: string): unknown[] => ["workspaces", workspaceId, "dashboards"];

export function useDashboards(workspaceId: string) {
  return useQuery({ queryKey: key(workspaceId), queryFn: ({ signal }) => listDashboards(workspaceId, signal) });
}

export function useDashboard(workspaceId: string, dashboardId: string) {
  return useQuery({
    queryKey: [...key(workspaceId), dashboardId],
    queryFn: ({ signal }) => readDashboard(workspaceId, dashboardId, signal),
  });
}

export function useCreateDashboard(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: DashboardCreate) => createDashboard(workspaceId, body),
    onSettled: () => qc.invalidateQueries({ queryKey: key(workspaceId) }),
  });
}

/** Copies a dashboard (full spec) under a new title. */
export function useDuplicateDashboard(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (dashboardId: string) => {
      const d = await readDashboard(workspaceId, dashboardId);
      return createDashboard(workspaceId, {
        title: `Copy of ${d.title}`,
        description: d.description,
        tags: d.tags,
        spec: d.spec,
      });
    },
    onSettled: () => qc.invalidateQueries({ queryKey: key(workspaceId) }),
  });
}

export function useDeleteDashboard(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (dashboardId: string) => deleteDashboard(workspaceId, dashboardId),
    onSettled: () => qc.invalidateQueries({ queryKey: key(workspaceId) }),
  });
}
