import type { ReactElement } from "react";
import { Link } from "react-router";
import { RefreshPicker } from "@/components/time/RefreshPicker";
import { TimeRangePicker } from "@/components/time/TimeRangePicker";
import { TimeShiftPicker } from "@/components/time/TimeShiftPicker";
import { Button } from "@/components/ui/Button";
import type { TimeRangeSpec } from "@/lib/time";

export interface DashboardHeaderProps {
  workspaceId: string;
  title: string;
  /** Whether the person may edit (else "View only"). */
  editable: boolean;
  /** Edit mode: the title becomes a field and Edit becomes Done editing. */
  editing: boolean;
  onTitleChange: (title: string) => void;
  /** What the save state says: saving, unsaved changes, or the saved version. */
  dirty: boolean;
  saving: boolean;
  version: number;
  range: TimeRangeSpec;
  onRangeChange: (range: TimeRangeSpec) => void;
  compare: string;
  onCompareChange: (shift: string) => void;
  refresh: string;
  onRefreshChange: (refresh: string) => void;
  /** Asks every panel again now. */
  onRefreshNow: () => void;
  refreshing: boolean;
  onShare: () => void;
  onHistory: () => void;
  onExport: () => void;
  exporting: boolean;
  onEdit: () => void;
  onDoneEditing: () => void;
}

/**
 * A dashboard's title and toolbar: where it is saved, the time range, comparison and auto
 * refresh, Share, History, Export JSON, and Edit for those who may.
 */
export function DashboardHeader(props: DashboardHeaderProps): ReactElement {
  const { workspaceId, title, editable, editing, dirty, saving, version } = props;
  return (
    <div className="page-header">
      <div className="dashboard-title">
        <p className="muted small">
          <Link to={`/w/${workspaceId}/dashboards`}>Dashboards</Link> /
        </p>
        {editing ? (
          // still the page's heading while its text is edited
          <h1>
            <input
              className="title-input"
              aria-label="Dashboard title"
              value={title}
              maxLength={200}
              onChange={(e) => props.onTitleChange(e.target.value)}
            />
          </h1>
        ) : (
          <h1>{title}</h1>
        )}
      </div>
      <div className="toolbar">
        {!editable ? (
          <span className="role-badge view-only" data-testid="view-only" title="Your role can view dashboards, not change them">
            View only
          </span>
        ) : (
          <span className={dirty ? "save-state unsaved" : "save-state"} role="status" data-testid="save-state">
            {saving ? "Saving…" : dirty ? "Unsaved changes" : `Saved · v${version}`}
          </span>
        )}
        <TimeRangePicker value={props.range} onChange={props.onRangeChange} />
        <TimeShiftPicker value={props.compare} onChange={props.onCompareChange} />
        <RefreshPicker
          value={props.refresh}
          onChange={props.onRefreshChange}
          onRefresh={props.onRefreshNow}
          refreshing={props.refreshing}
        />
        <Button onClick={props.onShare} aria-haspopup="dialog">
          Share
        </Button>
        <Button onClick={props.onHistory} aria-haspopup="dialog">
          History
        </Button>
        <Button onClick={props.onExport} disabled={props.exporting}>
          Export JSON
        </Button>
        {editable ? (
          editing ? (
            <Button onClick={props.onDoneEditing} aria-pressed={true}>
              Done editing
            </Button>
          ) : (
            <Button variant="primary" onClick={props.onEdit}>
              Edit
            </Button>
          )
        ) : null}
      </div>
    </div>
  );
}
