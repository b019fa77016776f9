import type { PanelQuery } from "@/client/types.gen";

/**
 * One query of several, as a dashboard panel stores it and Explore keeps it in the link:
 * its reference (`A`, `B` …), the DQL, how its series are named in the legend (`{{host}}`)
 * and whether it is left out of the drawing (kept, not run).
 */
export type QueryItem = PanelQuery;

/** At most this many queries in Explore and in a panel (the dashboard schema's limit). */
export const MAX_QUERIES = 10;

/** The reference of the query at `index`: its own, else the letter of its place (`A` for the first). */
export function queryRef(query: Pick<QueryItem, "ref_id">, index: number): string {
  return query.ref_id || String.fromCharCode(65 + index);
}

/** The first reference (`A` … `Z`) no query has yet. */
export function nextRefId(queries: readonly QueryItem[]): string {
  const used = new Set(queries.map(queryRef));
  for (let c = 65; c <= 90; c += 1) {
    const id = String.fromCharCode(c);
    if (!used.has(id)) return id;
  }
  return `Q${queries.length + 1}`;
}

/** References of the queries still empty. */
export function emptyQueries(queries: readonly QueryItem[]): string[] {
  return queries.flatMap((q, i) => (q.query.trim() === "" ? [queryRef(q, i)] : []));
}
