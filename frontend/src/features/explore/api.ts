import { queryQueryRaw } from "@/client/sdk.gen";
import "@/lib/apiClient";
import type { DqlRequest, DqlResponse } from "./dql";

/** Runs DQL in one workspace with the signed-in user's session. */
export async function queryRaw(workspaceId: string, request: DqlRequest, signal?: AbortSignal): Promise<DqlResponse> {
  const res = await queryQueryRaw({ path: { workspace_id: workspaceId }, body: request, signal, throwOnError: true });
  return res.data;
}
