import type { ReactElement } from "react";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { DataTable, type DataTableColumn } from "@/components/ui/DataTable";
import { useConfirm } from "@/components/ui/useConfirm";
import { toUserMessage } from "@/lib/apiError";
import { formatDateTime } from "@/lib/time";
import type { Session } from "../api";
import { useEndOtherSessions, useEndSession, useSessions } from "../hooks/useAccount";
import { describeUserAgent } from "../securityLog";

export interface SessionsCardProps {
  /** Ends every session, this one included (the account page's sign-out everywhere). */
  onSignOutEverywhere: () => void;
}

/**
 * The account's open sessions, one per sign-in: device, address, when it signed in and was
 * last active; sign out one of them, or all but this one.
 */
export function SessionsCard({ onSignOutEverywhere }: SessionsCardProps): ReactElement {
  const sessions = useSessions();
  const endOne = useEndSession();
  const endOthers = useEndOtherSessions();
  const [confirm, confirmDialog] = useConfirm();
  const others = (sessions.data?.data ?? []).filter((s) => !s.current).length;
  const error = endOne.error ?? endOthers.error;

  const columns: DataTableColumn<Session>[] = [
    {
      id: "device",
      header: "Device",
      cell: (s) => (
        <>
          <span title={s.user_agent ?? undefined}>{describeUserAgent(s.user_agent)}</span>
          {s.current ? <span className="badge badge-accent session-current">this browser</span> : null}
        </>
      ),
    },
    { id: "ip", header: "Address", cell: (s) => s.ip ?? <span className="muted">unknown</span> },
    { id: "created", header: "Signed in", cell: (s) => formatDateTime(Date.parse(s.created_at), undefined, false) },
    { id: "active", header: "Last active", cell: (s) => formatDateTime(Date.parse(s.last_active_at), undefined, false) },
    {
      id: "actions",
      header: "Actions",
      headerHidden: true,
      className: "actions",
      cell: (s) =>
        s.current ? null : (
          <Button
            size="sm"
            variant="danger"
            aria-label={`Sign out ${describeUserAgent(s.user_agent)} from ${s.ip ?? "an unknown address"}`}
            disabled={endOne.isPending}
            onClick={async () => {
              const ok = await confirm({
                title: `Sign out ${describeUserAgent(s.user_agent)}?`,
                message: "That browser or device has to sign in again.",
                confirmLabel: "Sign out",
              });
              if (ok) endOne.mutate(s.id);
            }}
          >
            Sign out
          </Button>
        ),
    },
  ];

  return (
    <section className="card account-form" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Sessions</h2>
      <p className="muted">
        Every browser and device signed in to your account. Do not recognise one? Sign it out, change your password,
        and look at the security log below.
      </p>
      {error ? <Alert testId="sessions-error">{toUserMessage(error)}</Alert> : null}
      {endOthers.data ? (
        <Alert tone="success" testId="sessions-ended">
          {endOthers.data.ended === 1 ? "1 other session was" : `${endOthers.data.ended} other sessions were`} signed
          out.
        </Alert>
      ) : null}
      <DataTable
        caption="Open sessions of your account"
        testId="sessions-table"
        loading={sessions.isPending}
        loadingLabel="Loading your sessions"
        error={sessions.error}
        errorTitle="Could not load your sessions"
        rows={sessions.data?.data ?? []}
        rowKey={(s) => s.id}
        columns={columns}
      />
      <div className="row">
        <Button
          variant="danger"
          disabled={others === 0 || endOthers.isPending}
          onClick={async () => {
            const ok = await confirm({
              title: "Sign out every other session?",
              message: "Every other browser and device has to sign in again; this one stays signed in.",
              confirmLabel: "Sign out others",
            });
            if (ok) endOthers.mutate();
          }}
        >
          Sign out other sessions
        </Button>
        <Button variant="danger" onClick={onSignOutEverywhere}>
          Sign out everywhere
        </Button>
      </div>
      {confirmDialog}
    </section>
  );
}
