import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  createDashboard,
  deleteDashboard,
  exportDashboard,
  importDashboard,
  importGrafanaDashboard,
  readDashboard,
  updateDashboard,
  type Dashboard,
  type DashboardCreate,
  type DashboardExport,
  type DashboardUpdate,
} from "@/api/dashboards";
import { dashboardKey, dashboardsKey } from "@/api/useDashboards";
import { ApiError } from "@/lib/apiError";
import type { TimeRangeSpec } from "@/lib/time";
import { panelFromExplore, specWithPanel, withPanel, type ExploredQuery } from "../addPanel";

export function useCreateDashboard(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: DashboardCreate) => createDashboard(workspaceId, body),
    onSettled: () => qc.invalidateQueries({ queryKey: dashboardsKey(workspaceId) }),
  });
}

/** Saves a dashboard; the answer becomes the cached dashboard at once (no refetch flicker). */
export function useUpdateDashboard(workspaceId: string, dashboardId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: DashboardUpdate) => updateDashboard(workspaceId, dashboardId, body),
    onSuccess: (d: Dashboard) => qc.setQueryData(dashboardKey(workspaceId, dashboardId), d),
    onSettled: () => qc.invalidateQueries({ queryKey: dashboardsKey(workspaceId) }),
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
    onSettled: () => qc.invalidateQueries({ queryKey: dashboardsKey(workspaceId) }),
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
    onSettled: () => qc.invalidateQueries({ queryKey: dashboardsKey(workspaceId) }),
  });
}

export function useDeleteDashboard(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (dashboardId: string) => deleteDashboard(workspaceId, dashboardId),
    onSettled: () => qc.invalidateQueries({ queryKey: dashboardsKey(workspaceId) }),
  });
}

export function useExportDashboard(workspaceId: string) {
  return useMutation({ mutationFn: (dashboardId: string) => exportDashboard(workspaceId, dashboardId) });
}

export function useImportDashboard(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: DashboardExport) => importDashboard(workspaceId, body),
    onSettled: () => qc.invalidateQueries({ queryKey: dashboardsKey(workspaceId) }),
  });
}

/** Imports a Grafana dashboard's JSON under `title`; the answer says what it left out. */
export function useImportGrafanaDashboard(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ doc, title }: { doc: Record<string, unknown>; title: string }) => importGrafanaDashboard(workspaceId, doc, title),
    onSuccess: (r) => qc.setQueryData(dashboardKey(workspaceId, r.dashboard.id), r.dashboard),
    onSettled: () => qc.invalidateQueries({ queryKey: dashboardsKey(workspaceId) }),
  });
}

