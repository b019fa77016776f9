/** Every alerting query of a workspace starts with this key: a change invalidates them all. */
export const alertingKey = (workspaceId: string): unknown[] => ["workspaces", workspaceId, "alerting"];
