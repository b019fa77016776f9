import {
  dashboardsCreateDashboard,
  dashboardsDeleteDashboard,
  dashboardsReadDashboard,
  dashboardsReadDashboards,
} from "@/client/sdk.gen";
import type { DashboardCreate, DashboardPublic, DashboardSpec, DashboardsPublic } from "@/client/types.gen";
import "@/lib/apiClient";

export type Dashboard = DashboardPublic;
export type { DashboardCreate, DashboardSpec };
export type Panel = NonNullable<DashboardSpec["panels"]>[number];
export type DashboardVariable = NonNullable<DashboardSpec["variables"]>[number];

export async function listDashboards(workspaceId: string, signal?: AbortSignal): Promise<DashboardsPublic> {
  const res = await dashboardsReadDashboards({ path: { workspace_id: workspaceId }, signal, throwOnError: true });
  return res.data;
}

export async function readDashboard(workspaceId: string, dashboardId: string, signal?: AbortSignal): Promise<Dashboard> {
  const res = await dashboardsReadDashboard({
    path: { workspace_id: workspaceId, dashboard_id: dashboardId },
    signal,
    throwOnError: true,
  });
  return res.data;
}

export async function createDashboard(workspaceId: string, body: DashboardCreate): Promise<Dashboard> {
  const res = await dashboardsCreateDashboard({ path: { workspace_id: workspaceId }, body, throwOnError: true });
  return res.data;
}

export async function deleteDashboard(workspaceId: string, dashboardId: string): Promise<void> {
  await dashboardsDeleteDashboard({ path: { workspace_id: workspaceId, dashboard_id: dashboardId }, throwOnError: true });
}
