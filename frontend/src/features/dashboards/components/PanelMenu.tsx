import { useMemo, useState, type ReactElement } from "react";
import { Link } from "react-router";
import { isTextPanel, type Panel } from "@/api/dashboards";
import { ResultTable } from "@/components/panels/ResultTable";
import { inspectedResult, type PanelData, type VisibleQuery } from "@/components/panels/panelData";
import { Button } from "@/components/ui/Button";
import { Dialog } from "@/components/ui/Dialog";
import { MenuItem } from "@/components/ui/MenuItem";
import { ShareDialog } from "@/components/ui/ShareDialog";
import { useMenu } from "@/components/ui/useMenu";
import { downloadText } from "@/lib/download";
import { withQueries } from "@/lib/dql/queriesInUrl";
import { csvFileName, resultCsv } from "@/lib/dql/resultCsv";
import { formatDateTime, type TimeRangeSpec } from "@/lib/time";
import { timeShiftSuffix } from "@/lib/timeShift";
import { useTimeZone } from "@/lib/timeZone";

export interface PanelMenuProps {
  workspaceId: string;
  panel: Panel;
  title: string;
  /** The panel's visible queries as sent (variables filled in). */
  queries: { refId: string; query: string }[];
  timeRange: TimeRangeSpec;
  /** The panel's data, once it has some. */
  data: PanelData | undefined;
  /** Shows the panel alone over the page, or the dashboard again; no "View" item without it. */
  onToggleView?: () => void;
  viewing?: boolean;
}

/** The Explore view that draws a panel the closest way. */
function exploreView(type: Panel["type"]): string {
  switch (type) {
    case "area":
    case "bar":
    case "stat":
    case "table":
      return type;
    case "gauge":
      return "stat";
    case "toplist":
      return "table";
    default:
      return "line";
  }
}

/**
 * Explore with the panel's visible `queries` (A, B … with their legend formats) over the
 * panel's time range, drawn as the panel draws it, in its unit.
 */
export function exploreLink(workspaceId: string, panel: Panel, queries: readonly VisibleQuery[], range: TimeRangeSpec): string {
  const base = new URLSearchParams({ from: range.from, to: range.to, view: exploreView(panel.type) });
  if ("unit" in panel && panel.unit && panel.unit !== "none") base.set("unit", panel.unit);
  const items = queries.map((q) => ({
    ref_id: q.refId,
    query: q.query,
    ...(q.language === "promql" ? { language: "promql" as const } : {}),
    ...(q.legend ? { legend_format: q.legend } : {}),
  }));
  const params = withQueries(new URLSearchParams([["q", ""], ...base]), items);
  return `/w/${workspaceId}/explore?${params.toString()}`;
}

/**
 * A panel's menu (⋮ in its header): View (the panel alone over the page, `viewPanel` in the
 * link), Explore (its queries with the variables filled in and the time range), Inspect data
 * (the numbers behind the drawing, as tables a keyboard and a screen reader can read) and
 * Download CSV; Share (the link to the panel alone, or to the dashboard). A text panel's menu
 * has View and Share only.
 */
export function PanelMenu({
  workspaceId,
  panel,
  title,
  queries,
  timeRange,
  data,
  onToggleView,
  viewing = false,
}: PanelMenuProps): ReactElement {
  const { open, close, rootRef, buttonProps, menuProps } = useMenu();
  const [inspecting, setInspecting] = useState(false);
  const [sharing, setSharing] = useState(false);
  const timeZone = useTimeZone();
  const result = useMemo(() => (data ? inspectedResult(data) : undefined), [data]);
  const rows = result ? result.series.reduce((n, s) => n + s.values.length, 0) : 0;
  const download = (): void => {
    if (result) downloadText(resultCsv(result), csvFileName(title), "text/csv");
  };
  const unit = "unit" in panel ? panel.unit : undefined;

  return (
    <div className="panel-menu no-drag" ref={rootRef}>
      <Button {...buttonProps} variant="ghost" size="sm" aria-label={`Menu of ${title}`} title="Panel menu">
        <span aria-hidden="true">⋮</span>
      </Button>
      {open ? (
        <div {...menuProps} className="popover menu panel-menu-list" aria-label={`Menu of ${title}`}>
          {onToggleView ? (
            <MenuItem
              onSelect={() => {
                close();
                onToggleView();
              }}
            >
              {viewing ? "Back to the dashboard" : "View"}
            </MenuItem>
          ) : null}
          <MenuItem
            onSelect={() => {
              close();
              setSharing(true);
            }}
          >
            Share
          </MenuItem>
          {queries.length > 0 ? (
            <Link
              role="menuitem"
              tabIndex={-1}
              className="menu-item"
              to={exploreLink(workspaceId, panel, queries, timeRange)}
              title={queries.map((q) => q.query).join("\n")}
            >
              Explore
            </Link>
          ) : null}
          {isTextPanel(panel) ? null : (
            <>
              <MenuItem
                disabled={!data}
                onSelect={() => {
                  close();
                  setInspecting(true);
                }}
              >
                Inspect data
              </MenuItem>
              <MenuItem
                disabled={!data}
                onSelect={() => {
                  close();
                  download();
                }}
              >
                Download CSV
              </MenuItem>
            </>
          )}
        </div>
      ) : null}
      {sharing ? (
        <ShareDialog what={`“${title}”`} range={timeRange} panel={{ id: panel.id, title }} onClose={() => setSharing(false)} />
      ) : null}
      {inspecting && data && result ? (
        <Dialog
          title={`Data of ${title}`}
          description={
            <p>
              {result.series.length} series{data.compare ? ` (with ${timeShiftSuffix(data.compare.shift)})` : ""}, {rows} {rows === 1 ? "row" : "rows"}, from {formatDateTime(data.range[0], timeZone)} to{" "}
              {formatDateTime(data.range[1], timeZone)}.
            </p>
          }
          onClose={() => setInspecting(false)}
          testId="panel-inspect"
          className="dialog-wide"
          initialFocus=".result-tables"
        >
          <details className="panel-inspect-queries">
            <summary>{queries.length > 1 ? "Queries as sent" : "Query as sent"}</summary>
            {queries.map((q) => (
              <pre key={q.refId}>
                <code>{queries.length > 1 ? `${q.refId}: ${q.query}` : q.query}</code>
              </pre>
            ))}
          </details>
          <ResultTable result={result} unit={unit} label={`Data of ${title}`} />
          <div className="confirm-actions">
            <Button onClick={download}>Download CSV</Button>
            <Button variant="primary" onClick={() => setInspecting(false)}>
              Close
            </Button>
          </div>
        </Dialog>
      ) : null}
    </div>
  );
}
