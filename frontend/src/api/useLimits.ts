import { useQuery } from "@tanstack/react-query";
import { readLimits } from "./limits";

export const limitsQueryKey = (workspaceId: string): unknown[] => ["workspaces", workspaceId, "limits"];

export function useLimits(workspaceId: string) {
  return useQuery({ queryKey: limitsQueryKey(workspaceId), queryFn: ({ signal }) => readLimits(workspaceId, signal) });
}
