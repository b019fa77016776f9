import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useMemo, type ReactElement } from "react";
import { EChart } from "@/components/charts/EChart";
import { EmptyState } from "@/components/ui/EmptyState";
import { Spinner } from "@/components/ui/Spinner";
import { queryRaw } from "@/features/explore/api";
import { QueryError } from "@/features/explore/components/QueryError";
import { ResultTable } from "@/features/explore/components/ResultTable";
import type { DqlResult } from "@/features/explore/dql";
import { countPoints, formatNumber, toChartSeries, toLineSeriesOption } from "@/features/explore/toLineSeriesOption";
import { resolveTimeRange, type TimeRangeSpec } from "@/lib/time";
import type { Panel } from "../api";
import { interpolateVariables } from "../variables";

export interface PanelViewProps {
  workspaceId: string;
  panel: Panel;
  timeRange: TimeRangeSpec;
  variables: Record<string, string[]>;
  onZoom?: (range: [number, number]) => void;
}

/** One dashboard panel: runs its (visible) queries with variables filled in and draws them. */
export function PanelView({ workspaceId, panel, timeRange, variables, onZoom }: PanelViewProps): ReactElement {
  const queries = panel.queries.filter((q) => !q.hidden).map((q) => interpolateVariables(q.query, variables));
  const run = useQuery({
    queryKey: ["dql-panel", workspaceId, queries, timeRange.from, timeRange.to],
    queryFn: async ({ signal }) => {
      const range = resolveTimeRange(timeRange);
      const res = await queryRaw(
        workspaceId,
        { queries: queries.map((query) => ({ query, time_range: range })) },
        signal,
      );
      const merged: DqlResult = { series: res.content.flatMap((c) => c.series) };
      return { result: merged, range };
    },
    enabled: queries.length > 0,
    placeholderData: keepPreviousData,
    retry: false,
  });

  const data = run.data;
  const kind = panel.type === "area" ? "area" : panel.type === "bar" ? "bar" : "line";
  const option = useMemo(
    () => (data ? toLineSeriesOption(data.result, { range: data.range, kind }) : undefined),
    [data, kind],
  );
  const counts = useMemo(() => countPoints(toChartSeries(data?.result)), [data]);
  const title = panel.title || "Untitled panel";

  let body: ReactElement;
  if (queries.length === 0) body = <EmptyState title="No query">Edit the panel and add a DQL query.</EmptyState>;
  else if (run.isError) body = <QueryError error={run.error} query={queries[0]} />;
  else if (!data) body = <Spinner label={`Loading ${title}`} />;
  else if (panel.type === "table") body = <ResultTable result={data.result} />;
  else if (counts.points === 0) body = <EmptyState title="No data in this time range" />;
  else if (panel.type === "stat") {
    const series = toChartSeries(data.result);
    body = (
      <div className="stat-values">
        {series.map((s) => {
          const last = [...s.points].reverse().find((p) => p[1] !== null)?.[1];
          return (
            <div key={s.name} className="stat">
              <span className="stat-value">
                {last === undefined || last === null ? "–" : formatNumber(last)}
                {panel.unit ? <small> {panel.unit}</small> : null}
              </span>
              <span className="muted small">{s.name}</span>
            </div>
          );
        })}
      </div>
    );
  } else if (option) {
    body = (
      <EChart option={option} label={`${title} chart`} onBrushX={onZoom} style={{ height: "100%" }} testId="panel-chart" />
    );
  } else body = <Spinner />;

  return (
    <section className="panel card" aria-label={title} data-testid="panel">
      <header className="panel-header">
        <h3>{title}</h3>
        {run.isFetching ? <Spinner label="Refreshing" /> : null}
      </header>
      <div className="panel-body">{body}</div>
    </section>
  );
}
