import type { ReactElement } from "react";
import { canAdmin } from "@/features/workspaces/hooks/useWorkspaces";
import { useCurrentWorkspace } from "@/routes/useWorkspaceContext";
import { ApiKeysPanel } from "./components/ApiKeysPanel";

/** Settings › API keys. */
export function ApiKeysPage(): ReactElement {
  const workspace = useCurrentWorkspace();
  return <ApiKeysPanel workspaceId={workspace.id} canManage={canAdmin(workspace.role)} />;
}
