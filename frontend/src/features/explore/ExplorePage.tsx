import { useCallback, useMemo, useState, type ReactElement } from "react";
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
import { SavedQueries } from "@/features/saved-queries/SavedQueries";
import { canEdit } from "@/features/workspaces/hooks/useWorkspaces";
import { ApiError } from "@/lib/apiError";
import { downloadText } from "@/lib/download";
import { parseRefresh } from "@/lib/refresh";
import { useDocumentTitle } from "@/lib/useDocumentTitle";
import { useRefreshParam, useStringParam, useTimeRangeParam } from "@/lib/useUrlState";
import { useCurrentWorkspace } from "@/routes/useWorkspaceContext";
import { queryRaw } from "./api";
import { QueryError } from "./components/QueryError";
import { ResultLimitNotice } from "./components/ResultLimitNotice";
import { ResultTable } from "./components/ResultTable";
import { dqlCompletionSource } from "./editor/dqlCompletion";
import { DqlEditor, type EditorError } from "./editor/DqlEditor";
import { byteOffsetToIndex } from "./editor/offsets";
import { DEFAULT_QUERY, formatCost } from "./dql";
import { useDqlQuery } from "./hooks/useDqlQuery";
import { pushHistory, readHistory } from "./queryHistory";
import { resultCut } from "./resultLimits";
import { AddToDashboard } from "./components/AddToDashboard";
import { csvFileName, resultCsv } from "./resultCsv";
import { chartSeriesOption, countPoints, toChartSeries } from "./toLineSeriesOption";

const VIEWS = ["line", "area", "bar", "stat", "table"] as const;
type View = (typeof VIEWS)[number];
const VIEW_OPTIONS = VIEWS.map((v) => ({ value: v, label: v[0].toUpperCase() + v.slice(1) }));

/** Explore: write DQL, pick a time range, see the result as a chart. State lives in the URL. */
export function ExplorePage(): ReactElement {
  const workspace = useCurrentWorkspace();
  useDocumentTitle(["Explore", workspace.name]);
  const [query, setQuery] = useStringParam("q", DEFAULT_QUERY);
  const [range, setRange] = useTimeRangeParam();
  const [draft, setDraft] = useState(query);
  const [lastQuery, setLastQuery] = useState(query);
  if (query !== lastQuery) {
    // The URL changed (back/forward, a shared link): show that query in the editor.
    setLastQuery(query);
    setDraft(query);
  }

  const [viewParam, setView] = useStringParam("view", "line", { replace: true });
  const view: View = (VIEWS as readonly string[]).includes(viewParam) ? (viewParam as View) : "line";
  // `refresh=30s` in the URL, as on dashboards; none means off
  const [refresh, setRefresh] = useRefreshParam();
  const refreshMs = parseRefresh(refresh) ?? 0;
  // the unit of the values (the panel editor's list), for the axis, tooltip, table and stat
  const [unitParam, setUnit] = useStringParam("unit", "none");
  // how series are named (`{{host}} user`), as a panel query's legend format
  const [legend, setLegend] = useStringParam("legend", "", { replace: true });
  const unit = unitParam || "none";
  const [history, setHistory] = useState(() => readHistory(workspace.id));

  const run = useDqlQuery({ workspaceId: workspace.id, query, timeRange: range, refreshMs });

  const completion = useMemo(
    () =>
      dqlCompletionSource(async (q) => {
        const res = await queryRaw(workspace.id, { queries: [{ query: q, disable_slimit: true }] });
        return res.content[0] ?? { series: [] };
      }),
    [workspace.id],
  );

  const onRun = useCallback(() => {
    setHistory(pushHistory(workspace.id, draft));
    if (draft === query) void run.refetch();
    else setQuery(draft);
  }, [draft, query, run, setQuery, workspace.id]);

  const editorError: EditorError | undefined = useMemo(() => {
    const err = run.error;
    if (!(err instanceof ApiError) || !err.range || draft !== query) return undefined;
    return {
      from: byteOffsetToIndex(query, err.range.start),
      to: byteOffsetToIndex(query, err.range.end),
      message: err.message,
    };
  }, [run.error, draft, query]);

  const data = run.isError ? undefined : run.data;
  // every series of the result named by the legend format, when there is one
  const series = useMemo(
    () => toChartSeries(data?.result, legend.trim() ? data?.result.series.map(() => legend.trim()) : undefined),
    [data, legend],
  );
  const option = useMemo(
    () =>
      data && view !== "table" && view !== "stat"
        ? chartSeriesOption(series, { range: data.range, kind: view, unit })
        : undefined,
    [data, series, view, unit],
  );
  const counts = useMemo(() => countPoints(series), [series]);
  // the result of `query` (the one in the URL): did its LIMIT or SLIMIT cut it short?
  const cut = useMemo(() => resultCut(query, data?.result), [query, data]);

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
            Run query
          </Button>
        </div>
      </div>
      <section className="card" aria-label="Query">
        <DqlEditor value={draft} onChange={setDraft} onRun={onRun} error={editorError} completion={completion} />
        <div className="row editor-footer">
          <p className="muted small">
            Ctrl+Enter (⌘+Enter) runs the query, Ctrl+Space suggests names, Tab moves on from the editor. Drag
            across the chart to zoom in.
          </p>
          <label className="inline-field">
            History
            <select
              value=""
              onChange={(e) => {
                if (e.target.value) setDraft(e.target.value);
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
            query={draft}
            canEdit={canEdit(workspace.role)}
            onOpen={(q) => {
              setDraft(q);
              setQuery(q);
            }}
          />
        </div>
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
            <label className="inline-field">
              Legend
              <input
                value={legend}
                maxLength={200}
                placeholder="{{host}}"
                size={14}
                onChange={(e) => setLegend(e.target.value)}
                data-testid="result-legend"
              />
            </label>
          </div>
          <span className="muted small" data-testid="result-summary">
            {data
              ? `${counts.series} series, ${counts.points} points${data.result.cost ? ` · ${formatCost(data.result.cost)}` : ""}`
              : ""}
          </span>
          {run.isFetching ? <Spinner label="Running query" /> : null}
          {canEdit(workspace.role) && query.trim() ? (
            <AddToDashboard workspaceId={workspace.id} query={query} view={view} unit={unit} legend={legend} range={range} />
          ) : null}
          {data && counts.series > 0 ? (
            <Button
              size="sm"
              onClick={() => downloadText(resultCsv(data.result), csvFileName("explore"), "text/csv")}
              data-testid="result-csv"
            >
              Download CSV
            </Button>
          ) : null}
        </div>
        {!run.isError && counts.points > 0 ? <ResultLimitNotice cut={cut} /> : null}
        {run.isError ? (
          <QueryError error={run.error} query={query} onRetry={() => void run.refetch()} />
        ) : run.isPending ? (
          run.fetchStatus === "idle" ? (
            <EmptyState title="Write a query to start">Type DQL above and press Run query.</EmptyState>
          ) : (
            <div className="chart-placeholder">
              <Spinner label="Running query" />
            </div>
          )
        ) : counts.points === 0 ? (
          <EmptyState title="No data in this time range" testId="empty-result">
            Nothing matched <code>{query}</code>. Widen the time range, check the measurement and field names (the
            editor suggests them), or make sure an agent is sending data to this workspace.
          </EmptyState>
        ) : view === "stat" && data ? (
          <StatChart
            label={`Last values of ${query}`}
            unit={unit}
            style={{ height: 300 }}
            items={series.map((s) => ({ name: s.name, value: reducePoints(s.points, "last"), points: s.points }))}
          />
        ) : view === "table" && data ? (
          <ResultTable result={data.result} unit={unit} />
        ) : option ? (
          <LinesChart option={option} label={`Chart of ${query}`} onBrushX={onBrush} style={{ height: 380 }} />
        ) : null}
      </section>
      {sharing ? <ShareDialog what="this query" range={range} onClose={() => setSharing(false)} /> : null}
    </div>
  );
}
