import type { ReactElement } from "react";
import { Navigate, type RouteObject } from "react-router";
import { useCurrentWorkspace } from "@/api/useCurrentWorkspace";
import { canAdmin } from "@/api/useWorkspaces";
import { ApiKeysPage } from "./ApiKeysPage";
import { AuditLogPage } from "./AuditLogPage";
import { GeneralPage } from "./GeneralPage";
import { InvitationsPage } from "./InvitationsPage";
import { MembersPage } from "./MembersPage";

/** `/settings` opens API keys for admins (what a new workspace needs first), members for everyone else. */
function SettingsIndex(): ReactElement {
  const workspace = useCurrentWorkspace();
  return <Navigate to={canAdmin(workspace.role) ? "keys" : "members"} replace />;
}

/** The sub-pages under `/w/:workspaceId/settings`, rendered inside `SettingsPage`. */
export const settingsRoutes: RouteObject[] = [
  { index: true, element: <SettingsIndex /> },
  { path: "general", element: <GeneralPage /> },
  { path: "members", element: <MembersPage /> },
  { path: "invitations", element: <InvitationsPage /> },
  { path: "keys", element: <ApiKeysPage /> },
  // its usage charts bring ECharts, loaded on first visit
  { path: "limits", lazy: async () => ({ Component: (await import("./LimitsPage")).LimitsPage }) },
  { path: "audit", element: <AuditLogPage /> },
];
