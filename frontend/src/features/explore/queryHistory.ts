/** The last queries a user ran, per workspace, newest first, in localStorage. */
const MAX = 30;
const key = (workspaceId: string): string => `vigil.queryHistory.${workspaceId}`;

export function readHistory(workspaceId: string): string[] {
  try {
    const raw = window.localStorage.getItem(key(workspaceId));
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(parsed) ? parsed.filter((q): q is string => typeof q === "string") : [];
  } catch {
    return [];
  }
}

/** Records `query` at the top (moving it if already there); returns the new list. */
export function pushHistory(workspaceId: string, query: string): string[] {
  const q = query.trim();
  if (!q) return readHistory(workspaceId);
  const next = [q, ...readHistory(workspaceId).filter((h) => h !== q)].slice(0, MAX);
  try {
    window.localStorage.setItem(key(workspaceId), JSON.stringify(next));
  } catch {
    /* storage full or disabled: history is a convenience */
  }
  return next;
}
