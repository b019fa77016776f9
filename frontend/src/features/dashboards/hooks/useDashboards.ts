import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { listMembers } from "@/features/workspace-admin/api";
import { ApiError } from "@/lib/apiError";
import type { TimeRangeSpec } from "@/lib/time";
import { panelFromExplore, specWithPanel, withPanel, type ExploredQuery } from "../addPanel";
import { membersQueryKey } from "@/features/workspace-admin/hooks/useMembers";
import {
  createDashboard,
  deleteDashboard,
  exportDashboard,
  importDashboard,
  listDashboards,
  listDashboardVersions,
  readDashboard,
  restoreDashboardVersion,
  updateDashboard,
  type Dashboard,
  type DashboardCreate,
  type DashboardExport,
  type DashboardUpdate,
} from "../api";

const key = (workspaceId: string): unknown[] => ["workspaces", workspaceId, "dashboards"];
const dashboardKey = (workspaceId: string, dashboardId: string): unknown[] => [...key(workspaceId), dashboardId];
const versionsKey = (workspaceId: string, dashboardId: string): unknown[] => [
  ...dashboardKey(workspaceId, dashboardId),
  "versions",
];

export function useDashboards(workspaceId: string) {
  return useQuery({ queryKey: key(workspaceId), queryFn: ({ signal }) => listDashboards(workspaceId, signal) });
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

export function useCreateDashboard(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: DashboardCreate) => createDashboard(workspaceId, body),
    onSettled: () => qc.invalidateQueries({ queryKey: key(workspaceId) }),
  });
}

/** Saves a dashboard; the answer becomes the cached dashboard at once (no refetch flicker). */
export function useUpdateDashboard(workspaceId: string, dashboardId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: DashboardUpdate) => updateDashboard(workspaceId, dashboardId, body),
    onSuccess: (d: Dashboard) => qc.setQueryData(dashboardKey(workspaceId, dashboardId), d),
    onSettled: () => qc.invalidateQueries({ queryKey: key(workspaceId) }),
  });
}

export interface AddPanelRequest {
  /** The dashboard to add to, or a new one with this title. */
  to: { dashboardId: string } | { newTitle: string };
  explored: ExploredQuery;
  /** A new dashboard's time range (Explore's). */
  range: TimeRangeSpec;
}

/**
 * Adds what Explore shows as a panel: a new version of the chosen dashboard (asked again once
 * when someone saved it meanwhile: a panel added at the end overwrites nobody's changes), or a
 * new dashboard holding only that panel.
 */
export function useAddPanel(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ to, explored, range }: AddPanelRequest): Promise<Dashboard> => {
      if ("newTitle" in to) {
        return createDashboard(workspaceId, { title: to.newTitle, spec: specWithPanel(panelFromExplore([], explored), range) });
      }
      for (let attempt = 0; ; attempt += 1) {
        const d = await readDashboard(workspaceId, to.dashboardId);
        const panel = panelFromExplore(d.spec.panels ?? [], explored);
        try {
          return await updateDashboard(workspaceId, d.id, {
            spec: withPanel(d.spec, panel),
            message: `Added the panel "${panel.title}" from Explore`,
            base_version: d.version,
          });
        } catch (e) {
          if (attempt > 0 || !(e instanceof ApiError) || e.status !== 409) throw e;
        }
      }
    },
    onSuccess: (d: Dashboard) => qc.setQueryData(dashboardKey(workspaceId, d.id), d),
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
    onSettled: () => qc.invalidateQueries({ queryKey: key(workspaceId) }),
  });
}

export function useExportDashboard(workspaceId: string) {
  return useMutation({ mutationFn: (dashboardId: string) => exportDashboard(workspaceId, dashboardId) });
}

export function useImportDashboard(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: DashboardExport) => importDashboard(workspaceId, body),
    onSettled: () => qc.invalidateQueries({ queryKey: key(workspaceId) }),
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
