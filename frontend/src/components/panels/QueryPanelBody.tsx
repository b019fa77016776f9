import { useMemo, type ReactElement } from "react";
import type { QueryPanel } from "@/api/dashboards";
import { refusedQuery } from "@/api/query";
import { GaugeChart } from "@/components/charts/GaugeChart";
import { HeatmapChart } from "@/components/charts/HeatmapChart";
import { LinesChart } from "@/components/charts/LinesChart";
import { StatChart, type StatItem } from "@/components/charts/StatChart";
import { reducePoints, type Reducer } from "@/components/charts/statReduce";
import { errorLocation, QueryError, withoutPosition } from "@/components/query-editor/QueryError";
import { EmptyState } from "@/components/ui/EmptyState";
import { Spinner } from "@/components/ui/Spinner";
import { ApiError, toUserMessage } from "@/lib/apiError";
import { useTimeZone } from "@/lib/timeZone";
import { withAlertAnnotations, type AlertAnnotation } from "./alertAnnotations";
import { ResultTable } from "./ResultTable";
import { SeriesValueTable } from "./SeriesValueTable";
import { TopListChart } from "./TopListChart";
import { drawsOverTime, seriesLegends, type PanelData, type VisibleQuery } from "./panelData";
import { toPanelOption } from "./panelOption";
import { countPoints, toChartSeries } from "./toLineSeriesOption";
import { toTopList } from "./topList";
import "./panels.css";

export interface QueryPanelBodyProps {
  /** What to draw and how: the panel's type, unit, decimals, thresholds, legend … */
  panel: QueryPanel;
  /** The panel's title as shown: names its chart, table or values for screen readers. */
  title: string;
  /** The visible queries as sent, in order: the legend of each one's series, the one an error names. */
  queries: readonly VisibleQuery[];
  /** The answer (`panelDataQuery`), undefined while there is none yet. */
  data: PanelData | undefined;
  /** Why there is no answer; a DQL error is shown under the query it names. */
  error?: unknown;
  /** Dragging across a chart over time: the range chosen, in epoch ms. */
  onZoom?: (range: [number, number]) => void;
  /** Alert events marked on a chart over time (`usePanelAlertAnnotations`); none by default. */
  annotations?: readonly AlertAnnotation[];
}

const NO_ANNOTATIONS: readonly AlertAnnotation[] = [];

/**
 * What a panel of DQL queries draws from its data: a chart over time (line, area, bar), a
 * heatmap, a top list, stat tiles, gauges or a table; a message when there is no query, no
 * data or an error; and, above what the others drew, the queries the storage refused.
 */
export function QueryPanelBody({
  panel,
  title,
  queries,
  data,
  error,
  onZoom,
  annotations = NO_ANNOTATIONS,
}: QueryPanelBodyProps): ReactElement {
  const failed = error !== undefined && error !== null;
  const timeZone = useTimeZone();
  const legends = useMemo(
    () => ({ present: seriesLegends(queries, data?.perQuery), past: seriesLegends(queries, data?.compare?.perQuery) }),
    [queries, data],
  );
  const series = useMemo(() => toChartSeries(data?.result, legends.present), [data, legends]);
  const option = useMemo(
    () =>
      data && drawsOverTime(panel.type)
        ? withAlertAnnotations(
            toPanelOption({ panel, result: data.result, series, legends, range: data.range, compare: data.compare, timeZone }),
            annotations,
            data.range,
          )
        : undefined,
    [data, series, legends, panel, timeZone, annotations],
  );
  const counts = useMemo(() => countPoints(series), [series]);

  let body: ReactElement;
  if (queries.length === 0) body = <EmptyState title="No query">Edit the panel and add a DQL query.</EmptyState>;
  else if (failed) {
    const refused = failedQuery(error, queries);
    body = <QueryError error={refused.error} query={refused.query} name={refused.name} />;
  } else if (!data) body = <Spinner label={`Loading ${title}`} />;
  else if (panel.type === "table") {
    body =
      "reduce" in panel && panel.reduce ? (
        <SeriesValueTable
          series={series}
          reducer={panel.reduce}
          unit={panel.unit}
          decimals={panel.decimals}
          thresholds={panel.thresholds}
          label={`${title} values`}
        />
      ) : (
        <ResultTable result={data.result} label={`${title} table`} />
      );
  } else if (counts.points === 0) {
    body = <EmptyState title="No data in this time range">Widen the time range or check the query and variables.</EmptyState>;
  } else if (panel.type === "toplist") {
    const list = toTopList(series, {
      reduce: panel.reduce,
      limit: panel.limit,
      order: panel.order,
      thresholds: panel.thresholds,
    });
    body = <TopListChart list={list} unit={panel.unit} decimals={panel.decimals} label={`${title} ranking`} />;
  } else if (panel.type === "heatmap") {
    body = (
      <HeatmapChart
        series={series}
        range={data.range}
        unit={panel.unit}
        decimals={panel.decimals}
        scheme={panel.color_scheme}
        timeZone={timeZone}
        legend={panel.legend}
        label={`${title} heatmap`}
        loadingLabel={`Loading ${title}`}
        onBrushX={onZoom}
        style={{ height: "100%" }}
        testId="panel-chart"
      />
    );
  } else if (panel.type === "gauge") {
    body = (
      <GaugeChart
        items={series.map((s) => ({ name: s.name, value: reducePoints(s.points, panel.reduce ?? "last") }))}
        unit={panel.unit}
        decimals={panel.decimals}
        thresholds={panel.thresholds}
        min={panel.min}
        max={panel.max}
        label={`${title} values`}
      />
    );
  } else if (panel.type === "stat") {
    const reducer: Reducer = "reduce" in panel && panel.reduce ? panel.reduce : "last";
    const items: StatItem[] = series.map((s) => ({
      name: s.name,
      value: reducePoints(s.points, reducer),
      points: s.points,
    }));
    body = (
      <StatChart
        items={items}
        unit={panel.unit}
        decimals={panel.decimals}
        thresholds={panel.thresholds}
        sparkline={"sparkline" in panel ? panel.sparkline !== false : true}
        label={`${title} values`}
      />
    );
  } else if (option) {
    body = (
      <LinesChart
        option={option}
        label={`${title} chart`}
        legend={panel.legend?.show === false ? "none" : "auto"}
        legendPosition={panel.legend?.position === "right" ? "right" : "bottom"}
        onBrushX={onZoom}
        style={{ height: "100%" }}
        testId="panel-chart"
      />
    );
  } else body = <Spinner />;

  // some of several queries refused: the others drawn, the refused ones named above them
  if (data?.refused?.length && !failed) {
    body = (
      <div className="panel-partial">
        {/* a region the keyboard can scroll when the messages are long */}
        <div className="panel-refused" role="alert" tabIndex={0} data-testid="panel-refused">
          {data.refused.map(({ index, error: refusal }) => {
            const q = queries[index];
            const where = q ? errorLocation(refusal, q.query) : undefined;
            const message = toUserMessage(refusal);
            return (
              <p key={index} className="small">
                <strong>Query {q?.refId ?? index + 1} could not run:</strong>{" "}
                <span className="mono">{where ? `${where}: ${withoutPosition(message)}` : message}</span>
              </p>
            );
          })}
        </div>
        <div className="panel-partial-body">{body}</div>
      </div>
    );
  }
  return body;
}

/**
 * The query of a panel's request that the storage refused (`query 2: …`), its error as that
 * query alone would have had it, and its reference when the panel has several. The request
 * holds the visible queries, then (with a comparison) the same again over the earlier range.
 */
export function failedQuery(
  error: unknown,
  queries: readonly VisibleQuery[],
): { error: unknown; query: string; name?: string } {
  const refused = error instanceof ApiError && queries.length > 0 ? refusedQuery(error, queries.length * 2) : undefined;
  const q = refused ? queries[refused.index % queries.length] : queries[0];
  return {
    error: refused?.error ?? error,
    query: q?.query ?? "",
    name: queries.length > 1 && refused ? q.refId : undefined,
  };
}
