import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createSilence, deleteSilence, listSilences, updateSilence, type SilenceCreate, type SilenceUpdate } from "../api";
import { alertingKey } from "./keys";

export function useSilences(workspaceId: string) {
  return useQuery({
    queryKey: [...alertingKey(workspaceId), "silences"],
    queryFn: ({ signal }) => listSilences(workspaceId, signal),
    refetchInterval: 30_000,
  });
}

// A silence changes what is muted: monitors, groups and alerts are asked again.
export function useCreateSilence(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: SilenceCreate) => createSilence(workspaceId, body),
    onSettled: () => qc.invalidateQueries({ queryKey: alertingKey(workspaceId) }),
  });
}

export function useUpdateSilence(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: SilenceUpdate }) => updateSilence(workspaceId, id, changes),
    onSettled: () => qc.invalidateQueries({ queryKey: alertingKey(workspaceId) }),
  });
}

export function useDeleteSilence(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteSilence(workspaceId, id),
    onSettled: () => qc.invalidateQueries({ queryKey: alertingKey(workspaceId) }),
  });
}
