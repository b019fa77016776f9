import { useCallback, useMemo, useState, type ReactElement, type ReactNode } from "react";
import { useSearchParams } from "react-router";
import { LinesChart } from "@/components/charts/LinesChart";
import { StatChart } from "@/components/charts/StatChart";
import { reducePoints } from "@/components/charts/statReduce";
import { UNITS } from "@/components/charts/units";
import { RefreshPicker } from "@/components/time/RefreshPicker";
import { TimeRangePicker } from "@/components/time/TimeRangePicker";
import { Button } from "@/components/ui/Button";
import { EmptyState } from "@/components/ui/EmptyState";
import { RadioGroup } from "@/components/ui/RadioGroup";
import { ShareDialog } from "@/components/ui/ShareDialog";
import { Spinner } from "@/components/ui/Spinner";
import { CreateMonitorLink } from "@/features/alerting/components/CreateMonitorLink";
import { SavedQueries } from "@/features/saved-queries/SavedQueries";
import { canEdit } from "@/features/workspaces/hooks/useWorkspaces";
import { downloadText } from "@/lib/download";
import { parseRefresh } from "@/lib/refresh";
import { useDocumentTitle } from "@/lib/useDocumentTitle";
import { useRefreshParam, useStringParam, useTimeRangeParam } from "@/lib/useUrlState";
import { useCurrentWorkspace } from "@/routes/useWorkspaceContext";
import { queryRaw } from "./api";
import { AddToDashboard } from "./components/AddToDashboard";
import { QueryError } from "./components/QueryError";
import { ResultLimitNotice } from "./components/ResultLimitNotice";
import { ResultTable } from "./components/ResultTable";
import { dqlCompletionSource } from "./editor/dqlCompletion";
import type { EditorError } from "./editor/DqlEditor";
import { byteOffsetToIndex } from "./editor/offsets";
import { QueriesEditor } from "./editor/QueriesEditor";
import { costSummary, mergeAnswers } from "./exploreResult";
import { useExploreRun, type QueryAnswer } from "./hooks/useExploreRun";
import { queriesFromSearch, withQueries } from "./queriesInUrl";
import { applyEdits, dropEdits, dropTexts, editQuery, settleEdits, type QueryEdits } from "./queryEdits";
import { pushHistory, readHistory } from "./queryHistory";
import { queryRef, type QueryItem } from "./queryRefs";
import { resultCut } from "./resultLimits";
import { csvFileName, resultCsv } from "./resultCsv";
import { chartSeriesOption, countPoints, toChartSeries } from "./toLineSeriesOption";
import "./explore.css";

const VIEWS = ["line", "area", "bar", "stat", "table"] as const;
type View = (typeof VIEWS)[number];
const VIEW_OPTIONS = VIEWS.map((v) => ({ value: v, label: v[0].toUpperCase() + v.slice(1) }));

/** The editor's name: "DQL query" alone, "Query B" among several. */
const editorLabel = (ref?: string): string => (ref ? `Query ${ref}` : "DQL query");

/**
 * Explore: write DQL (one query or several, A to J), pick a time range, see the result as a
 * chart. The queries as last run, their legends and hidden ones live in the URL
 * (`queriesInUrl.ts`) with the rest of the state; what is typed and not run yet stays in the
 * editors.
 */
export function ExplorePage(): ReactElement {
  const workspace = useCurrentWorkspace();
  useDocumentTitle(["Explore", workspace.name]);
  const [params, setParams] = useSearchParams();
  // the queries as last run, from the link
  const queries = useMemo(() => queriesFromSearch(params), [params]);
  const setQueries = useCallback(
    (next: readonly QueryItem[], { replace = false }: { replace?: boolean } = {}) =>
      setParams((prev) => withQueries(prev, next), { replace }),
    [setParams],
  );
  const [range, setRange] = useTimeRangeParam();
  // what the editors show over the link: text typed and not run yet, a legend or Hide box
  // on its way into the link (`queryEdits.ts`)
  const [edits, setEdits] = useState<QueryEdits>({});
  const settled = settleEdits(queries, edits);
  if (settled !== edits) setEdits(settled);
  const shown = useMemo(() => applyEdits(queries, settled), [queries, settled]);

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
      queries.flatMap((q, i) => (q.hidden || q.query.trim() === "" ? [] : [{ ref: queryRef(q, i), query: q.query }])),
    [queries],
  );
  const run = useExploreRun({ workspaceId: workspace.id, queries: toRun, timeRange: range, refreshMs });

  const completion = useMemo(
    () =>
      dqlCompletionSource(async (q) => {
        const res = await queryRaw(workspace.id, { queries: [{ query: q, disable_slimit: true }] });
        return res.content[0] ?? { series: [] };
      }),
    [workspace.id],
  );

  const onRun = useCallback(() => {
    // the first query ends on top of the history
    let recent = history;
    for (const q of [...shown].reverse()) if (!q.hidden) recent = pushHistory(workspace.id, q.query);
    setHistory(recent);
    setEdits(dropTexts);
    if (shown.some((q, i) => q.query !== queries[i].query)) setQueries(shown);
    else if (toRun.length > 0) void run.refetch();
  }, [history, shown, queries, toRun, run, setQueries, workspace.id]);

  const onChange = (i: number, patch: Partial<QueryItem>): void => {
    setEdits((e) => editQuery(e, queries[i], i, patch));
    // A legend names the series at once (no history entry for each key); Hide runs the others.
    // The link gets every legend and Hide box shown, with the queries as last run.
    if ("legend_format" in patch || "hidden" in patch) {
      const next = shown.map((q, j) => ({ ...(j === i ? { ...q, ...patch } : q), query: queries[j].query }));
      setQueries(next, { replace: !("hidden" in patch) });
    }
  };
  const onAdd = (q: QueryItem): void => {
    setEdits((e) => dropEdits(e, queryRef(q, queries.length)));
    setQueries([...queries, q]);
  };
  const onRemove = (i: number): void => {
    setEdits((e) => dropEdits(e, queryRef(queries[i], i)));
    setQueries(queries.filter((_, j) => j !== i));
  };
  /** Puts `text` in the first query (history, saved queries); `runNow` runs it. */
  const setFirst = (text: string, runNow: boolean): void => {
    const first = queries[0];
    if (runNow) {
      setEdits((e) => dropEdits(e, queryRef(first, 0)));
      setQueries([{ ...first, query: text }, ...queries.slice(1)]);
    } else setEdits((e) => editQuery(e, first, 0, { query: text }));
  };

  const data = run.isError ? undefined : run.data;
  const answers: readonly QueryAnswer[] = useMemo(() => data?.answers ?? [], [data]);
  const byRef = useMemo(() => new Map(answers.map((a) => [a.ref, a])), [answers]);
  const several = queries.length > 1;
  // the result names each query when it holds more than one
  const manyAnswers = answers.length > 1;

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

  // every answered query's series, each named by its query's legend format
  const merged = useMemo(() => mergeAnswers(answers, shown), [answers, shown]);
  const series = useMemo(() => toChartSeries(merged.result, merged.legends), [merged]);
  const option = useMemo(
    () =>
      data && view !== "table" && view !== "stat"
        ? chartSeriesOption(series, { range: data.range, kind: view, unit })
        : undefined,
    [data, series, view, unit],
  );
  const counts = useMemo(() => countPoints(series), [series]);
  const cost = costSummary(answers);
  const answered = answers.flatMap((a) => (a.result ? [{ ref: a.ref, query: a.query, result: a.result }] : []));
  // what the result is of, for its names: the query, or "queries A, B"
  const subject = toRun.length === 1 ? toRun[0].query : `queries ${toRun.map((q) => q.ref).join(", ")}`;
  const savable = queries.filter((q) => q.query.trim() !== "");

  const [sharing, setSharing] = useState(false);
  const onBrush = useCallback(
    ([a, b]: [number, number]) => setRange({ from: String(a), to: String(b) }),
    [setRange],
  );

  let body: ReactElement | null;
  if (run.isError) {
    body = <QueryError error={run.error} query={toRun[0]?.query ?? ""} onRetry={() => void run.refetch()} />;
  } else if (toRun.length === 0) {
    body = queries.some((q) => q.hidden && q.query.trim() !== "") ? (
      <EmptyState title="Every query is hidden">Show a query above (clear its Hide box) to run it.</EmptyState>
    ) : (
      <EmptyState title="Write a query to start">Type DQL above and press Run query.</EmptyState>
    );
  } else if (!data) {
    body = (
      <div className="chart-placeholder">
        <Spinner label="Running query" />
      </div>
    );
  } else if (answered.length === 0) {
    body = (
      <EmptyState title="Nothing to show" testId="empty-result">
        {answers.length > 1
          ? "None of the queries could run: each one's error is shown under it."
          : "The query could not run: its error is shown under it."}
      </EmptyState>
    );
  } else if (counts.points === 0) {
    body = (
      <EmptyState title="No data in this time range" testId="empty-result">
        Nothing matched {toRun.length === 1 ? <code>{toRun[0].query}</code> : subject}. Widen the time range, check the
        measurement and field names (the editor suggests them), or make sure an agent is sending data to this workspace.
      </EmptyState>
    );
  } else if (view === "stat") {
    body = (
      <StatChart
        label={`Last values of ${subject}`}
        unit={unit}
        style={{ height: 300 }}
        items={series.map((s) => ({ name: s.name, value: reducePoints(s.points, "last"), points: s.points }))}
      />
    );
  } else if (view === "table") {
    body = <ResultTable result={merged.result} unit={unit} seriesRefs={manyAnswers ? merged.seriesRefs : undefined} />;
  } else {
    body = option ? (
      <LinesChart option={option} label={`Chart of ${subject}`} onBrushX={onBrush} style={{ height: 380 }} />
    ) : null;
  }

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
          onChange={onChange}
          onAdd={onAdd}
          onRemove={onRemove}
          onRun={onRun}
          completion={completion}
          editorLabel={editorLabel}
          editorErrors={editorErrors}
          below={below}
        >
          <p className="muted small explore-hint">
            Ctrl+Enter (⌘+Enter) runs {several ? "every query" : "the query"}, Ctrl+Space suggests names, Tab moves on from
            the editor. In a legend, <code>{"{{host}}"}</code> is a tag&apos;s value. Drag across the chart to zoom in.
          </p>
          <div className="explore-query-tools">
            {several ? (
              <span className="muted small" data-testid="first-query-note">
                History and saved queries work on query {queryRef(queries[0], 0)}
              </span>
            ) : null}
            <label className="inline-field">
              History
              <select
                value=""
                onChange={(e) => {
                  if (e.target.value) setFirst(e.target.value, false);
                }}
                disabled={history.length === 0}
                data-testid="query-history"
              >
                <option value="">{history.length ? "Recent queries…" : "No queries yet"}</option>
                {history.map((h) => (
                  <option key={h} value={h}>
                    {h.length > 90 ? `${h.slice(0, 90)}…` : h}
                  </option>
                ))}
              </select>
            </label>
            <SavedQueries
              workspaceId={workspace.id}
              query={shown[0].query}
              canEdit={canEdit(workspace.role)}
              onOpen={(q) => setFirst(q, true)}
            />
          </div>
        </QueriesEditor>
      </section>
      <section className="card result" aria-label="Result" aria-busy={run.isFetching}>
        <div className="result-header">
          <div className="row">
            <RadioGroup label="Visualisation" options={VIEW_OPTIONS} value={view} onChange={setView} />
            <label className="inline-field">
              Unit
              <select value={unit} onChange={(e) => setUnit(e.target.value)} data-testid="result-unit">
                {UNITS.map((u) => (
                  <option key={u.value} value={u.value}>
                    {u.label}
                  </option>
                ))}
                {UNITS.some((u) => u.value === unit) ? null : <option value={unit}>{unit}</option>}
              </select>
            </label>
          </div>
          <span className="muted small" data-testid="result-summary">
            {data && answered.length > 0 ? `${counts.series} series, ${counts.points} points${cost ? ` · ${cost}` : ""}` : ""}
          </span>
          {run.isFetching ? <Spinner label={toRun.length > 1 ? "Running queries" : "Running query"} /> : null}
          {canEdit(workspace.role) && savable.length > 0 ? (
            <AddToDashboard workspaceId={workspace.id} queries={savable} view={view} unit={unit} range={range} />
          ) : null}
          {canEdit(workspace.role) && toRun.length > 0 ? (
            <CreateMonitorLink workspaceId={workspace.id} query={toRun[0].query} />
          ) : null}
          {data && counts.series > 0 ? (
            <Button
              size="sm"
              onClick={() =>
                downloadText(
                  resultCsv(merged.result, manyAnswers ? merged.seriesRefs : undefined),
                  csvFileName("explore"),
                  "text/csv",
                )
              }
              data-testid="result-csv"
            >
              Download CSV
            </Button>
          ) : null}
        </div>
        {!run.isError && counts.points > 0
          ? answered.map((a) => (
              <ResultLimitNotice key={a.ref} cut={resultCut(a.query, a.result)} query={manyAnswers ? a.ref : undefined} />
            ))
          : null}
        {body}
      </section>
      {sharing ? (
        <ShareDialog what={several ? "these queries" : "this query"} range={range} onClose={() => setSharing(false)} />
      ) : null}
    </div>
  );
}
