import type { Limits } from "@/api/limits";
import type { Member } from "@/api/members";
import {
  auditReadAuditLog,
  limitsReadUsage,
  limitsReadUsageHistory,
  limitsUpdateLimits,
  membersCreateInvitation,
  membersDeleteMember,
  membersLeaveWorkspace,
  membersReadInvitations,
  membersRevokeInvitation,
  membersUpdateMember,
} from "@/client/sdk.gen";
import type {
  AuditEventPublic,
  AuditEventsPublic,
  AuditReadAuditLogData,
  InvitationCreated,
  InvitationPublic,
  InvitationsPublic,
  LimitsUpdate,
  MemberRemoved,
  Role,
  UsageHistoryPublic,
  UsagePublic,
} from "@/client/types.gen";
import "@/lib/apiClient";

export type Invitation = InvitationPublic;
export type Usage = UsagePublic;
export type UsageHistory = UsageHistoryPublic;
export type AuditEvent = AuditEventPublic;
export type AuditQuery = NonNullable<AuditReadAuditLogData["query"]>;
export type { InvitationCreated, Limits, LimitsUpdate, MemberRemoved, Role };

export async function changeRole(workspaceId: string, userId: string, role: Role): Promise<Member> {
  const res = await membersUpdateMember({
    path: { workspace_id: workspaceId, user_id: userId },
    body: { role },
    throwOnError: true,
  });
  return res.data;
}

/**
 * Removes a member; their pending invitations are revoked, and with `revokeKeys` the API keys
 * they created too (keys belong to the workspace and otherwise keep working).
 */
export async function removeMember(workspaceId: string, userId: string, revokeKeys: boolean): Promise<MemberRemoved> {
  const res = await membersDeleteMember({
    path: { workspace_id: workspaceId, user_id: userId },
    query: { revoke_keys: revokeKeys },
    throwOnError: true,
  });
  return res.data;
}

export async function leaveWorkspace(workspaceId: string): Promise<void> {
  await membersLeaveWorkspace({ path: { workspace_id: workspaceId }, throwOnError: true });
}

export async function listInvitations(workspaceId: string, signal?: AbortSignal): Promise<InvitationsPublic> {
  const res = await membersReadInvitations({ path: { workspace_id: workspaceId }, signal, throwOnError: true });
  return res.data;
}

export async function createInvitation(workspaceId: string, email: string, role: Role): Promise<InvitationCreated> {
  const res = await membersCreateInvitation({
    path: { workspace_id: workspaceId },
    body: { email, role },
    throwOnError: true,
  });
  return res.data;
}

export async function revokeInvitation(workspaceId: string, invitationId: string): Promise<Invitation> {
  const res = await membersRevokeInvitation({
    path: { workspace_id: workspaceId, invitation_id: invitationId },
    throwOnError: true,
  });
  return res.data;
}

export async function updateLimits(workspaceId: string, changes: LimitsUpdate): Promise<Limits> {
  const res = await limitsUpdateLimits({ path: { workspace_id: workspaceId }, body: changes, throwOnError: true });
  return res.data;
}

export async function readUsage(workspaceId: string, signal?: AbortSignal): Promise<Usage> {
  const res = await limitsReadUsage({ path: { workspace_id: workspaceId }, signal, throwOnError: true });
  return res.data;
}

export async function readUsageHistory(workspaceId: string, hours: number, signal?: AbortSignal): Promise<UsageHistory> {
  const res = await limitsReadUsageHistory({
    path: { workspace_id: workspaceId },
    query: { hours },
    signal,
    throwOnError: true,
  });
  return res.data;
}

export async function readAuditLog(workspaceId: string, query: AuditQuery, signal?: AbortSignal): Promise<AuditEventsPublic> {
  const res = await auditReadAuditLog({ path: { workspace_id: workspaceId }, query, signal, throwOnError: true });
  return res.data;
}
