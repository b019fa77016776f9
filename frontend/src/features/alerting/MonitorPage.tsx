import { useMemo, useState, type ReactElement } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { DataTable, type DataTableColumn } from "@/components/ui/DataTable";
import { EmptyState } from "@/components/ui/EmptyState";
import { Spinner } from "@/components/ui/Spinner";
import { canEdit } from "@/api/useWorkspaces";
import type { Workspace } from "@/api/workspaces";
import { toUserMessage } from "@/lib/apiError";
import { formatDateTime } from "@/lib/time";
import { useDocumentTitle } from "@/lib/useDocumentTitle";
import { useCurrentWorkspace } from "@/api/useCurrentWorkspace";
import type { Monitor, MonitorGroup } from "./api";
import { MutedBadge, SeverityBadge, StatusBadge } from "./components/Badges";
import { ConfirmDeleteButton } from "./components/ConfirmDeleteButton";
import { EventsTable } from "./components/EventsTable";
import { PreviewChart } from "./components/PreviewChart";
import { SilenceDialog } from "./components/SilenceForm";
import { describeCondition } from "./conditions";
import { useAlertEvents } from "./hooks/useAlerts";
import { useChannels } from "./hooks/useChannels";
import { useDeleteMonitor, useMonitor, useMonitorGroups, useMonitorPreview, useUpdateMonitor } from "./hooks/useMonitors";
import { checkMonitor, monitorDraft, previewRequest, secondsText } from "./monitorForm";
import { describeGroups, describeTags, formatAlertValue, REDUCER_PHRASES, SEVERITIES, SEVERITY_LABELS } from "./severity";
import { newSilenceDraft } from "./silenceForm";

/** Alerts › a monitor: its groups, recent events, the preview of the last 24 hours; edit and silence. */
export function MonitorPage(): ReactElement {
  const workspace = useCurrentWorkspace();
  const { monitorId = "" } = useParams();
  const monitor = useMonitor(workspace.id, monitorId, { live: true });
  useDocumentTitle([monitor.data?.name ?? "Monitor", "Alerts", workspace.name]);
  if (monitor.isPending) return <Spinner label="Loading the monitor" />;
  if (monitor.isError) {
    return (
      <Alert title="Could not load the monitor" titleAs="h1">
        {toUserMessage(monitor.error)} <Link to={`/w/${workspace.id}/alerts/monitors`}>All monitors</Link>
      </Alert>
    );
  }
  return <MonitorView workspace={workspace} monitor={monitor.data} />;
}

interface SilenceTarget {
  tags: Record<string, string>;
  subject: string;
}

function MonitorView({ workspace, monitor }: { workspace: Workspace; monitor: Monitor }): ReactElement {
  const editable = canEdit(workspace.role);
  const navigate = useNavigate();
  const groups = useMonitorGroups(workspace.id, monitor.id);
  const events = useAlertEvents(workspace.id, { monitor_id: monitor.id, limit: 20 });
  const channels = useChannels(workspace.id, editable);
  const update = useUpdateMonitor(workspace.id);
  const remove = useDeleteMonitor(workspace.id);
  const [silencing, setSilencing] = useState<SilenceTarget | null>(null);
  const [silenced, setSilenced] = useState<string>();
  // the saved monitor, run over the last hours
  const [hours, setHours] = useState(24);
  const request = useMemo(() => {
    const body = checkMonitor(monitorDraft(monitor)).body;
    return body ? previewRequest(body, hours) : undefined;
  }, [monitor, hours]);
  const preview = useMonitorPreview(workspace.id, request);
  const channelName = useMemo(() => new Map((channels.data?.data ?? []).map((c) => [c.id, c.name])), [channels.data]);

  const groupColumns: DataTableColumn<MonitorGroup>[] = [
    { id: "group", header: "Group", rowHeader: true, className: "wrap", cell: (g) => describeTags(g.tags) },
    { id: "state", header: "State", cell: (g) => <StatusBadge status={g.state} /> },
    { id: "severity", header: "Severity", cell: (g) => <SeverityBadge severity={g.state === "nodata" ? "nodata" : g.severity} /> },
    { id: "value", header: "Value", numeric: true, cell: (g) => formatAlertValue(g.value) },
    { id: "since", header: "Since", className: "small", cell: (g) => formatDateTime(Date.parse(g.since)) },
    {
      id: "seen",
      header: "Last seen",
      className: "small",
      cell: (g) => (g.last_seen_at ? formatDateTime(Date.parse(g.last_seen_at)) : "–"),
    },
    { id: "muted", header: "Muted", cell: (g) => (g.muted ? <MutedBadge muted /> : <span className="sr-only">no</span>) },
    {
      id: "actions",
      header: "Actions",
      headerHidden: true,
      className: "actions",
      cell: (g) =>
        editable ? (
          <Button
            size="sm"
            aria-label={`Silence ${describeTags(g.tags)}`}
            onClick={() => setSilencing({ tags: g.tags, subject: `${monitor.name}, for ${describeTags(g.tags)}` })}
          >
            Silence
          </Button>
        ) : null,
    },
  ];

  const routes = SEVERITIES.filter((s) => (monitor.routes?.[s] ?? []).length > 0);
  const reducer = REDUCER_PHRASES[monitor.reducer ?? "last"];

  return (
    <>
      <div className="page-header">
        <div className="title-row" data-testid="monitor-header">
          <h1>{monitor.name}</h1>
          <StatusBadge status={monitor.status} />
          <SeverityBadge severity={monitor.severity} />
          <MutedBadge muted={monitor.muted} />
        </div>
        <div className="toolbar">
          <Link to={`/w/${workspace.id}/alerts/monitors`}>All monitors</Link>
          {editable ? (
            <>
              <Link className="btn" to={`/w/${workspace.id}/alerts/monitors/${monitor.id}/edit`}>
                Edit
              </Link>
              <Button onClick={() => setSilencing({ tags: {}, subject: `${monitor.name}, every group` })} aria-haspopup="dialog">
                Silence
              </Button>
              <Button
                disabled={update.isPending}
                onClick={() => update.mutate({ id: monitor.id, changes: { enabled: !monitor.enabled } })}
              >
                {monitor.enabled ? "Disable" : "Enable"}
              </Button>
              <ConfirmDeleteButton
                size="md"
                name={monitor.name}
                question={`Delete "${monitor.name}"?`}
                message="It stops being evaluated and its groups go; its alert events stay in the history."
                onDelete={() => remove.mutate(monitor.id, { onSuccess: () => navigate(`/w/${workspace.id}/alerts/monitors`) })}
              />
            </>
          ) : null}
        </div>
      </div>
      {update.error || remove.error ? <Alert>{toUserMessage(update.error ?? remove.error)}</Alert> : null}
      {silenced ? (
        <Alert tone="success" testId="silence-created">
          {silenced}
        </Alert>
      ) : null}
      {monitor.status === "error" && monitor.last_error ? (
        <Alert title="Its last evaluation failed" testId="monitor-last-error">
          {monitor.last_error}
        </Alert>
      ) : null}

      <section className="card stack" aria-labelledby="monitor-facts">
        <h2 id="monitor-facts">What it checks</h2>
        {monitor.description ? <p className="message-text">{monitor.description}</p> : null}
        <dl className="alert-facts">
          <dt>Query ({monitor.language === "promql" ? "PromQL" : "DQL"})</dt>
          <dd>
            <pre className="query-text" data-testid="monitor-query">
              {monitor.query}
            </pre>
          </dd>
          <dt>Evaluated</dt>
          <dd>
            every {secondsText(monitor.interval_seconds ?? 60)}
            {monitor.language === "promql"
              ? " (instant query)"
              : `, ${reducer} over the last ${secondsText(monitor.window_seconds ?? 300)}`}
            {monitor.change
              ? `, as its change (${monitor.change.mode === "percent" ? "%" : "difference"}) against ${secondsText(monitor.change.compare_to_seconds ?? 86_400)} earlier`
              : ""}
          </dd>
          <dt>Conditions</dt>
          <dd>
            <ul className="template-vars">
              {monitor.conditions.map((c) => (
                <li key={c.severity}>
                  <SeverityBadge severity={c.severity} /> {describeCondition(c)}
                </li>
              ))}
            </ul>
            {monitor.for_seconds ? <span className="small">held for {secondsText(monitor.for_seconds)} before firing</span> : null}
          </dd>
          <dt>No data</dt>
          <dd>
            {monitor.no_data?.action === "alert"
              ? `alerts at ${SEVERITY_LABELS[monitor.no_data.severity ?? "warning"].toLowerCase()} after ${secondsText(monitor.no_data.after_seconds ?? 600)}`
              : monitor.no_data?.action === "resolve"
                ? `resolves after ${secondsText(monitor.no_data.after_seconds ?? 600)}`
                : "keeps the last state"}
          </dd>
          <dt>Notifies</dt>
          <dd data-testid="monitor-routes">
            {routes.length === 0
              ? "nobody: its alerts are shown in Vigil only"
              : routes
                  .map(
                    (s) =>
                      `${SEVERITY_LABELS[s]}: ${(monitor.routes?.[s] ?? []).map((id) => channelName.get(id) ?? (editable ? "a deleted channel" : "a channel")).join(", ")}`,
                  )
                  .join("; ")}
            {routes.length > 0 && monitor.renotify_minutes
              ? `; again every ${secondsText(monitor.renotify_minutes * 60)} while firing`
              : ""}
            {routes.length === 0 ? "" : monitor.notify_resolved === false ? "; not when it resolves" : "; and when it resolves"}
          </dd>
          {monitor.runbook_url ? (
            <>
              <dt>Runbook</dt>
              <dd>
                <a href={monitor.runbook_url} target="_blank" rel="noreferrer">
                  {monitor.runbook_url}
                </a>
              </dd>
            </>
          ) : null}
          <dt>Last evaluated</dt>
          <dd>
            {monitor.last_eval_at
              ? `${formatDateTime(Date.parse(monitor.last_eval_at))}${monitor.last_eval_ms != null ? ` (${Math.round(monitor.last_eval_ms)} ms)` : ""}`
              : "not yet"}
            {monitor.enabled ? `, next at ${formatDateTime(Date.parse(monitor.next_eval_at))}` : " (disabled)"}
          </dd>
        </dl>
      </section>

      <section className="card stack" aria-labelledby="monitor-groups" aria-busy={groups.isFetching}>
        <div className="card-header">
          <h2 id="monitor-groups">Groups</h2>
          <span className="muted small">
{describeGroups(monitor.groups)}
          </span>
        </div>
        <DataTable
          caption={`Groups of ${monitor.name}, worst first`}
          testId="groups-table"
          rowTestId="group-row"
          loading={groups.isPending}
          loadingLabel="Loading groups"
          error={groups.error}
          errorTitle="Could not load the groups"
          empty={
            <EmptyState title="No groups yet" testId="groups-empty">
              {monitor.last_eval_at
                ? "The query returned nothing at its last evaluation."
                : "They appear after its first evaluation, within one interval."}
            </EmptyState>
          }
          rows={groups.data?.data ?? []}
          rowKey={(g) => g.group_key}
          columns={groupColumns}
        />
      </section>

      <PreviewChart
        preview={preview}
        query={monitor.query}
        requested={request !== undefined}
        change={monitor.change?.mode ?? undefined}
        hours={hours}
        onHours={setHours}
      />

      <section className="card stack" aria-labelledby="monitor-events" aria-busy={events.isFetching}>
        <div className="card-header">
          <h2 id="monitor-events">Recent events</h2>
          <Link to={`/w/${workspace.id}/alerts/events?monitor=${monitor.id}`}>All events of this monitor</Link>
        </div>
        <EventsTable
          workspaceId={workspace.id}
          caption={`Recent events of ${monitor.name}`}
          events={events.data?.data ?? []}
          loading={events.isPending}
          error={events.error}
          showMonitor={false}
          empty={<EmptyState title="No events yet">Each change of a group&apos;s state is recorded here.</EmptyState>}
        />
      </section>

      {silencing ? (
        <SilenceDialog
          workspaceId={workspace.id}
          monitors={[{ id: monitor.id, name: monitor.name }]}
          initial={newSilenceDraft({ monitorId: monitor.id, tags: silencing.tags })}
          subject={`Silences ${silencing.subject}. Events are still recorded; only the notifications are held back.`}
          onClose={() => setSilencing(null)}
          onCreated={(s) => {
            setSilencing(null);
            setSilenced(`Silence created (${s.state}): ${s.comment}`);
          }}
        />
      ) : null}
    </>
  );
}
