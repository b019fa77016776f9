import { membersAcceptInvitation, workspacesCreateWorkspace, workspacesReadWorkspaces } from "@/client/sdk.gen";
import type { WorkspacePublic, WorkspacesPublic } from "@/client/types.gen";
import "@/lib/apiClient";

export type Workspace = WorkspacePublic;
export type Workspaces = WorkspacesPublic;

export async function listWorkspaces(signal?: AbortSignal): Promise<Workspaces> {
  const res = await workspacesReadWorkspaces({ signal, throwOnError: true });
  return res.data;
}

export async function createWorkspace(name: string): Promise<Workspace> {
  const res = await workspacesCreateWorkspace({ body: { name }, throwOnError: true });
  return res.data;
}

/** Joins the workspace an invitation code names; the signed-in email must be the invited one. */
export async function acceptInvitation(code: string): Promise<Workspace> {
  const res = await membersAcceptInvitation({ body: { code }, throwOnError: true });
  return res.data;
}
