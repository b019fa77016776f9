import { DEFAULT_QUERY } from "./dql";
import { languageOf } from "./promql";
import { MAX_QUERIES, queryRef, type QueryItem } from "./queryRefs";

/*
 * Explore's queries in its link, so that a link reopens all of them:
 *
 *   ?q=M::cpu:(avg(usage_user)) BY host&legend={{host}} cpu
 *   &q.B=rate(node_cpu_seconds_total[5m])&lang.B=promql&legend.B={{cpu}}
 *   &hide=B
 *
 * - `q` is query A, `q.<ref>` each other query (`q.B`, `q.C` …), in the order they are shown;
 * - `lang` / `lang.<ref>` its language when it is not DQL (`promql`);
 * - `legend` / `legend.<ref>` its legend format, when it has one;
 * - `hide=<ref>`, repeated, the queries left out of the drawing (kept, not run).
 *
 * A link of one query is what it always was (`q=…&legend=…`); without any `q` Explore opens
 * with the default query. A link whose queries all have a reference (`q.B` without `q`) has
 * no query A: it was removed.
 */

/** The reference a search parameter holds the query of: `q` → A, `q.B` → B. */
function refOfKey(key: string): string | undefined {
  if (key === "q") return "A";
  const m = /^q\.([A-Z][A-Z0-9]{0,3})$/.exec(key);
  return m?.[1];
}

const legendKey = (ref: string): string => (ref === "A" ? "legend" : `legend.${ref}`);
const langKey = (ref: string): string => (ref === "A" ? "lang" : `lang.${ref}`);
const queryKey = (ref: string): string => (ref === "A" ? "q" : `q.${ref}`);

function isQueryParam(key: string): boolean {
  return (
    key === "hide" ||
    key === "legend" ||
    key.startsWith("legend.") ||
    key === "lang" ||
    key.startsWith("lang.") ||
    refOfKey(key) !== undefined
  );
}

/** Explore's queries from its link (`q`, `q.B` …, `lang`, `legend`, `legend.B` …, `hide`), at most MAX_QUERIES. */
export function queriesFromSearch(params: URLSearchParams): QueryItem[] {
  const hidden = new Set(params.getAll("hide"));
  const item = (ref: string, query: string): QueryItem => {
    const q: QueryItem = { ref_id: ref, query };
    if (params.get(langKey(ref)) === "promql") q.language = "promql";
    const legend = params.get(legendKey(ref));
    if (legend) q.legend_format = legend;
    if (hidden.has(ref)) q.hidden = true;
    return q;
  };
  const out: QueryItem[] = [];
  for (const [key, value] of params) {
    const ref = refOfKey(key);
    if (ref === undefined || out.length >= MAX_QUERIES || out.some((q) => q.ref_id === ref)) continue;
    out.push(item(ref, value));
  }
  return out.length > 0 ? out : [item("A", DEFAULT_QUERY)];
}

/**
 * `params` with Explore's queries replaced by `queries`, where the first of them was (so a
 * link of one query keeps its order); every other parameter stays as it is. A lone query A
 * that is the default query leaves `q` out, as before.
 */
export function withQueries(params: URLSearchParams, queries: readonly QueryItem[]): URLSearchParams {
  const next = new URLSearchParams();
  let written = false;
  const write = (): void => {
    written = true;
    const onlyDefault = queries.length === 1 && queryRef(queries[0], 0) === "A" && queries[0].query === DEFAULT_QUERY;
    queries.forEach((q, i) => {
      const ref = queryRef(q, i);
      if (!onlyDefault) next.append(queryKey(ref), q.query);
      if (languageOf(q) !== "dql") next.append(langKey(ref), languageOf(q));
      if (q.legend_format) next.append(legendKey(ref), q.legend_format);
    });
    queries.forEach((q, i) => {
      if (q.hidden) next.append("hide", queryRef(q, i));
    });
  };
  for (const [key, value] of params) {
    if (!isQueryParam(key)) next.append(key, value);
    else if (!written) write();
  }
  if (!written) write();
  return next;
}
