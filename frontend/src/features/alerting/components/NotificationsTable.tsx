import type { ReactElement, ReactNode } from "react";
import { Link } from "react-router";
import { DataTable, type DataTableColumn } from "@/components/ui/DataTable";
import { formatDateTime } from "@/lib/time";
import type { Notification } from "../api";
import { NotificationStatusBadge } from "./Badges";

export interface NotificationsTableProps {
  workspaceId: string;
  caption: string;
  notifications: readonly Notification[];
  loading?: boolean;
  error?: Error | null;
  /** A column linking each to its event (the channels page's list of failures). */
  showEvent?: boolean;
  empty: ReactNode;
}

/** Notifications and what became of them: where, the delivery, the attempts, the receiver's error. */
export function NotificationsTable({
  workspaceId,
  caption,
  notifications,
  loading = false,
  error = null,
  showEvent = false,
  empty,
}: NotificationsTableProps): ReactElement {
  const columns: DataTableColumn<Notification>[] = [
    { id: "channel", header: "Channel", rowHeader: true, cell: (n) => n.channel_name },
    { id: "kind", header: "Kind", cell: (n) => n.kind },
    { id: "status", header: "Delivery", cell: (n) => <NotificationStatusBadge status={n.status} /> },
    { id: "attempts", header: "Attempts", numeric: true, cell: (n) => n.attempts },
    {
      id: "error",
      header: "Last error",
      className: "wrap small",
      cell: (n) => (n.last_error ? <span className="error-text">{n.last_error}</span> : "–"),
    },
    { id: "created", header: "Queued", className: "small", cell: (n) => formatDateTime(Date.parse(n.created_at)) },
    {
      id: "sent",
      header: "Delivered",
      className: "small",
      cell: (n) =>
        n.sent_at
          ? formatDateTime(Date.parse(n.sent_at))
          : n.status === "pending"
            ? `next try ${formatDateTime(Date.parse(n.next_attempt_at))}`
            : "–",
    },
    ...(showEvent
      ? [
          {
            id: "event",
            header: "Event",
            cell: (n: Notification) =>
              n.event_id ? <Link to={`/w/${workspaceId}/alerts/events/${n.event_id}`}>View event</Link> : <span className="muted">test</span>,
          },
        ]
      : []),
  ];
  return (
    <DataTable
      caption={caption}
      testId="notifications-table"
      rowTestId="notification-row"
      loading={loading}
      loadingLabel="Loading notifications"
      error={error}
      errorTitle="Could not load the notifications"
      rows={notifications}
      rowKey={(n) => n.id}
      columns={columns}
      empty={empty}
    />
  );
}
