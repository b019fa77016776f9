import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { limitsQueryKey } from "@/api/useLimits";
import { readUsage, readUsageHistory, updateLimits, type LimitsUpdate } from "../api";

const usageKey = (workspaceId: string): unknown[] => ["workspaces", workspaceId, "usage"];

export function useUpdateLimits(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (changes: LimitsUpdate) => updateLimits(workspaceId, changes),
    onSuccess: (limits) => qc.setQueryData(limitsQueryKey(workspaceId), limits),
    onSettled: () => qc.invalidateQueries({ queryKey: limitsQueryKey(workspaceId) }),
  });
}

export function useUsage(workspaceId: string, enabled: boolean) {
  return useQuery({
    queryKey: usageKey(workspaceId),
    queryFn: ({ signal }) => readUsage(workspaceId, signal),
    enabled,
    refetchInterval: 60_000,
  });
}

export function useUsageHistory(workspaceId: string, hours: number, enabled: boolean) {
  return useQuery({
    queryKey: [...usageKey(workspaceId), "history", hours],
    queryFn: ({ signal }) => readUsageHistory(workspaceId, hours, signal),
    enabled,
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });
}
