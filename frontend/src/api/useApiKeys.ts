import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createKey, listKeys, revokeKey, type KeyScope } from "./apiKeys";

export const keysQueryKey = (workspaceId: string): unknown[] => ["workspaces", workspaceId, "keys"];

export function useApiKeys(workspaceId: string, enabled = true) {
  return useQuery({
    queryKey: keysQueryKey(workspaceId),
    queryFn: ({ signal }) => listKeys(workspaceId, signal),
    enabled,
  });
}

export function useCreateKey(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ name, scope }: { name: string; scope: KeyScope }) => createKey(workspaceId, name, scope),
    onSettled: () => qc.invalidateQueries({ queryKey: keysQueryKey(workspaceId) }),
  });
}

export function useRevokeKey(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) => revokeKey(workspaceId, keyId),
    onSettled: () => qc.invalidateQueries({ queryKey: keysQueryKey(workspaceId) }),
  });
}
