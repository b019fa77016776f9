import {
  savedQueriesCreateSavedQuery,
  savedQueriesDeleteSavedQuery,
  savedQueriesReadSavedQueries,
  savedQueriesUpdateSavedQuery,
} from "@/client/sdk.gen";
import type { SavedQueriesPublic, SavedQueryCreate, SavedQueryPublic, SavedQueryUpdate } from "@/client/types.gen";
import "@/lib/apiClient";

export type SavedQuery = SavedQueryPublic;
export type { SavedQueryCreate, SavedQueryUpdate };

export async function listSavedQueries(workspaceId: string, signal?: AbortSignal): Promise<SavedQueriesPublic> {
  const res = await savedQueriesReadSavedQueries({ path: { workspace_id: workspaceId }, signal, throwOnError: true });
  return res.data;
}

export async function createSavedQuery(workspaceId: string, body: SavedQueryCreate): Promise<SavedQuery> {
  const res = await savedQueriesCreateSavedQuery({ path: { workspace_id: workspaceId }, body, throwOnError: true });
  return res.data;
}

export async function updateSavedQuery(workspaceId: string, queryId: string, body: SavedQueryUpdate): Promise<SavedQuery> {
  const res = await savedQueriesUpdateSavedQuery({
    path: { workspace_id: workspaceId, query_id: queryId },
    body,
    throwOnError: true,
  });
  return res.data;
}

export async function deleteSavedQuery(workspaceId: string, queryId: string): Promise<void> {
  await savedQueriesDeleteSavedQuery({ path: { workspace_id: workspaceId, query_id: queryId }, throwOnError: true });
}
