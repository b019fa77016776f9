import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  createMonitor,
  deleteMonitor,
  listMonitors,
  previewMonitor,
  readGroups,
  readMonitor,
  updateMonitor,
  type MonitorCreate,
  type MonitorUpdate,
  type PreviewRequest,
} from "../api";
import { alertingKey } from "./keys";

/** States change with every evaluation: lists showing them ask again this often. */
export const LIVE_REFRESH_MS = 10_000;

const monitorsKey = (workspaceId: string): unknown[] => [...alertingKey(workspaceId), "monitors"];

export function useMonitors(workspaceId: string, { live = true }: { live?: boolean } = {}) {
  return useQuery({
    queryKey: monitorsKey(workspaceId),
    queryFn: ({ signal }) => listMonitors(workspaceId, signal),
    refetchInterval: live ? LIVE_REFRESH_MS : false,
  });
}

export function useMonitor(workspaceId: string, monitorId: string | undefined, { live = false } = {}) {
  return useQuery({
    queryKey: [...monitorsKey(workspaceId), monitorId],
    queryFn: ({ signal }) => readMonitor(workspaceId, monitorId ?? "", signal),
    enabled: monitorId !== undefined,
    refetchInterval: live ? LIVE_REFRESH_MS : false,
  });
}

export function useMonitorGroups(workspaceId: string, monitorId: string) {
  return useQuery({
    queryKey: [...monitorsKey(workspaceId), monitorId, "groups"],
    queryFn: ({ signal }) => readGroups(workspaceId, monitorId, signal),
    refetchInterval: LIVE_REFRESH_MS,
  });
}

export function useCreateMonitor(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: MonitorCreate) => createMonitor(workspaceId, body),
    onSettled: () => qc.invalidateQueries({ queryKey: alertingKey(workspaceId) }),
  });
}

export function useUpdateMonitor(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: MonitorUpdate }) => updateMonitor(workspaceId, id, changes),
    onSettled: () => qc.invalidateQueries({ queryKey: alertingKey(workspaceId) }),
  });
}

export function useDeleteMonitor(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteMonitor(workspaceId, id),
    onSettled: () => qc.invalidateQueries({ queryKey: alertingKey(workspaceId) }),
  });
}

/**
 * The monitor as written (saved or not) run over the last `hours`: its series and when it would
 * have fired. Nothing is asked while `request` is undefined (an incomplete form); the previous
 * answer stays while the next one is on its way.
 */
export function useMonitorPreview(workspaceId: string, request: PreviewRequest | undefined) {
  return useQuery({
    queryKey: [...alertingKey(workspaceId), "preview", request],
    queryFn: ({ signal }) => previewMonitor(workspaceId, request as PreviewRequest, signal),
    enabled: request !== undefined,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    retry: false,
  });
}
