import { limitsReadLimits } from "@/client/sdk.gen";
import type { LimitsPublic } from "@/client/types.gen";
import "@/lib/apiClient";

/** A workspace's limits: the settings page edits them, the alerting pages check against them. */
export type Limits = LimitsPublic;

export async function readLimits(workspaceId: string, signal?: AbortSignal): Promise<Limits> {
  const res = await limitsReadLimits({ path: { workspace_id: workspaceId }, signal, throwOnError: true });
  return res.data;
}
