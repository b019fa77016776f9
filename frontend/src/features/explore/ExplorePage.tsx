import { useCallback, useMemo, useState, type ReactElement, type ReactNode } from "react";
import { useCurrentWorkspace } from "@/api/useCurrentWorkspace";
import { canEdit } from "@/api/useWorkspaces";
import type { EditorError } from "@/components/query-editor/DqlEditor";
import { QueriesEditor } from "@/components/query-editor/QueriesEditor";
import { QueryError } from "@/components/query-editor/QueryError";
import { useQueryCompletion } from "@/components/query-editor/useQueryCompletion";
import { RefreshPicker } from "@/components/time/RefreshPicker";
import { TimeRangePicker } from "@/components/time/TimeRangePicker";
import { Button } from "@/components/ui/Button";
import { ShareDialog } from "@/components/ui/ShareDialog";
import { byteOffsetToIndex } from "@/lib/dql/offsets";
import { languageOf, type QueryLanguage } from "@/lib/dql/promql";
import { queryRef, type QueryItem } from "@/lib/dql/queryRefs";
import { parseRefresh } from "@/lib/refresh";
import type { TimeRangeSpec } from "@/lib/time";
import { useDocumentTitle } from "@/lib/useDocumentTitle";
import { useRefreshParam, useStringParam, useTimeRangeParam } from "@/lib/useUrlState";
import { ExploreResult, VIEWS, type View } from "./components/ExploreResult";
import { QueryHistoryPicker } from "./components/QueryHistoryPicker";
import { useExploreQueries } from "./hooks/useExploreQueries";
import { useExploreRun, type QueryAnswer } from "./hooks/useExploreRun";
import { pushHistory, readHistory } from "./queryHistory";
import "./explore.css";

/** The editor's name: "DQL query" (or "PromQL query") alone, "Query B" among several. */
const editorLabel = (ref?: string, language?: QueryLanguage): string =>
  ref ? `Query ${ref}` : language === "promql" ? "PromQL query" : "DQL query";

/** What Explore hands the tools beside its query history (saved queries). */
export interface ExploreQueryTools {
  workspaceId: string;
  /** The first query as its editor shows it. */
  query: string;
  /** Whether the person may change what the workspace keeps (editors and above). */
  canEdit: boolean;
  /** Puts `query` in the first editor and runs it. */
  onOpen: (query: string) => void;
}

/** What Explore hands the actions in its result's header (shown to editors, with a query). */
export interface ExploreResultActions {
  workspaceId: string;
  /** The queries as last run (the link's), with their legend formats and hidden ones; never empty. */
  queries: readonly QueryItem[];
  /** The queries that ran, text and language, in order (hidden ones left out): empty when all are hidden. */
  ran: readonly { query: string; language: QueryLanguage }[];
  /** The view (line, area, bar, stat, table) and unit the result is drawn with. */
  view: string;
  unit: string;
  range: TimeRangeSpec;
}

/**
 * What other features add to Explore. The route composes them (`routes/ExploreRoute.tsx`):
 * a feature never imports another.
 */
export interface ExplorePageProps {
  /** Beside History: e.g. save and open saved queries. */
  queryTools?: (tools: ExploreQueryTools) => ReactNode;
  /** In the result's header: e.g. Add to dashboard, Create monitor. */
  resultActions?: (result: ExploreResultActions) => ReactNode;
}

/**
 * Explore: write DQL (one query or several, A to J), pick a time range, see the result as a
 * chart. The queries as last run, their legends and hidden ones live in the URL
 * (`queriesInUrl.ts`) with the rest of the state; what is typed and not run yet stays in the
 * editors.
 */
export function ExplorePage({ queryTools, resultActions }: ExplorePageProps = {}): ReactElement {
  const workspace = useCurrentWorkspace();
  useDocumentTitle(["Explore", workspace.name]);
  const { queries, shown, setQueries, change, add, remove, setFirst, dropTexts } = useExploreQueries();
  const [range, setRange] = useTimeRangeParam();

  const [viewParam, setView] = useStringParam("view", "line", { replace: true });
  const view: View = (VIEWS as readonly string[]).includes(viewParam) ? (viewParam as View) : "line";
  // `refresh=30s` in the URL, as on dashboards; none means off
  const [refresh, setRefresh] = useRefreshParam();
  const refreshMs = parseRefresh(refresh) ?? 0;
  // the unit of the values (the panel editor's list), for the axis, tooltip, table and stat
  const [unitParam, setUnit] = useStringParam("unit", "none");
  const unit = unitParam || "none";
  const [history, setHistory] = useState(() => readHistory(workspace.id));

  // what runs: the visible queries that say something
  const toRun = useMemo(
    () =>
      queries.flatMap((q, i) =>
        q.hidden || q.query.trim() === "" ? [] : [{ ref: queryRef(q, i), query: q.query, language: languageOf(q) }],
      ),
    [queries],
  );
  const run = useExploreRun({ workspaceId: workspace.id, queries: toRun, timeRange: range, refreshMs });

  const completion = useQueryCompletion(workspace.id);

  const onRun = useCallback(() => {
    // the first query ends on top of the history
    let recent = history;
    for (const q of [...shown].reverse()) if (!q.hidden) recent = pushHistory(workspace.id, q.query);
    setHistory(recent);
    dropTexts();
    if (shown.some((q, i) => q.query !== queries[i].query || languageOf(q) !== languageOf(queries[i]))) setQueries(shown);
    else if (toRun.length > 0) void run.refetch();
  }, [history, shown, queries, toRun, run, setQueries, dropTexts, workspace.id]);

  const data = run.isError ? undefined : run.data;
  const answers: readonly QueryAnswer[] = useMemo(() => data?.answers ?? [], [data]);
  const byRef = useMemo(() => new Map(answers.map((a) => [a.ref, a])), [answers]);
  const several = queries.length > 1;

  // each query's DQL error, underlined in its editor while it holds the text that ran
  const editorErrors = useMemo(() => {
    const out: Record<string, EditorError | undefined> = {};
    shown.forEach((q, i) => {
      const a = byRef.get(queryRef(q, i));
      if (!a?.error?.range || a.query !== q.query) return;
      out[queryRef(q, i)] = {
        from: byteOffsetToIndex(a.query, a.error.range.start),
        to: byteOffsetToIndex(a.query, a.error.range.end),
        message: a.error.message,
      };
    });
    return out;
  }, [shown, byRef]);
  const below = (ref: string): ReactNode => {
    const a = byRef.get(ref);
    return a?.error ? <QueryError error={a.error} query={a.query} name={several ? ref : undefined} /> : null;
  };

  const savable = queries.filter((q) => q.query.trim() !== "");

  const [sharing, setSharing] = useState(false);
  const onBrush = useCallback(
    ([a, b]: [number, number]) => setRange({ from: String(a), to: String(b) }),
    [setRange],
  );

  return (
    <div className="page explore">
      <div className="page-header">
        <h1>Explore</h1>
        <div className="toolbar">
          <TimeRangePicker value={range} onChange={setRange} />
          <RefreshPicker value={refresh} onChange={setRefresh} />
          <Button onClick={() => setSharing(true)} aria-haspopup="dialog">
            Share
          </Button>
          <Button variant="primary" onClick={onRun} data-testid="run-query" aria-keyshortcuts="Control+Enter">
            {several ? "Run queries" : "Run query"}
          </Button>
        </div>
      </div>
      <section className="card" aria-label={several ? "Queries" : "Query"}>
        <QueriesEditor
          queries={shown}
          onChange={change}
          onAdd={add}
          onRemove={remove}
          onRun={onRun}
          completion={completion}
          editorLabel={editorLabel}
          editorErrors={editorErrors}
          below={below}
        >
          <p className="muted small explore-hint">
            Ctrl+Enter (⌘+Enter) runs {several ? "every query" : "the query"}, Ctrl+Space suggests names, Tab moves on from
            the editor. In a legend, <code>{"{{host}}"}</code> is a tag&apos;s or label&apos;s value. Drag across the chart to zoom in.
          </p>
          <div className="explore-query-tools">
            {several ? (
              <span className="muted small" data-testid="first-query-note">
                History and saved queries work on query {queryRef(queries[0], 0)}
              </span>
            ) : null}
            <QueryHistoryPicker history={history} onPick={(q) => setFirst(q, false)} />
            {queryTools?.({
              workspaceId: workspace.id,
              query: shown[0].query,
              canEdit: canEdit(workspace.role),
              onOpen: (q) => setFirst(q, true),
            })}
          </div>
        </QueriesEditor>
      </section>
      <ExploreResult
        run={run}
        queries={queries}
        shown={shown}
        toRun={toRun}
        view={view}
        onViewChange={setView}
        unit={unit}
        onUnitChange={setUnit}
        onZoom={onBrush}
        actions={
          canEdit(workspace.role) && savable.length > 0
            ? resultActions?.({ workspaceId: workspace.id, queries: savable, ran: toRun, view, unit, range })
            : null
        }
      />
      {sharing ? (
        <ShareDialog what={several ? "these queries" : "this query"} range={range} onClose={() => setSharing(false)} />
      ) : null}
    </div>
  );
}
