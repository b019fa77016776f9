import {
  membersAcceptInvitation,
  membersReadInvitationByCode,
  metaReadMeta,
  workspacesCreateWorkspace,
  workspacesDeleteWorkspace,
  workspacesReadWorkspaces,
  workspacesUpdateWorkspace,
} from "@/client/sdk.gen";
import type { InvitationPreview, MetaPublic, WorkspacePublic, WorkspacesPublic } from "@/client/types.gen";
import "@/lib/apiClient";

export type Workspace = WorkspacePublic;
export type Workspaces = WorkspacesPublic;
export type Invitation = InvitationPreview;
/** An invitation that can still be accepted: the API tells its address only then. */
export type PendingInvitation = Invitation & { state: "pending"; email: string };

export function pendingInvitation(inv: Invitation | undefined): PendingInvitation | undefined {
  return inv?.state === "pending" && inv.email !== null ? (inv as PendingInvitation) : undefined;
}
export type Meta = MetaPublic;

export async function listWorkspaces(signal?: AbortSignal): Promise<Workspaces> {
  const res = await workspacesReadWorkspaces({ signal, throwOnError: true });
  return res.data;
}

export async function createWorkspace(name: string): Promise<Workspace> {
  const res = await workspacesCreateWorkspace({ body: { name }, throwOnError: true });
  return res.data;
}

/** Renames a workspace (admins and owners); the API trims the name and refuses a blank one. */
export async function renameWorkspace(workspaceId: string, name: string): Promise<Workspace> {
  const res = await workspacesUpdateWorkspace({ path: { workspace_id: workspaceId }, body: { name }, throwOnError: true });
  return res.data;
}

/**
 * Deletes a workspace with its stored data, keys, members and invitations (owners only).
 * `confirmName` must be the workspace's exact name.
 */
export async function deleteWorkspace(workspaceId: string, confirmName: string): Promise<void> {
  await workspacesDeleteWorkspace({
    path: { workspace_id: workspaceId },
    body: { confirm_name: confirmName },
    throwOnError: true,
  });
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

/** Facts about this installation the UI shows, such as where agents send data. */
export async function readMeta(signal?: AbortSignal): Promise<Meta> {
  const res = await metaReadMeta({ signal, throwOnError: true });
  return res.data;
}
