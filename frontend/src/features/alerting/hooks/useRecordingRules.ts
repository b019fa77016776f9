import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  createRecordingRule,
  deleteRecordingRule,
  listRecordingRules,
  updateRecordingRule,
  type RecordingRuleCreate,
  type RecordingRuleUpdate,
} from "../api";
import { alertingKey } from "./keys";

const rulesKey = (workspaceId: string): unknown[] => [...alertingKey(workspaceId), "recording-rules"];

export function useRecordingRules(workspaceId: string) {
  return useQuery({
    queryKey: rulesKey(workspaceId),
    queryFn: ({ signal }) => listRecordingRules(workspaceId, signal),
    refetchInterval: 30_000,
  });
}

export function useCreateRecordingRule(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: RecordingRuleCreate) => createRecordingRule(workspaceId, body),
    onSettled: () => qc.invalidateQueries({ queryKey: rulesKey(workspaceId) }),
  });
}

export function useUpdateRecordingRule(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: RecordingRuleUpdate }) =>
      updateRecordingRule(workspaceId, id, changes),
    onSettled: () => qc.invalidateQueries({ queryKey: rulesKey(workspaceId) }),
  });
}

export function useDeleteRecordingRule(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteRecordingRule(workspaceId, id),
    onSettled: () => qc.invalidateQueries({ queryKey: rulesKey(workspaceId) }),
  });
}
