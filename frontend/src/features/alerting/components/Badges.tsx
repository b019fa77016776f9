import type { ReactElement } from "react";
import type { EventKind, MonitorStatus, NotificationStatus, Severity, SilenceState } from "../api";
import {
  KIND_LABELS,
  NOTIFICATION_STATUS_LABELS,
  SEVERITY_LABELS,
  SILENCE_STATE_LABELS,
  STATUS_LABELS,
} from "../severity";

/*
 * The small labels of the alerting pages. Each says its state in words (never by colour
 * alone); the colour repeats it (`alerting.css`, readable in both themes).
 */

export function StatusBadge({ status }: { status: MonitorStatus }): ReactElement {
  return (
    <span className={`alert-badge status-${status}`} data-testid="monitor-status" data-status={status}>
      {STATUS_LABELS[status]}
    </span>
  );
}

export function SeverityBadge({ severity }: { severity: Severity | "nodata" | null | undefined }): ReactElement | null {
  if (!severity) return null;
  return (
    <span className={`alert-badge sev-${severity}`} data-testid="severity" data-severity={severity}>
      {severity === "nodata" ? "No data" : SEVERITY_LABELS[severity]}
    </span>
  );
}

export function KindBadge({ kind }: { kind: EventKind }): ReactElement {
  return (
    <span className={`alert-badge kind-${kind}`} data-testid="event-kind" data-kind={kind}>
      {KIND_LABELS[kind]}
    </span>
  );
}

export function MutedBadge({ muted, title }: { muted: boolean; title?: string }): ReactElement | null {
  if (!muted) return null;
  return (
    <span className="alert-badge muted-badge" title={title ?? "A silence mutes its notifications"} data-testid="muted">
      Muted
    </span>
  );
}

export function NotificationStatusBadge({ status }: { status: NotificationStatus }): ReactElement {
  return (
    <span className={`alert-badge note-${status}`} data-testid="notification-status" data-status={status}>
      {NOTIFICATION_STATUS_LABELS[status]}
    </span>
  );
}

export function SilenceStateBadge({ state }: { state: SilenceState }): ReactElement {
  return (
    <span className={`alert-badge silence-${state}`} data-testid="silence-state" data-state={state}>
      {SILENCE_STATE_LABELS[state]}
    </span>
  );
}
