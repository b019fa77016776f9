import { useId, useMemo, type ReactElement } from "react";
import { Link, useSearchParams } from "react-router";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { DataTable, type DataTableColumn } from "@/components/ui/DataTable";
import { EmptyState } from "@/components/ui/EmptyState";
import { canEdit } from "@/api/useWorkspaces";
import { toUserMessage } from "@/lib/apiError";
import { formatDateTime } from "@/lib/time";
import { useDocumentTitle } from "@/lib/useDocumentTitle";
import { useCurrentWorkspace } from "@/api/useCurrentWorkspace";
import type { Monitor } from "./api";
import { MutedBadge, SeverityBadge, StatusBadge } from "./components/Badges";
import { useMonitors, useUpdateMonitor } from "./hooks/useMonitors";
import {
  filterMonitors,
  isFilteringMonitors,
  NO_MONITOR_FILTER,
  readMonitorFilter,
  statusCounts,
  writeMonitorFilter,
  type MonitorFilter,
} from "./monitorFilters";
import { describeGroups, formatAlertValue, STATUS_LABELS, STATUS_ORDER } from "./severity";

/** Alerts › Monitors: every monitor with its state, filtered and searched; the filter lives in the URL. */
export function MonitorsPage(): ReactElement {
  const workspace = useCurrentWorkspace();
  useDocumentTitle(["Monitors", "Alerts", workspace.name]);
  const editable = canEdit(workspace.role);
  const monitors = useMonitors(workspace.id);
  const update = useUpdateMonitor(workspace.id);
  const [params, setParams] = useSearchParams();
  const filter = useMemo(() => readMonitorFilter(params), [params]);
  const setFilter = (next: MonitorFilter): void => setParams((prev) => writeMonitorFilter(prev, next), { replace: true });
  const all = useMemo(() => monitors.data?.data ?? [], [monitors.data]);
  const rows = useMemo(() => filterMonitors(all, filter), [all, filter]);
  const counts = useMemo(() => statusCounts(all), [all]);
  const searchId = useId();

  const toggleStatus = (s: Monitor["status"]): void =>
    setFilter({
      ...filter,
      statuses: filter.statuses.includes(s) ? filter.statuses.filter((x) => x !== s) : [...filter.statuses, s],
    });

  const columns: DataTableColumn<Monitor>[] = [
    {
      id: "name",
      header: "Monitor",
      rowHeader: true,
      className: "wrap",
      cell: (m) => <Link to={`/w/${workspace.id}/alerts/monitors/${m.id}`}>{m.name}</Link>,
    },
    {
      id: "status",
      header: "Status",
      cell: (m) => <StatusBadge status={m.status} />,
      title: (m) => (m.status === "error" ? (m.last_error ?? undefined) : undefined),
    },
    { id: "severity", header: "Severity", cell: (m) => <SeverityBadge severity={m.severity} /> },
    {
      id: "value",
      header: "Value",
      numeric: true,
      cell: (m) => (m.value === null || m.value === undefined ? "–" : formatAlertValue(m.value)),
    },
    { id: "groups", header: "Groups", className: "small", cell: (m) => describeGroups(m.groups) },
    { id: "muted", header: "Muted", cell: (m) => (m.muted ? <MutedBadge muted /> : <span className="sr-only">no</span>) },
    {
      id: "evaluated",
      header: "Last evaluated",
      className: "small",
      cell: (m) => (m.last_eval_at ? formatDateTime(Date.parse(m.last_eval_at)) : <span className="muted">not yet</span>),
    },
    {
      id: "actions",
      header: "Actions",
      headerHidden: true,
      className: "actions",
      cell: (m) =>
        editable ? (
          <>
            <Button
              size="sm"
              aria-label={`${m.enabled ? "Disable" : "Enable"} ${m.name}`}
              disabled={update.isPending && update.variables?.id === m.id}
              onClick={() => update.mutate({ id: m.id, changes: { enabled: !m.enabled } })}
            >
              {m.enabled ? "Disable" : "Enable"}
            </Button>
            <Link className="btn btn-sm" to={`/w/${workspace.id}/alerts/monitors/${m.id}/edit`} aria-label={`Edit ${m.name}`}>
              Edit
            </Link>
          </>
        ) : null,
    },
  ];

  return (
    <>
      <div className="page-header">
        <h1>Monitors</h1>
        {editable ? (
          <Link className="btn btn-primary" to={`/w/${workspace.id}/alerts/monitors/new`}>
            New monitor
          </Link>
        ) : (
          <span className="muted small">You can read monitors; editors create and change them.</span>
        )}
      </div>
      {update.error ? <Alert title="Could not change the monitor">{toUserMessage(update.error)}</Alert> : null}
      <section className="card stack" aria-label="Monitor list" aria-busy={monitors.isFetching}>
        {all.length > 0 ? (
          <div className="alerting-filters">
            <div className="field search-field">
              <label htmlFor={searchId}>Search monitors</label>
              <input
                id={searchId}
                type="search"
                placeholder="Name, description or query"
                value={filter.search}
                autoComplete="off"
                onChange={(e) => setFilter({ ...filter, search: e.target.value })}
              />
            </div>
            <div className="status-chips" role="group" aria-label="Show only these statuses">
              {STATUS_ORDER.map((s) => (
                <button
                  key={s}
                  type="button"
                  className="status-chip"
                  aria-pressed={filter.statuses.includes(s)}
                  onClick={() => toggleStatus(s)}
                >
                  {STATUS_LABELS[s]} {counts[s]}
                </button>
              ))}
            </div>
            <label className="check">
              <input type="checkbox" checked={filter.muted} onChange={(e) => setFilter({ ...filter, muted: e.target.checked })} />
              Muted only
            </label>
            {isFilteringMonitors(filter) ? (
              <Button size="sm" variant="ghost" onClick={() => setFilter(NO_MONITOR_FILTER)}>
                Clear filters
              </Button>
            ) : null}
          </div>
        ) : null}
        <DataTable
          caption="Monitors and their state"
          testId="monitors-table"
          rowTestId="monitor-row"
          loading={monitors.isPending}
          loadingLabel="Loading monitors"
          error={monitors.error}
          errorTitle="Could not load the monitors"
          empty={
            all.length === 0 ? (
              <EmptyState title="No monitors yet" testId="monitors-empty">
                A monitor runs a query every minute or so and tells you when its value crosses a threshold.{" "}
                {editable ? (
                  <>
                    Create one here, or from a query in <Link to={`/w/${workspace.id}/explore`}>Explore</Link> (Create
                    monitor).
                  </>
                ) : null}
              </EmptyState>
            ) : (
              <EmptyState title="No monitors match these filters" testId="monitors-no-match">
                <Button onClick={() => setFilter(NO_MONITOR_FILTER)}>Clear filters</Button>
              </EmptyState>
            )
          }
          rows={rows}
          rowKey={(m) => m.id}
          rowProps={(m) => ({ title: m.description || undefined })}
          columns={columns}
        />
      </section>
    </>
  );
}
