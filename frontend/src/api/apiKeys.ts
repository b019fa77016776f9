import { keysCreateKey, keysReadKeys, keysRevokeKey } from "@/client/sdk.gen";
import type { ApiKeyCreated, ApiKeyPublic, ApiKeysPublic } from "@/client/types.gen";
import "@/lib/apiClient";

export type ApiKey = ApiKeyPublic;
export type KeyScope = ApiKeyPublic["scope"];

export async function listKeys(workspaceId: string, signal?: AbortSignal): Promise<ApiKeysPublic> {
  const res = await keysReadKeys({ path: { workspace_id: workspaceId }, signal, throwOnError: true });
  return res.data;
}

export async function createKey(workspaceId: string, name: string, scope: KeyScope): Promise<ApiKeyCreated> {
  const res = await keysCreateKey({ path: { workspace_id: workspaceId }, body: { name, scope }, throwOnError: true });
  return res.data;
}

export async function revokeKey(workspaceId: string, keyId: string): Promise<ApiKey> {
  const res = await keysRevokeKey({ path: { workspace_id: workspaceId, key_id: keyId }, throwOnError: true });
  return res.data;
}
