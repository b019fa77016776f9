import { useState, type ReactElement } from "react";
import { Link, useParams } from "react-router";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { EmptyState } from "@/components/ui/EmptyState";
import { Spinner } from "@/components/ui/Spinner";
import { canEdit } from "@/api/useWorkspaces";
import { toUserMessage } from "@/lib/apiError";
import { formatDateTime } from "@/lib/time";
import { useDocumentTitle } from "@/lib/useDocumentTitle";
import { useCurrentWorkspace } from "@/api/useCurrentWorkspace";
import { KindBadge, MutedBadge, SeverityBadge } from "./components/Badges";
import { NotificationsTable } from "./components/NotificationsTable";
import { SilenceDialog } from "./components/SilenceForm";
import { exploreLink } from "./exploreLink";
import { useAlertEvent } from "./hooks/useAlerts";
import { useSilences } from "./hooks/useSilences";
import { describeTags, formatAlertValue, KIND_LABELS } from "./severity";
import { describeMatchers, newSilenceDraft } from "./silenceForm";

/** Alerts › an event (the page notifications link to): what happened, to which group, and what was sent. */
export function EventPage(): ReactElement {
  const workspace = useCurrentWorkspace();
  const { eventId = "" } = useParams();
  const event = useAlertEvent(workspace.id, eventId);
  const silences = useSilences(workspace.id);
  const [silencing, setSilencing] = useState(false);
  const [silenced, setSilenced] = useState<string>();
  const e = event.data;
  useDocumentTitle([e ? `${KIND_LABELS[e.kind]}: ${e.monitor_name}` : "Alert event", "Alerts", workspace.name]);
  if (event.isPending) return <Spinner label="Loading the event" />;
  if (event.isError || !e) {
    return (
      <Alert title="Could not load the event" titleAs="h1">
        {toUserMessage(event.error)} <Link to={`/w/${workspace.id}/alerts/events`}>All events</Link>
      </Alert>
    );
  }
  const explore = exploreLink(workspace.id, e);
  const silence = e.silence_id ? silences.data?.data.find((s) => s.id === e.silence_id) : undefined;
  const editable = canEdit(workspace.role);
  return (
    <>
      <div className="page-header">
        <div className="title-row">
          <h1>{e.title || `${e.monitor_name} ${e.kind}`}</h1>
          <KindBadge kind={e.kind} />
          <SeverityBadge severity={e.kind === "nodata" ? "nodata" : e.severity} />
          <MutedBadge muted={e.muted} />
        </div>
        <div className="toolbar">
          {explore ? (
            <Link className="btn" to={explore} data-testid="event-explore">
              Open in Explore at that time
            </Link>
          ) : null}
          {editable && e.monitor_id ? (
            <Button onClick={() => setSilencing(true)} aria-haspopup="dialog">
              Silence this group
            </Button>
          ) : null}
        </div>
      </div>
      {silenced ? <Alert tone="success">{silenced}</Alert> : null}
      <section className="card stack" aria-labelledby="event-facts">
        <h2 id="event-facts">What happened</h2>
        <dl className="alert-facts">
          <dt>Monitor</dt>
          <dd>
            {e.monitor_id ? (
              <Link to={`/w/${workspace.id}/alerts/monitors/${e.monitor_id}`}>{e.monitor_name}</Link>
            ) : (
              `${e.monitor_name} (deleted)`
            )}
          </dd>
          <dt>Group</dt>
          <dd data-testid="event-group">{describeTags(e.tags)}</dd>
          <dt>When</dt>
          <dd>{formatDateTime(Date.parse(e.at))}</dd>
          <dt>Change</dt>
          <dd>
            {e.from_state} → {e.to_state}
          </dd>
          <dt>Value</dt>
          <dd data-testid="event-value">{formatAlertValue(e.value)}</dd>
          <dt>Condition</dt>
          <dd>{e.condition || "–"}</dd>
          <dt>Query ({e.language === "promql" ? "PromQL" : "DQL"})</dt>
          <dd>
            <pre className="query-text">{e.query}</pre>
          </dd>
          <dt>Message</dt>
          <dd>
            <p className="message-text" data-testid="event-message">
              {e.message || "–"}
            </p>
          </dd>
          <dt>Muted</dt>
          <dd data-testid="event-muted">
            {e.muted ? (
              <>
                Yes: nothing was sent.{" "}
                {silence ? (
                  <>
                    Silence “{silence.comment}”
                    {silence.matchers.length > 0 ? ` (${describeMatchers(silence.matchers)})` : ""},{" "}
                    <Link to={`/w/${workspace.id}/alerts/silences`}>silences</Link>.
                  </>
                ) : e.silence_id ? (
                  <>
                    By a silence that is gone or could not be read (<Link to={`/w/${workspace.id}/alerts/silences`}>silences</Link>).
                  </>
                ) : null}
              </>
            ) : (
              "No"
            )}
          </dd>
        </dl>
      </section>
      <section className="card stack" aria-labelledby="event-notifications" aria-busy={event.isFetching}>
        <h2 id="event-notifications">Notifications</h2>
        <NotificationsTable
          workspaceId={workspace.id}
          caption="Notifications of this event and their delivery"
          notifications={e.notifications}
          empty={
            <EmptyState title="Nothing was sent" testId="notifications-empty">
              {e.muted
                ? "A silence muted it: the event is recorded, no one was told."
                : e.kind === "firing" || e.kind === "resolved" || e.kind === "nodata"
                  ? "No channel is set for this severity (or resolved messages are off)."
                  : `A ${KIND_LABELS[e.kind].toLowerCase()} event is recorded, never sent.`}
            </EmptyState>
          }
        />
      </section>
      {silencing && e.monitor_id ? (
        <SilenceDialog
          workspaceId={workspace.id}
          monitors={[{ id: e.monitor_id, name: e.monitor_name }]}
          initial={newSilenceDraft({ monitorId: e.monitor_id, tags: e.tags })}
          subject={`Silences ${e.monitor_name} for ${describeTags(e.tags)}.`}
          onClose={() => setSilencing(false)}
          onCreated={(s) => {
            setSilencing(false);
            setSilenced(`Silence created (${s.state}): ${s.comment}`);
          }}
        />
      ) : null}
    </>
  );
}
