import type { ReactElement } from "react";
import { useCurrentWorkspace } from "@/api/useCurrentWorkspace";
import { canAdmin } from "@/api/useWorkspaces";
import { ApiKeysPanel } from "./components/ApiKeysPanel";

/** Settings › API keys. */
export function ApiKeysPage(): ReactElement {
  const workspace = useCurrentWorkspace();
  return <ApiKeysPanel workspaceId={workspace.id} canManage={canAdmin(workspace.role)} />;
}
