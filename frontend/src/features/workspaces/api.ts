import {
  membersAcceptInvitation,
  membersReadInvitationByCode,
  workspacesCreateWorkspace,
  workspacesReadWorkspaces,
} from "@/client/sdk.gen";
import type { InvitationPreview, WorkspacePublic, WorkspacesPublic } from "@/client/types.gen";
import "@/lib/apiClient";

export type Workspace = WorkspacePublic;
export type Workspaces = WorkspacesPublic;
export type Invitation = InvitationPreview;

export async function listWorkspaces(signal?: AbortSignal): Promise<Workspaces> {
  const res = await workspacesReadWorkspaces({ signal, throwOnError: true });
  return res.data;
}

export async function createWorkspace(name: string): Promise<Workspace> {
  const res = await workspacesCreateWorkspace({ body: { name }, throwOnError: true });
  return res.data;
}

/** What the invitation with this code offers, and whether it can still be accepted; no session needed. */
export async function readInvitation(code: string, signal?: AbortSignal): Promise<Invitation> {
  const res = await membersReadInvitationByCode({ path: { code }, signal, throwOnError: true });
  return res.data;
}

/** Joins the workspace an invitation code names; the signed-in email must be the invited one. */
export async function acceptInvitation(code: string): Promise<Workspace> {
  const res = await membersAcceptInvitation({ body: { code }, throwOnError: true });
  return res.data;
}
