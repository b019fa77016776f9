import { languageOf } from "@/lib/dql/promql";
import { queryRef, type QueryItem } from "@/lib/dql/queryRefs";

/*
 * What the editors show over the queries in the link. Text typed into an editor, and a
 * language chosen for it, wait there until the queries run; a legend format or a Hide box goes into the link at once, but the link
 * changes a moment later (the router draws a navigation in a transition), so the field shows
 * the new value meanwhile. Each edit remembers the value the link held when it was made and
 * counts only while the link still holds that value: once the link changes (Back, another
 * link) the link's value is shown. A legend or Hide edit is forgotten once the link has it
 * (`settleEdits`), so that Back shows the link's value again.
 */

type Field = "query" | "language" | "legend_format" | "hidden";

interface Edit {
  over: string | boolean;
  value: string | boolean;
}

/** Edits by `<ref> <field>`. */
export type QueryEdits = Readonly<Record<string, Edit>>;

const FIELDS: readonly Field[] = ["query", "language", "legend_format", "hidden"];

/** The fields that wait for the queries to run (the others go into the link at once). */
const RUN_FIELDS: readonly Field[] = ["query", "language"];
const waitsForRun = (key: string): boolean => RUN_FIELDS.some((f) => key.endsWith(` ${f}`));

function valueOf(q: QueryItem, field: Field): string | boolean {
  if (field === "hidden") return q.hidden === true;
  if (field === "legend_format") return q.legend_format ?? "";
  if (field === "language") return languageOf(q);
  return q.query;
}

/** `q` with `field` set, compact: no empty legend format, no `hidden: false`, no `language: "dql"`. */
function withValue(q: QueryItem, field: Field, value: string | boolean): QueryItem {
  const next: QueryItem = { ...q };
  if (field === "query") next.query = String(value);
  else if (field === "language") {
    if (value === "promql") next.language = "promql";
    else delete next.language;
  } else if (field === "legend_format") {
    if (value) next.legend_format = String(value);
    else delete next.legend_format;
  } else if (value === true) next.hidden = true;
  else delete next.hidden;
  return next;
}

/** `edits` with `patch` made to `query` (the link's query at `index`). */
export function editQuery(edits: QueryEdits, query: QueryItem, index: number, patch: Partial<QueryItem>): QueryEdits {
  const ref = queryRef(query, index);
  const next = { ...edits };
  for (const field of FIELDS) {
    if (!(field in patch)) continue;
    const value = valueOf({ ...query, ...patch }, field);
    next[`${ref} ${field}`] = { over: valueOf(query, field), value };
  }
  return next;
}

/** `edits` without those of the query `ref`. */
export function dropEdits(edits: QueryEdits, ref: string): QueryEdits {
  return Object.fromEntries(Object.entries(edits).filter(([key]) => !key.startsWith(`${ref} `)));
}

/** `edits` without the typed text and chosen languages (the queries ran: they are in the link now). */
export function dropTexts(edits: QueryEdits): QueryEdits {
  return Object.fromEntries(Object.entries(edits).filter(([key]) => !waitsForRun(key)));
}

/** The link's queries as the editors show them: each edit made over the value the link still holds. */
export function applyEdits(queries: readonly QueryItem[], edits: QueryEdits): QueryItem[] {
  return queries.map((q, i) => {
    const ref = queryRef(q, i);
    let shown = q;
    for (const field of FIELDS) {
      const edit = edits[`${ref} ${field}`];
      if (edit && edit.over === valueOf(q, field)) shown = withValue(shown, field, edit.value);
    }
    return shown;
  });
}

/**
 * `edits` without the legend and Hide edits the link now holds or no longer counts, and without
 * the edits of queries the link no longer has; the same object when there are none (typed
 * text and a chosen language wait for the run).
 */
export function settleEdits(queries: readonly QueryItem[], edits: QueryEdits): QueryEdits {
  const current = new Map<string, string | boolean>();
  queries.forEach((q, i) => FIELDS.forEach((field) => current.set(`${queryRef(q, i)} ${field}`, valueOf(q, field))));
  const done = Object.entries(edits).filter(([key, edit]) => {
    const now = current.get(key);
    if (now === undefined) return true;
    if (waitsForRun(key)) return false;
    return now === edit.value || now !== edit.over;
  });
  if (done.length === 0) return edits;
  const gone = new Set(done.map(([key]) => key));
  return Object.fromEntries(Object.entries(edits).filter(([key]) => !gone.has(key)));
}
