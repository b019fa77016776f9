import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useId, useMemo, type ReactElement, type ReactNode } from "react";
import { GaugeChart } from "@/components/charts/GaugeChart";
import { HeatmapChart } from "@/components/charts/HeatmapChart";
import { LinesChart } from "@/components/charts/LinesChart";
import { StatChart, type StatItem } from "@/components/charts/StatChart";
import { reducePoints, type Reducer } from "@/components/charts/statReduce";
import { EmptyState } from "@/components/ui/EmptyState";
import { Spinner } from "@/components/ui/Spinner";
import { withAlertAnnotations } from "@/features/alerting/annotations";
import { usePanelAlertAnnotations } from "@/features/alerting/hooks/usePanelAlertAnnotations";
import { refusedQuery } from "@/features/explore/api";
import { errorLocation, QueryError, withoutPosition } from "@/features/explore/components/QueryError";
import { ResultTable } from "@/features/explore/components/ResultTable";
import { countPoints, toChartSeries } from "@/features/explore/toLineSeriesOption";
import { ApiError, toUserMessage } from "@/lib/apiError";
import type { TimeRangeSpec } from "@/lib/time";
import { useTimeZone } from "@/lib/timeZone";
import { isTextPanel, type Panel, type QueryPanel, type TextPanel } from "../api";
import { toPanelOption } from "../panelOption";
import { isChart, panelQuery, seriesLegends, visibleQueries, type PanelData, type VisibleQuery } from "../panelQuery";
import { toTopList } from "../topList";
import { panelTitle } from "../variables";
import { SeriesValueTable } from "./SeriesValueTable";
import { PanelDescription } from "./PanelDescription";
import { PanelMenu } from "./PanelMenu";
import { TopListChart } from "./TopListChart";

export interface PanelViewProps {
  workspaceId: string;
  panel: Panel;
  timeRange: TimeRangeSpec;
  variables: Record<string, string[]>;
  /** Variables still waiting for a value (DashboardView.pending): panels using one wait too. */
  pending?: readonly string[];
  /** Time shift (`1d`) to draw the past series as well; charts only. */
  compare?: string;
  onZoom?: (range: [number, number]) => void;
  /** Buttons shown in the header (edit, remove …). */
  actions?: ReactNode;
  /** Class of the header, e.g. the grid's drag handle. */
  headerClassName?: string;
  /** A note beside the title (in edit mode: what the panel is repeated for). */
  badge?: ReactNode;
  /**
   * The panel editor's preview: named "Preview of <title>" (the dashboard behind the editor
   * still has the panel itself) under a level-3 heading, below the editor's own.
   */
  preview?: boolean;
  /** Shows this panel alone over the page, or the whole dashboard again (the menu's View). */
  onToggleView?: () => void;
  /** Whether this panel is shown alone. */
  viewing?: boolean;
}

// Markdown is drawn by a chunk of its own: dashboards without a text panel never load it.
const Markdown = lazy(async () => ({ default: (await import("@/components/markdown/Markdown")).Markdown }));

/**
 * One dashboard panel: runs its (visible) queries with variables filled in and draws them,
 * or, for a text panel, draws its Markdown.
 */
export function PanelView(props: PanelViewProps): ReactElement {
  const { panel } = props;
  return isTextPanel(panel) ? <TextPanelView {...props} panel={panel} /> : <QueryPanelView {...props} panel={panel} />;
}

function TextPanelView(props: PanelViewProps & { panel: TextPanel }): ReactElement {
  const { panel, variables } = props;
  const title = panelTitle(panel.title, variables);
  const text = panel.content ?? "";
  return (
    <PanelFrame view={props} title={title} queries={NO_QUERIES}>
      {text.trim() === "" ? (
        <EmptyState title="No text">Edit the panel and write some Markdown.</EmptyState>
      ) : (
        <Suspense fallback={<Spinner label={`Loading ${title}`} />}>
          {/* the values go in as text, after the author's Markdown is drawn (renderMarkdown) */}
          <Markdown text={text} variables={variables} className="panel-text" />
        </Suspense>
      )}
    </PanelFrame>
  );
}

function QueryPanelView(props: PanelViewProps & { panel: QueryPanel }): ReactElement {
  const { workspaceId, panel, timeRange, variables, pending, compare, onZoom } = props;
  const query = panelQuery(workspaceId, panel, timeRange, variables, compare, pending);
  const visible = useMemo(() => visibleQueries(panel, variables), [panel, variables]);
  const queries = visible.map((q) => q.query);
  const run = useQuery({ ...query, placeholderData: keepPreviousData });

  const data = run.data;
  const timeZone = useTimeZone();
  const legends = useMemo(
    () => ({ present: seriesLegends(visible, data?.perQuery), past: seriesLegends(visible, data?.compare?.perQuery) }),
    [visible, data],
  );
  const series = useMemo(() => toChartSeries(data?.result, legends.present), [data, legends]);
  const overTime = isChart(panel.type) && panel.type !== "toplist" && panel.type !== "heatmap";
  // the alert events of monitors of these queries, asked once the panel has its data
  const annotations = usePanelAlertAnnotations(workspaceId, queries, data?.range, overTime);
  const option = useMemo(
    () =>
      data && overTime
        ? withAlertAnnotations(
            toPanelOption({ panel, result: data.result, series, legends, range: data.range, compare: data.compare, timeZone }),
            annotations,
            data.range,
          )
        : undefined,
    [data, series, legends, panel, timeZone, overTime, annotations],
  );
  const counts = useMemo(() => countPoints(series), [series]);
  const title = panelTitle(panel.title, variables);

  let body: ReactElement;
  if (queries.length === 0) body = <EmptyState title="No query">Edit the panel and add a DQL query.</EmptyState>;
  else if (run.isError) {
    const failed = failedQuery(run.error, visible);
    body = <QueryError error={failed.error} query={failed.query} name={failed.name} />;
  }
  else if (!data) body = <Spinner label={`Loading ${title}`} />;
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
  }
  else if (counts.points === 0) {
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
  if (data?.refused?.length && !run.isError) {
    body = (
      <div className="panel-partial">
        {/* a region the keyboard can scroll when the messages are long */}
        <div className="panel-refused" role="alert" tabIndex={0} data-testid="panel-refused">
          {data.refused.map(({ index, error }) => {
            const q = visible[index];
            const where = q ? errorLocation(error, q.query) : undefined;
            const message = toUserMessage(error);
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

  return (
    <PanelFrame view={props} title={title} busy={run.isFetching} queries={visible} data={data}>
      {body}
    </PanelFrame>
  );
}

const NO_QUERIES: VisibleQuery[] = [];

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

interface PanelFrameProps {
  /** What the panel was given. */
  view: PanelViewProps;
  title: string;
  /** Shows that the panel is asking for its data again. */
  busy?: boolean;
  /** For the menu: the visible queries as sent, and their data once there is some. */
  queries: VisibleQuery[];
  data?: PanelData;
  children: ReactNode;
}

/** A panel's card: its header (title, description, menu, the grid's buttons) over its body. */
function PanelFrame({ view, title, busy, queries, data, children }: PanelFrameProps): ReactElement {
  const { workspaceId, panel, timeRange, actions, headerClassName, badge, preview = false, onToggleView, viewing = false } = view;
  const descriptionId = useId();
  // a dashboard's panels are the sections under its title (h1)
  const Heading = preview ? "h3" : "h2";
  return (
    <section
      className="panel card"
      aria-label={preview ? `Preview of ${title}` : title}
      aria-describedby={panel.description ? descriptionId : undefined}
      data-testid="panel"
      data-panel-id={panel.id}
      data-panel-type={panel.type}
    >
      <header className={headerClassName ? `panel-header ${headerClassName}` : "panel-header"}>
        <div className="panel-title">
          <Heading>{title}</Heading>
          {panel.description ? (
            <PanelDescription title={title} text={panel.description} descriptionId={descriptionId} />
          ) : null}
          {badge}
        </div>
        <div className="panel-actions">
          {busy ? <Spinner label="Refreshing" /> : null}
          {preview ? null : (
            <PanelMenu
              workspaceId={workspaceId}
              panel={panel}
              title={title}
              queries={queries}
              timeRange={timeRange}
              data={data}
              onToggleView={onToggleView}
              viewing={viewing}
            />
          )}
          {actions}
        </div>
      </header>
      <div className="panel-body">{children}</div>
    </section>
  );
}
