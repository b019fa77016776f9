/**
 * Finding a dashboard in the list: a search over titles and tags, and tags to narrow down to.
 * Both live in the list's URL (`?q=cpu&tag=hosts&tag=prod`), so a filtered list is a link.
 */

/** What the list is narrowed to. */
export interface DashboardFilter {
  /** Words typed in the search field; every one must appear in the title or a tag (any case). */
  search: string;
  /** Tags a dashboard must all have (exact names). */
  tags: readonly string[];
}

/** The part of a dashboard the filter looks at. */
export interface Filterable {
  title: string;
  tags: readonly string[];
}

export const NO_FILTER: DashboardFilter = { search: "", tags: [] };

/** The search parameters the filter is kept in. */
export const SEARCH_PARAM = "q";
export const TAG_PARAM = "tag";

/** The search's words, lower case, without blanks. */
export function searchWords(search: string): string[] {
  return search.toLowerCase().split(/\s+/).filter(Boolean);
}

/** True when the filter leaves anything out: some word typed or some tag chosen. */
export function isFiltering(filter: DashboardFilter): boolean {
  return filter.tags.length > 0 || searchWords(filter.search).length > 0;
}

/** The dashboards matching `filter`, in the list's order. */
export function filterDashboards<T extends Filterable>(list: readonly T[], filter: DashboardFilter): T[] {
  const words = searchWords(filter.search);
  if (words.length === 0 && filter.tags.length === 0) return [...list];
  return list.filter((d) => {
    if (!filter.tags.every((t) => d.tags.includes(t))) return false;
    if (words.length === 0) return true;
    const fields = [d.title, ...d.tags].map((f) => f.toLowerCase());
    return words.every((w) => fields.some((f) => f.includes(w)));
  });
}

/** `tags` with `tag` added (at the end) or, when already there, taken out. */
export function toggleTag(tags: readonly string[], tag: string): string[] {
  return tags.includes(tag) ? tags.filter((t) => t !== tag) : [...tags, tag];
}

/** The filter a URL carries: `q` and each `tag` (repeated; blanks and repeats dropped). */
export function filterFromParams(params: URLSearchParams): DashboardFilter {
  const tags = [...new Set(params.getAll(TAG_PARAM).filter((t) => t.trim() !== ""))];
  return { search: params.get(SEARCH_PARAM) ?? "", tags };
}

/** `params` carrying `filter` instead of the one they had; other parameters are kept. */
export function withFilterParams(params: URLSearchParams, filter: DashboardFilter): URLSearchParams {
  const next = new URLSearchParams(params);
  if (searchWords(filter.search).length > 0) next.set(SEARCH_PARAM, filter.search);
  else next.delete(SEARCH_PARAM);
  next.delete(TAG_PARAM);
  for (const tag of filter.tags) next.append(TAG_PARAM, tag);
  return next;
}

/** "a", "a and b", "a, b and c". */
function listOf(items: readonly string[]): string {
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** Says what nothing matched, for the list's empty state. */
export function describeNoMatch(filter: DashboardFilter): string {
  const search = searchWords(filter.search).length > 0 ? `“${filter.search.trim()}”` : "";
  const tags =
    filter.tags.length === 0 ? "" : `${filter.tags.length === 1 ? "the tag" : "the tags"} ${listOf(filter.tags)}`;
  if (search && tags) return `No dashboard with ${tags} matches ${search}.`;
  if (tags) return `No dashboard has ${tags}.`;
  if (search) return `No dashboard title or tag matches ${search}.`;
  return "No dashboards.";
}

/** "3 of 12 dashboards". */
export function matchCount(shown: number, total: number): string {
  return `${shown} of ${total} ${total === 1 ? "dashboard" : "dashboards"}`;
}
