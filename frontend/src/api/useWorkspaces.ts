import {
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
  type UseQueryResult,
} from "@tanstack/react-query";
import {
  acceptInvitation,
  createWorkspace,
  deleteWorkspace,
  listWorkspaces,
  readInvitation,
  readMeta,
  renameWorkspace,
  type Invitation,
  type Meta,
  type Workspace,
  type Workspaces,
} from "./workspaces";

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

/** Applies `change` to the cached workspace list, if there is one. */
function updateCachedList(qc: QueryClient, change: (list: Workspace[]) => Workspace[]): void {
  qc.setQueryData<Workspaces>(workspacesQueryKey, (old) => {
    if (!old) return old;
    const data = change(old.data);
    return { data, count: data.length };
  });
}

export function useCreateWorkspace() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => createWorkspace(name),
    // In the list at once, so the page the new workspace opens on finds it.
    onSuccess: (ws) => updateCachedList(qc, (list) => [...list.filter((w) => w.id !== ws.id), ws]),
    onSettled: () => qc.invalidateQueries({ queryKey: workspacesQueryKey, exact: true }),
  });
}

export function useRenameWorkspace(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => renameWorkspace(workspaceId, name),
    // The picker, the page titles and the settings read the name from the list.
    onSuccess: (ws) => updateCachedList(qc, (list) => list.map((w) => (w.id === ws.id ? { ...w, name: ws.name } : w))),
    onSettled: () => qc.invalidateQueries({ queryKey: workspacesQueryKey, exact: true }),
  });
}

/**
 * Deletes the workspace (its name confirms it). It leaves the cached list at once, so the page
 * the caller moves on to (in the mutation's own `onSuccess`) no longer offers it, and its cached
 * data goes.
 */
export function useDeleteWorkspace(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (confirmName: string) => deleteWorkspace(workspaceId, confirmName),
    onSuccess: () => {
      updateCachedList(qc, (list) => list.filter((w) => w.id !== workspaceId));
      qc.removeQueries({ queryKey: [...workspacesQueryKey, workspaceId] });
      // Not awaited: the caller leaves the deleted workspace's pages right away.
      void qc.invalidateQueries({ queryKey: workspacesQueryKey, exact: true });
    },
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

/** Facts about this installation (the gateway's public address); they do not change while the page is open. */
export function useMeta(): UseQueryResult<Meta> {
  return useQuery({ queryKey: ["meta"], queryFn: ({ signal }) => readMeta(signal), staleTime: Infinity });
}

/** Roles that may change dashboards, saved queries and settings. */
export function canEdit(role: string | undefined): boolean {
  return role === "owner" || role === "admin" || role === "editor";
}

export function canAdmin(role: string | undefined): boolean {
  return role === "owner" || role === "admin";
}
