import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { readAuditLog, type AuditQuery } from "../api";

export function useAuditLog(workspaceId: string, query: AuditQuery | undefined) {
  return useQuery({
    queryKey: ["workspaces", workspaceId, "audit", query],
    queryFn: ({ signal }) => readAuditLog(workspaceId, query ?? {}, signal),
    enabled: query !== undefined,
    placeholderData: keepPreviousData,
  });
}
