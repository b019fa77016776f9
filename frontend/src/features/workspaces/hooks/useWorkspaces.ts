import { queryOptions, useMutation, useQuery, useQueryClient, type UseQueryResult } from "@tanstack/react-query";
import {
  acceptInvitation,
  createWorkspace,
  listWorkspaces,
  readInvitation,
  type Invitation,
  type Workspace,
  type Workspaces,
} from "../api";

export const workspacesQueryKey = ["workspaces"] as const;

/** The user's workspaces; shared by the page hooks and the router's prefetch. */
export const workspacesQuery = queryOptions({
  queryKey: workspacesQueryKey,
  queryFn: ({ signal }) => listWorkspaces(signal),
  staleTime: 60_000,
});

export function useWorkspaces(): UseQueryResult<Workspaces> {
  return useQuery(workspacesQuery);
}

/** The workspace with `id` among the user's, or undefined while loading / when not a member. */
export function useWorkspace(id: string | undefined): Workspace | undefined {
  const { data } = useWorkspaces();
  return data?.data.find((w) => w.id === id);
}

export function useCreateWorkspace() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => createWorkspace(name),
    onSettled: () => qc.invalidateQueries({ queryKey: workspacesQueryKey }),
  });
}

/** What the invitation behind `code` offers; nothing is asked for an empty code. */
export function useInvitation(code: string): UseQueryResult<Invitation> {
  return useQuery({
    queryKey: ["invitation", code],
    queryFn: ({ signal }) => readInvitation(code, signal),
    enabled: code !== "",
  });
}

export function useAcceptInvitation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => acceptInvitation(code),
    onSettled: (_ws, _err, code) =>
      Promise.all([
        qc.invalidateQueries({ queryKey: workspacesQueryKey }),
        qc.invalidateQueries({ queryKey: ["invitation", code] }),
      ]),
  });
}

/** Roles that may change dashboards, saved queries and settings. */
export function canEdit(role: string | undefined): boolean {
  return role === "owner" || role === "admin" || role === "editor";
}

export function canAdmin(role: string | undefined): boolean {
  return role === "owner" || role === "admin";
}
