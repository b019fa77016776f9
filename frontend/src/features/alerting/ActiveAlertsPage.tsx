import type { ReactElement } from "react";
import { Link } from "react-router";
import { DataTable, type DataTableColumn } from "@/components/ui/DataTable";
import { EmptyState } from "@/components/ui/EmptyState";
import { canEdit } from "@/api/useWorkspaces";
import { formatDateTime } from "@/lib/time";
import { useDocumentTitle } from "@/lib/useDocumentTitle";
import { useCurrentWorkspace } from "@/api/useCurrentWorkspace";
import type { ActiveAlert } from "./api";
import { MutedBadge, SeverityBadge, StatusBadge } from "./components/Badges";
import { useActiveAlerts, useAlertSummary } from "./hooks/useAlerts";
import { describeTags, formatAlertValue, SEVERITIES, SEVERITY_LABELS } from "./severity";

/** Alerts › Firing now: every group firing, pending or without data, worst first (the in-app notification). */
export function ActiveAlertsPage(): ReactElement {
  const workspace = useCurrentWorkspace();
  useDocumentTitle(["Firing now", "Alerts", workspace.name]);
  const active = useActiveAlerts(workspace.id);
  const summary = useAlertSummary(workspace.id);
  const s = summary.data;
  const columns: DataTableColumn<ActiveAlert>[] = [
    {
      id: "monitor",
      header: "Monitor",
      rowHeader: true,
      className: "wrap",
      cell: (a) => <Link to={`/w/${workspace.id}/alerts/monitors/${a.monitor_id}`}>{a.monitor_name}</Link>,
    },
    { id: "state", header: "State", cell: (a) => <StatusBadge status={a.state} /> },
    { id: "severity", header: "Severity", cell: (a) => <SeverityBadge severity={a.state === "nodata" ? "nodata" : a.severity} /> },
    { id: "group", header: "Group", className: "wrap", cell: (a) => describeTags(a.tags) },
    { id: "value", header: "Value", numeric: true, cell: (a) => formatAlertValue(a.value) },
    { id: "since", header: "Since", className: "small", cell: (a) => formatDateTime(Date.parse(a.since)) },
    { id: "muted", header: "Muted", cell: (a) => (a.muted ? <MutedBadge muted /> : <span className="sr-only">no</span>) },
  ];
  return (
    <>
      <div className="page-header">
        <h1>Firing now</h1>
        <p className="muted small" role="status" data-testid="alert-summary">
          {s
            ? [
                `${s.firing} firing`,
                ...SEVERITIES.filter((x) => (s.by_severity[x] ?? 0) > 0).map(
                  (x) => `${s.by_severity[x]} ${SEVERITY_LABELS[x].toLowerCase()}`,
                ),
                `${s.pending} pending`,
              ].join(" · ")
            : ""}
        </p>
      </div>
      {s && s.failed_notifications > 0 ? (
        <p className="alert alert-error" data-testid="failed-notifications">
          {s.failed_notifications === 1 ? "1 notification" : `${s.failed_notifications} notifications`} could not be
          delivered in the last 24 hours.{" "}
          {canEdit(workspace.role) ? <Link to={`/w/${workspace.id}/alerts/channels`}>See why on the channels page</Link> : null}
        </p>
      ) : null}
      <section className="card" aria-label="Alerts firing now" aria-busy={active.isFetching}>
        <DataTable
          caption="Groups firing, pending or without data, worst first"
          testId="active-alerts-table"
          rowTestId="active-alert-row"
          loading={active.isPending}
          loadingLabel="Loading alerts"
          error={active.error}
          errorTitle="Could not load the alerts"
          empty={
            <EmptyState title="Nothing is firing" testId="active-alerts-empty">
              Every monitor is quiet. <Link to={`/w/${workspace.id}/alerts/monitors`}>Monitors</Link> lists them,{" "}
              <Link to={`/w/${workspace.id}/alerts/events`}>Events</Link> what happened before.
            </EmptyState>
          }
          rows={active.data?.data ?? []}
          rowKey={(a) => `${a.monitor_id}/${a.group_key}`}
          columns={columns}
        />
      </section>
    </>
  );
}
