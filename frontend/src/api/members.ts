import { membersReadMembers } from "@/client/sdk.gen";
import type { MemberPublic, MembersPublic } from "@/client/types.gen";
import "@/lib/apiClient";

export type Member = MemberPublic;

export const membersQueryKey = (workspaceId: string): unknown[] => ["workspaces", workspaceId, "members"];

/** The workspace's members with their roles (the settings' table, the names in a dashboard's history). */
export async function listMembers(workspaceId: string, signal?: AbortSignal): Promise<MembersPublic> {
  const res = await membersReadMembers({ path: { workspace_id: workspaceId }, signal, throwOnError: true });
  return res.data;
}
