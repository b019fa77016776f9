import { useMemo, type ReactElement, type ReactNode } from "react";
import type { UseQueryResult } from "@tanstack/react-query";
import { LinesChart } from "@/components/charts/LinesChart";
import { StatChart } from "@/components/charts/StatChart";
import { reducePoints } from "@/components/charts/statReduce";
import { UNITS } from "@/components/charts/units";
import { ResultTable } from "@/components/panels/ResultTable";
import { chartSeriesOption, countPoints, toChartSeries } from "@/components/panels/toLineSeriesOption";
import { QueryError } from "@/components/query-editor/QueryError";
import { Button } from "@/components/ui/Button";
import { EmptyState } from "@/components/ui/EmptyState";
import { RadioGroup } from "@/components/ui/RadioGroup";
import { Spinner } from "@/components/ui/Spinner";
import { downloadText } from "@/lib/download";
import type { QueryItem } from "@/lib/dql/queryRefs";
import { csvFileName, resultCsv } from "@/lib/dql/resultCsv";
import { costSummary, mergeAnswers } from "../exploreResult";
import type { ExploreRun, QueryAnswer, RunQuery } from "../hooks/useExploreRun";
import { resultCut } from "../resultLimits";
import { ResultLimitNotice } from "./ResultLimitNotice";

export const VIEWS = ["line", "area", "bar", "stat", "table"] as const;
export type View = (typeof VIEWS)[number];
const VIEW_OPTIONS = VIEWS.map((v) => ({ value: v, label: v[0].toUpperCase() + v.slice(1) }));

export interface ExploreResultProps {
  /** The last run of the queries (`useExploreRun`). */
  run: UseQueryResult<ExploreRun>;
  /** The queries as last run (the link's) and as the editors show them (legends apply at once). */
  queries: readonly QueryItem[];
  shown: readonly QueryItem[];
  /** What ran: the visible queries that say something. */
  toRun: readonly RunQuery[];
  view: View;
  onViewChange: (view: View) => void;
  unit: string;
  onUnitChange: (unit: string) => void;
  /** Dragging across the chart: the range chosen, in epoch ms. */
  onZoom: (range: [number, number]) => void;
  /** Beside Download CSV: what the queries can become elsewhere (Add to dashboard). */
  actions?: ReactNode;
}

/**
 * Explore's result: every answered query's series drawn together as a chart (line, area, bar),
 * the last values (stat) or a table, in a unit; how many series and points and what they
 * cost; the result as CSV; a notice for each result the storage cut short.
 */
export function ExploreResult({
  run,
  queries,
  shown,
  toRun,
  view,
  onViewChange,
  unit,
  onUnitChange,
  onZoom,
  actions,
}: ExploreResultProps): ReactElement {
  const data = run.isError ? undefined : run.data;
  const answers: readonly QueryAnswer[] = useMemo(() => data?.answers ?? [], [data]);
  // the result names each query when it holds more than one
  const manyAnswers = answers.length > 1;
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
      <LinesChart option={option} label={`Chart of ${subject}`} onBrushX={onZoom} style={{ height: 380 }} />
    ) : null;
  }

  return (
    <section className="card result" aria-label="Result" aria-busy={run.isFetching}>
      <div className="result-header">
        <div className="row">
          <RadioGroup label="Visualisation" options={VIEW_OPTIONS} value={view} onChange={onViewChange} />
          <label className="inline-field">
            Unit
            <select value={unit} onChange={(e) => onUnitChange(e.target.value)} data-testid="result-unit">
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
        {actions}
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
  );
}
