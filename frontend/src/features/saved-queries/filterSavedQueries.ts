import type { SavedQuery } from "./api";

/**
 * Saved queries matching `search`: every word must appear in the name, the description or
 * the query text (any case). Sorted by name.
 */
export function filterSavedQueries(list: SavedQuery[], search: string): SavedQuery[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  return list
    .filter((q) => {
      const hay = `${q.name}\n${q.description}\n${q.query}`.toLowerCase();
      return words.every((w) => hay.includes(w));
    })
    .sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: "base" }));
}

/** The saved query whose text is `query` (ignoring surrounding whitespace), if any. */
export function findSavedByText(list: SavedQuery[], query: string): SavedQuery | undefined {
  const q = query.trim();
  return list.find((s) => s.query.trim() === q);
}

export interface SavedQueryDraft {
  name: string;
  description: string;
}

/** Checks a save form against the backend's bounds; messages name the field. */
export function validateSavedQuery(draft: SavedQueryDraft, query: string): { name?: string; description?: string; query?: string } {
  const errors: { name?: string; description?: string; query?: string } = {};
  const name = draft.name.trim();
  if (!name) errors.name = "Give the query a name.";
  else if (name.length > 200) errors.name = "Use at most 200 characters for the name.";
  if (draft.description.length > 2000) errors.description = "Use at most 2,000 characters for the description.";
  if (!query.trim()) errors.query = "Write a query before saving it.";
  return errors;
}
