import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  createSavedQuery,
  deleteSavedQuery,
  listSavedQueries,
  updateSavedQuery,
  type SavedQueryCreate,
  type SavedQueryUpdate,
} from "../api";

export const savedQueriesKey = (workspaceId: string): unknown[] => ["workspaces", workspaceId, "saved-queries"];

export function useSavedQueries(workspaceId: string) {
  return useQuery({
    queryKey: savedQueriesKey(workspaceId),
    queryFn: ({ signal }) => listSavedQueries(workspaceId, signal),
  });
}

export function useCreateSavedQuery(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: SavedQueryCreate) => createSavedQuery(workspaceId, body),
    onSettled: () => qc.invalidateQueries({ queryKey: savedQueriesKey(workspaceId) }),
  });
}

export function useUpdateSavedQuery(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: SavedQueryUpdate }) => updateSavedQuery(workspaceId, id, changes),
    onSettled: () => qc.invalidateQueries({ queryKey: savedQueriesKey(workspaceId) }),
  });
}

export function useDeleteSavedQuery(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteSavedQuery(workspaceId, id),
    onSettled: () => qc.invalidateQueries({ queryKey: savedQueriesKey(workspaceId) }),
  });
}
