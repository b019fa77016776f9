import { useCallback, useMemo, useState } from "react";
import { useSearchParams } from "react-router";
import { queriesFromSearch, withQueries } from "@/lib/dql/queriesInUrl";
import { languageOf } from "@/lib/dql/promql";
import { queryRef, type QueryItem } from "@/lib/dql/queryRefs";
import { applyEdits, dropEdits, dropTexts, editQuery, settleEdits, type QueryEdits } from "../queryEdits";

export interface ExploreQueries {
  /** The queries as last run: the link's. */
  queries: readonly QueryItem[];
  /** The queries as the editors show them: text typed and languages chosen and not run yet, legends and Hide boxes on their way into the link. */
  shown: readonly QueryItem[];
  setQueries: (next: readonly QueryItem[], options?: { replace?: boolean }) => void;
  /** An edit in the editor of query `i`. */
  change: (i: number, patch: Partial<QueryItem>) => void;
  add: (query: QueryItem) => void;
  remove: (i: number) => void;
  /** Puts `text` in the first query (history, saved queries); `runNow` runs it. */
  setFirst: (text: string, runNow: boolean) => void;
  /** Forgets the texts typed and not run (they are about to run). */
  dropTexts: () => void;
}

/**
 * Explore's queries: those in the link (as last run), and what the editors show over them
 * (`queryEdits.ts`). A legend or a Hide box goes into the link at once; a text only when the
 * queries run.
 */
/** `shown` with the text and language of `ran`, the query as last run. */
function asRun(shown: QueryItem, ran: QueryItem): QueryItem {
  const out: QueryItem = { ...shown, query: ran.query };
  if (languageOf(ran) === "promql") out.language = "promql";
  else delete out.language;
  return out;
}

export function useExploreQueries(): ExploreQueries {
  const [params, setParams] = useSearchParams();
  // the queries as last run, from the link
  const queries = useMemo(() => queriesFromSearch(params), [params]);
  const setQueries = useCallback(
    (next: readonly QueryItem[], { replace = false }: { replace?: boolean } = {}) =>
      setParams((prev) => withQueries(prev, next), { replace }),
    [setParams],
  );
  // what the editors show over the link: text typed and not run yet, a legend or Hide box
  // on its way into the link (`queryEdits.ts`)
  const [edits, setEdits] = useState<QueryEdits>({});
  const settled = settleEdits(queries, edits);
  if (settled !== edits) setEdits(settled);
  const shown = useMemo(() => applyEdits(queries, settled), [queries, settled]);

  const change = (i: number, patch: Partial<QueryItem>): void => {
    setEdits((e) => editQuery(e, queries[i], i, patch));
    // A legend names the series at once (no history entry for each key); Hide runs the others.
    // The link gets every legend and Hide box shown, with the queries (text and language) as
    // last run.
    if ("legend_format" in patch || "hidden" in patch) {
      const next = shown.map((q, j) => asRun({ ...(j === i ? { ...q, ...patch } : q) }, queries[j]));
      setQueries(next, { replace: !("hidden" in patch) });
    }
  };
  const add = (q: QueryItem): void => {
    setEdits((e) => dropEdits(e, queryRef(q, queries.length)));
    setQueries([...queries, q]);
  };
  const remove = (i: number): void => {
    setEdits((e) => dropEdits(e, queryRef(queries[i], i)));
    setQueries(queries.filter((_, j) => j !== i));
  };
  const setFirst = (text: string, runNow: boolean): void => {
    const first = queries[0];
    if (runNow) {
      setEdits((e) => dropEdits(e, queryRef(first, 0)));
      setQueries([{ ...first, query: text }, ...queries.slice(1)]);
    } else setEdits((e) => editQuery(e, first, 0, { query: text }));
  };

  const dropTyped = useCallback(() => setEdits(dropTexts), []);
  return { queries, shown, setQueries, change, add, remove, setFirst, dropTexts: dropTyped };
}
