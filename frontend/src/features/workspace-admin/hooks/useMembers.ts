import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { listMembers, membersQueryKey } from "@/api/members";
import { keysQueryKey } from "@/api/useApiKeys";
import { workspacesQueryKey } from "@/api/useWorkspaces";
import {
  changeRole,
  createInvitation,
  leaveWorkspace,
  listInvitations,
  removeMember,
  revokeInvitation,
  type Role,
} from "../api";

export const invitationsQueryKey = (workspaceId: string): unknown[] => ["workspaces", workspaceId, "invitations"];

export function useMembers(workspaceId: string, enabled = true) {
  return useQuery({
    queryKey: membersQueryKey(workspaceId),
    queryFn: ({ signal }) => listMembers(workspaceId, signal),
    enabled,
  });
}

export function useChangeRole(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: Role }) => changeRole(workspaceId, userId, role),
    // Your own role may have changed: the workspace list carries it.
    onSettled: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: membersQueryKey(workspaceId) }),
        qc.invalidateQueries({ queryKey: workspacesQueryKey, exact: true }),
      ]),
  });
}

export function useRemoveMember(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, revokeKeys }: { userId: string; revokeKeys: boolean }) =>
      removeMember(workspaceId, userId, revokeKeys),
    // their invitations and maybe their keys were revoked too
    onSettled: () =>
      Promise.all(
        [membersQueryKey(workspaceId), invitationsQueryKey(workspaceId), keysQueryKey(workspaceId)].map(
          (queryKey) => qc.invalidateQueries({ queryKey }),
        ),
      ),
  });
}

export function useLeaveWorkspace(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => leaveWorkspace(workspaceId),
    onSuccess: () => qc.invalidateQueries({ queryKey: workspacesQueryKey, exact: true }),
  });
}

export function useInvitations(workspaceId: string, enabled = true) {
  return useQuery({
    queryKey: invitationsQueryKey(workspaceId),
    queryFn: ({ signal }) => listInvitations(workspaceId, signal),
    enabled,
  });
}

export function useCreateInvitation(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ email, role }: { email: string; role: Role }) => createInvitation(workspaceId, email, role),
    onSettled: () => qc.invalidateQueries({ queryKey: invitationsQueryKey(workspaceId) }),
  });
}

export function useRevokeInvitation(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (invitationId: string) => revokeInvitation(workspaceId, invitationId),
    onSettled: () => qc.invalidateQueries({ queryKey: invitationsQueryKey(workspaceId) }),
  });
}
