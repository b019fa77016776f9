import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useMemo, type ReactElement, type ReactNode } from "react";
import { isTextPanel, type Panel, type QueryPanel, type TextPanel } from "@/api/dashboards";
import { PanelCard } from "@/components/panels/PanelCard";
import { QueryPanelBody } from "@/components/panels/QueryPanelBody";
import { drawsOverTime, type PanelData, type VisibleQuery } from "@/components/panels/panelData";
import { usePanelAlertAnnotations } from "@/components/panels/usePanelAlertAnnotations";
import { EmptyState } from "@/components/ui/EmptyState";
import { Spinner } from "@/components/ui/Spinner";
import type { TimeRangeSpec } from "@/lib/time";
import { panelQuery, visibleQueries } from "../panelQuery";
import { panelTitle } from "../variables";
import { PanelMenu } from "./PanelMenu";

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
  const run = useQuery({ ...query, placeholderData: keepPreviousData });
  // the alert events of monitors of these queries, asked once the panel has its data
  const queries = useMemo(() => visible.map((q) => q.query), [visible]);
  const annotations = usePanelAlertAnnotations(workspaceId, queries, run.data?.range, drawsOverTime(panel.type));
  const title = panelTitle(panel.title, variables);
  return (
    <PanelFrame view={props} title={title} busy={run.isFetching} queries={visible} data={run.data}>
      <QueryPanelBody
        panel={panel}
        title={title}
        queries={visible}
        data={run.data}
        error={run.isError ? run.error : undefined}
        onZoom={onZoom}
        annotations={annotations}
      />
    </PanelFrame>
  );
}

const NO_QUERIES: VisibleQuery[] = [];

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

/** A dashboard panel's card: its menu (view, Explore, inspect, CSV) beside the grid's buttons. */
function PanelFrame({ view, title, busy, queries, data, children }: PanelFrameProps): ReactElement {
  const { workspaceId, panel, timeRange, actions, headerClassName, badge, preview = false, onToggleView, viewing = false } = view;
  return (
    <PanelCard
      id={panel.id}
      type={panel.type}
      title={title}
      description={panel.description}
      preview={preview}
      busy={busy}
      headerClassName={headerClassName}
      badge={badge}
      actions={
        <>
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
        </>
      }
    >
      {children}
    </PanelCard>
  );
}
