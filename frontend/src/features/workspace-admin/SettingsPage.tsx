import type { ReactElement } from "react";
import { canAdmin } from "@/features/workspaces/hooks/useWorkspaces";
import { useCurrentWorkspace } from "@/routes/useWorkspaceContext";
import { ApiKeysPanel } from "./components/ApiKeysPanel";

/** Workspace settings: API keys (members, limits and the audit log follow). */
export function SettingsPage(): ReactElement {
  const workspace = useCurrentWorkspace();
  return (
    <div className="page">
      <div className="page-header">
        <h1>Settings · {workspace.name}</h1>
      </div>
      <ApiKeysPanel workspaceId={workspace.id} canManage={canAdmin(workspace.role)} />
    </div>
  );
}
