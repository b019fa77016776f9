import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createChannel, deleteChannel, listChannels, testChannel, updateChannel, type ChannelCreate, type ChannelUpdate } from "../api";
import { alertingKey } from "./keys";

const channelsKey = (workspaceId: string): unknown[] => [...alertingKey(workspaceId), "channels"];

/** The workspace's channels (editors and up may read them; `enabled` false for viewers). */
export function useChannels(workspaceId: string, enabled = true) {
  return useQuery({
    queryKey: channelsKey(workspaceId),
    queryFn: ({ signal }) => listChannels(workspaceId, signal),
    enabled,
    refetchInterval: enabled ? 30_000 : false,
  });
}

export function useCreateChannel(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ChannelCreate) => createChannel(workspaceId, body),
    onSettled: () => qc.invalidateQueries({ queryKey: channelsKey(workspaceId) }),
  });
}

export function useUpdateChannel(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: ChannelUpdate }) => updateChannel(workspaceId, id, changes),
    onSettled: () => qc.invalidateQueries({ queryKey: channelsKey(workspaceId) }),
  });
}

export function useDeleteChannel(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteChannel(workspaceId, id),
    onSettled: () => qc.invalidateQueries({ queryKey: alertingKey(workspaceId) }),
  });
}

/** Sends a test notification; the channel's latest outcome and the notifications change with it. */
export function useTestChannel(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => testChannel(workspaceId, id),
    onSettled: () => qc.invalidateQueries({ queryKey: alertingKey(workspaceId) }),
  });
}
