import {
  dashboardsCreateDashboard,
  dashboardsDeleteDashboard,
  dashboardsExportDashboard,
  dashboardsImportDashboard,
  dashboardsImportGrafanaDashboard,
  dashboardsReadDashboard,
  dashboardsReadDashboards,
  dashboardsReadDashboardVersions,
  dashboardsRestoreDashboardVersion,
  dashboardsUpdateDashboard,
} from "@/client/sdk.gen";
import type {
  DashboardCreate,
  DashboardExport,
  DashboardPublic,
  DashboardSpec,
  DashboardsPublic,
  DashboardUpdate,
  DashboardVersionsPublic,
  GrafanaImportResult,
  GrafanaUnmapped,
} from "@/client/types.gen";
import "@/lib/apiClient";

export type Dashboard = DashboardPublic;
export type {
  DashboardCreate,
  DashboardExport,
  DashboardSpec,
  DashboardUpdate,
  DashboardVersionsPublic,
  GrafanaImportResult,
  GrafanaUnmapped,
};
/** What a dashboard's `panels` hold: panels, and the rows that group them. */
export type DashboardItem = NonNullable<DashboardSpec["panels"]>[number];
/** A collapsible heading across the grid; a collapsed one holds its panels (`panels`). */
export type RowPanel = Extract<DashboardItem, { type: "row" }>;
/** A panel drawn on the grid: a chart, a table, a stat, a text … */
export type Panel = Exclude<DashboardItem, { type: "row" }>;
/** A Markdown panel: notes beside the charts, no query. */
export type TextPanel = Extract<Panel, { type: "text" }>;
/** A panel that draws the result of its DQL queries: every type but text. */
export type QueryPanel = Exclude<Panel, { type: "text" }>;
export type PanelQuery = QueryPanel["queries"][number];
export type DashboardVariable = NonNullable<DashboardSpec["variables"]>[number];
export type DashboardSummary = DashboardsPublic["data"][number];
export type DashboardVersion = DashboardVersionsPublic["data"][number];

export function isTextPanel(panel: Panel): panel is TextPanel {
  return panel.type === "text";
}

export function isRow(item: DashboardItem): item is RowPanel {
  return item.type === "row";
}

/** Every panel of a dashboard: those on the grid and those inside collapsed rows. */
export function everyPanel(items: readonly DashboardItem[]): Panel[] {
  return items.flatMap((item) => (isRow(item) ? (item.panels ?? []) : [item]));
}

/** Every item of a dashboard: rows, the panels on the grid and those inside collapsed rows. */
export function everyItem(items: readonly DashboardItem[]): DashboardItem[] {
  return items.flatMap((item) => (isRow(item) ? [item, ...(item.panels ?? [])] : [item]));
}

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

/** Saves changes as a new version; with `base_version` the backend refuses (409) to overwrite newer edits. */
export async function updateDashboard(workspaceId: string, dashboardId: string, body: DashboardUpdate): Promise<Dashboard> {
  const res = await dashboardsUpdateDashboard({
    path: { workspace_id: workspaceId, dashboard_id: dashboardId },
    body,
    throwOnError: true,
  });
  return res.data;
}

export async function deleteDashboard(workspaceId: string, dashboardId: string): Promise<void> {
  await dashboardsDeleteDashboard({ path: { workspace_id: workspaceId, dashboard_id: dashboardId }, throwOnError: true });
}

export async function listDashboardVersions(
  workspaceId: string,
  dashboardId: string,
  signal?: AbortSignal,
): Promise<DashboardVersionsPublic> {
  const res = await dashboardsReadDashboardVersions({
    path: { workspace_id: workspaceId, dashboard_id: dashboardId },
    signal,
    throwOnError: true,
  });
  return res.data;
}

export async function restoreDashboardVersion(
  workspaceId: string,
  dashboardId: string,
  version: number,
): Promise<Dashboard> {
  const res = await dashboardsRestoreDashboardVersion({
    path: { workspace_id: workspaceId, dashboard_id: dashboardId, version },
    throwOnError: true,
  });
  return res.data;
}

/** The portable document `importDashboard` accepts, in this or another workspace. */
export async function exportDashboard(workspaceId: string, dashboardId: string): Promise<DashboardExport> {
  const res = await dashboardsExportDashboard({
    path: { workspace_id: workspaceId, dashboard_id: dashboardId },
    throwOnError: true,
  });
  return res.data;
}

/** Creates a dashboard from an export document; the backend validates it and names what is wrong. */
export async function importDashboard(workspaceId: string, body: DashboardExport): Promise<Dashboard> {
  const res = await dashboardsImportDashboard({ path: { workspace_id: workspaceId }, body, throwOnError: true });
  return res.data;
}

/**
 * Creates a dashboard from a Grafana dashboard's JSON (`title` instead of its own); the answer
 * lists what could not be carried over (`unmapped`).
 */
export async function importGrafanaDashboard(
  workspaceId: string,
  doc: Record<string, unknown>,
  title?: string,
): Promise<GrafanaImportResult> {
  const res = await dashboardsImportGrafanaDashboard({
    path: { workspace_id: workspaceId },
    query: title ? { title } : undefined,
    body: doc,
    throwOnError: true,
  });
  return res.data;
}
