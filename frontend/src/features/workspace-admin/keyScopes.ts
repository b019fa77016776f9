import type { KeyScope } from "@/api/apiKeys";

export interface KeyScopeInfo {
  /** How the keys table names the scope. */
  label: string;
  /** What a key of the scope may do, in a few words. */
  help: string;
  /** A service token: the REST API as Authorization: Bearer, with the role of its scope. */
  token: boolean;
}

/** What each scope may do, as the keys page explains it (the backend's table is app/core/keys.py). */
export const KEY_SCOPES: Record<KeyScope, KeyScopeInfo> = {
  ingest: { label: "ingest", help: "writes points through the gateway", token: false },
  query: { label: "query", help: "reads with DQL and PromQL", token: false },
  editor: {
    label: "editor token",
    help: "the REST API as an editor: dashboards, saved queries, monitors, silences, benchmarks, queries",
    token: true,
  },
  admin: {
    label: "admin token",
    help: "the REST API as an admin (members, limits, channels too), but not keys or tokens",
    token: true,
  },
};

export const isServiceToken = (scope: KeyScope): boolean => KEY_SCOPES[scope].token;

/** A first request with a new service token, which reads it from $VIGIL_TOKEN rather than the command line. */
export function tokenExample(origin: string, workspaceId: string): string {
  return `curl -H "Authorization: Bearer $VIGIL_TOKEN" ${origin}/api/v1/workspaces/${workspaceId}/dashboards`;
}
