import type { ReactElement, ReactNode } from "react";
import { Link } from "react-router";
import { DataTable, type DataTableColumn } from "@/components/ui/DataTable";
import { formatDateTime } from "@/lib/time";
import type { AlertEvent } from "../api";
import { describeTags, formatAlertValue } from "../severity";
import { KindBadge, MutedBadge, SeverityBadge } from "./Badges";

export interface EventsTableProps {
  workspaceId: string;
  caption: string;
  events: readonly AlertEvent[];
  loading: boolean;
  error: Error | null;
  /** The monitor's column (off on a monitor's own page). */
  showMonitor?: boolean;
  empty: ReactNode;
}

/** Alert events newest first: when (the link to the event's page), what, which group, the value, muted. */
export function EventsTable({ workspaceId, caption, events, loading, error, showMonitor = true, empty }: EventsTableProps): ReactElement {
  const columns: DataTableColumn<AlertEvent>[] = [
    {
      id: "at",
      header: "Time",
      rowHeader: true,
      cell: (e) => (
        <Link to={`/w/${workspaceId}/alerts/events/${e.id}`} data-testid="event-link">
          {formatDateTime(Date.parse(e.at))}
        </Link>
      ),
    },
    { id: "kind", header: "Event", cell: (e) => <KindBadge kind={e.kind} /> },
    {
      id: "severity",
      header: "Severity",
      cell: (e) => <SeverityBadge severity={e.kind === "nodata" ? "nodata" : e.severity} />,
    },
    ...(showMonitor
      ? [
          {
            id: "monitor",
            header: "Monitor",
            className: "wrap",
            cell: (e: AlertEvent) =>
              e.monitor_id ? (
                <Link to={`/w/${workspaceId}/alerts/monitors/${e.monitor_id}`}>{e.monitor_name}</Link>
              ) : (
                <span title="This monitor was deleted">{e.monitor_name}</span>
              ),
          },
        ]
      : []),
    { id: "group", header: "Group", className: "wrap", cell: (e) => describeTags(e.tags) },
    { id: "value", header: "Value", numeric: true, cell: (e) => formatAlertValue(e.value) },
    { id: "condition", header: "Condition", className: "small", cell: (e) => e.condition || "–" },
    {
      id: "muted",
      header: "Muted",
      cell: (e) => (e.muted ? <MutedBadge muted title="A silence held back its notifications" /> : <span className="sr-only">no</span>),
    },
  ];
  return (
    <DataTable
      caption={caption}
      testId="events-table"
      rowTestId="event-row"
      loading={loading}
      loadingLabel="Loading events"
      error={error}
      errorTitle="Could not load the events"
      empty={empty}
      rows={events}
      rowKey={(e) => e.id}
      rowProps={(e) => ({ title: e.title })}
      columns={columns}
    />
  );
}
