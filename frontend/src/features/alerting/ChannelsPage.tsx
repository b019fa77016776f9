import { useState, type FormEvent, type ReactElement } from "react";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { DataTable, type DataTableColumn } from "@/components/ui/DataTable";
import { Dialog } from "@/components/ui/Dialog";
import { EmptyState } from "@/components/ui/EmptyState";
import { RadioGroup } from "@/components/ui/RadioGroup";
import { TextField } from "@/components/ui/TextField";
import { canAdmin, canEdit } from "@/api/useWorkspaces";
import { fieldErrors, toUserMessage } from "@/lib/apiError";
import { useStringParam } from "@/lib/useUrlState";
import { useDocumentTitle } from "@/lib/useDocumentTitle";
import { useCurrentWorkspace } from "@/api/useCurrentWorkspace";
import type { Channel, ChannelTestResult, NotificationStatus } from "./api";
import { channelDraft, channelTarget, newChannelDraft, toChannelRequest, type ChannelDraft } from "./channelForm";
import { NotificationStatusBadge } from "./components/Badges";
import { ConfirmDeleteButton } from "./components/ConfirmDeleteButton";
import { NotificationsTable } from "./components/NotificationsTable";
import { useNotifications } from "./hooks/useAlerts";
import { useChannels, useCreateChannel, useDeleteChannel, useTestChannel, useUpdateChannel } from "./hooks/useChannels";
import { NOTIFICATION_STATUS_LABELS } from "./severity";

const UNDELIVERED: readonly NotificationStatus[] = ["failed", "throttled", "pending"];

/** What a test notification did, as a sentence. */
export function describeTestResult(r: ChannelTestResult): string {
  const code = r.status_code ? ` (HTTP ${r.status_code})` : "";
  return r.ok ? `Test notification delivered${code}.` : `Test notification failed${code}: ${r.error ?? "no answer"}.`;
}

/** Alerts › Channels: where notifications go (admins manage them, editors see them), and what failed. */
export function ChannelsPage(): ReactElement {
  const workspace = useCurrentWorkspace();
  useDocumentTitle(["Channels", "Alerts", workspace.name]);
  if (!canEdit(workspace.role)) {
    return (
      <>
        <h1>Channels</h1>
        <Alert tone="info">Notification channels are visible to editors and admins, and managed by admins.</Alert>
      </>
    );
  }
  return <Channels workspaceId={workspace.id} admin={canAdmin(workspace.role)} />;
}

function Channels({ workspaceId, admin }: { workspaceId: string; admin: boolean }): ReactElement {
  const channels = useChannels(workspaceId);
  const update = useUpdateChannel(workspaceId);
  const remove = useDeleteChannel(workspaceId);
  const test = useTestChannel(workspaceId);
  const [results, setResults] = useState<Record<string, ChannelTestResult>>({});
  const [editing, setEditing] = useState<Channel | "new" | null>(null);
  const [status, setStatus] = useStringParam("notifications", "failed", { replace: true });
  const shownStatus = (UNDELIVERED as readonly string[]).includes(status) ? (status as NotificationStatus) : "failed";
  const notifications = useNotifications(workspaceId, { status: shownStatus, limit: 50 });

  const onTest = (c: Channel): void =>
    test.mutate(c.id, {
      onSuccess: (r) => setResults((prev) => ({ ...prev, [c.id]: r })),
      onError: (err) => setResults((prev) => ({ ...prev, [c.id]: { ok: false, status_code: null, error: toUserMessage(err) } })),
    });

  const columns: DataTableColumn<Channel>[] = [
    { id: "name", header: "Channel", rowHeader: true, cell: (c) => c.name },
    { id: "type", header: "Type", cell: (c) => (c.type === "webhook" ? "Webhook" : "Email") },
    {
      id: "target",
      header: "Sends to",
      className: "wrap small",
      cell: (c) => (
        <>
          <span className="mono">{channelTarget(c)}</span>
          {c.type === "webhook" ? (
            <span className="muted"> · {c.has_secret ? "signed (has secret)" : "unsigned"}</span>
          ) : null}
        </>
      ),
    },
    {
      id: "enabled",
      header: "Enabled",
      cell: (c) =>
        admin ? (
          <Button
            size="sm"
            aria-label={`${c.enabled ? "Disable" : "Enable"} ${c.name}`}
            aria-pressed={c.enabled}
            onClick={() => update.mutate({ id: c.id, changes: { enabled: !c.enabled } })}
          >
            {c.enabled ? "On" : "Off"}
          </Button>
        ) : c.enabled ? (
          "On"
        ) : (
          "Off"
        ),
    },
    {
      id: "last",
      header: "Latest delivery",
      className: "wrap small",
      cell: (c) => {
        const r = results[c.id];
        return (
          <div className="cell-stack">
            {c.last_status ? <NotificationStatusBadge status={c.last_status} /> : <span className="muted">nothing sent yet</span>}
            {c.last_error ? <span className="error-text">{c.last_error}</span> : null}
            {r ? (
              <span className={r.ok ? "kind-resolved" : "error-text"} role="status" data-testid="channel-test-result">
                {describeTestResult(r)}
              </span>
            ) : null}
          </div>
        );
      },
    },
    {
      id: "actions",
      header: "Actions",
      headerHidden: true,
      className: "actions",
      cell: (c) =>
        admin ? (
          <>
            <Button
              size="sm"
              aria-label={`Send a test notification to ${c.name}`}
              disabled={test.isPending && test.variables === c.id}
              onClick={() => onTest(c)}
            >
              {test.isPending && test.variables === c.id ? "Sending…" : "Send test notification"}
            </Button>
            <Button size="sm" aria-label={`Edit ${c.name}`} aria-haspopup="dialog" onClick={() => setEditing(c)}>
              Edit
            </Button>
            <ConfirmDeleteButton
              name={c.name}
              question={`Delete the channel "${c.name}"?`}
              message="Monitors that route to it stop sending there."
              onDelete={() => remove.mutate(c.id)}
            />
          </>
        ) : null,
    },
  ];

  return (
    <>
      <div className="page-header">
        <h1>Channels</h1>
        {admin ? (
          <Button variant="primary" onClick={() => setEditing("new")} aria-haspopup="dialog">
            New channel
          </Button>
        ) : (
          <span className="muted small">Admins add, change and test channels.</span>
        )}
      </div>
      {update.error || remove.error ? <Alert>{toUserMessage(update.error ?? remove.error)}</Alert> : null}
      <section className="card" aria-label="Channel list" aria-busy={channels.isFetching}>
        <DataTable
          caption="Notification channels"
          testId="channels-table"
          rowTestId="channel-row"
          loading={channels.isPending}
          loadingLabel="Loading channels"
          error={channels.error}
          errorTitle="Could not load the channels"
          empty={
            <EmptyState title="No channels yet" testId="channels-empty">
              A channel is a webhook (JSON, optionally signed) or email addresses; monitors route each severity to channels.
            </EmptyState>
          }
          rows={channels.data?.data ?? []}
          rowKey={(c) => c.id}
          columns={columns}
        />
      </section>
      <section className="card stack" aria-labelledby="undelivered-title" aria-busy={notifications.isFetching}>
        <div className="card-header">
          <h2 id="undelivered-title">Undelivered notifications</h2>
          <RadioGroup
            label="Notifications shown"
            options={UNDELIVERED.map((s) => ({ value: s, label: NOTIFICATION_STATUS_LABELS[s] }))}
            value={shownStatus}
            onChange={setStatus}
          />
        </div>
        <NotificationsTable
          workspaceId={workspaceId}
          caption={`Notifications ${NOTIFICATION_STATUS_LABELS[shownStatus].toLowerCase()}, newest first`}
          notifications={notifications.data?.data ?? []}
          loading={notifications.isPending}
          error={notifications.error}
          showEvent
          empty={
            <EmptyState title="None" testId="undelivered-empty">
              {shownStatus === "failed"
                ? "Every notification was delivered (or is still being retried)."
                : shownStatus === "throttled"
                  ? "No notification was held back by the workspace's hourly limit."
                  : "No notification is waiting for a retry."}
            </EmptyState>
          }
        />
      </section>
      {editing ? (
        <ChannelDialog
          workspaceId={workspaceId}
          channel={editing === "new" ? undefined : editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </>
  );
}

interface ChannelDialogProps {
  workspaceId: string;
  channel?: Channel;
  onClose: () => void;
}

const TYPES = [
  { value: "webhook", label: "Webhook" },
  { value: "email", label: "Email" },
] as const;

function ChannelDialog({ workspaceId, channel, onClose }: ChannelDialogProps): ReactElement {
  const [draft, setDraft] = useState<ChannelDraft>(() => (channel ? channelDraft(channel) : newChannelDraft()));
  const [submitted, setSubmitted] = useState(false);
  const create = useCreateChannel(workspaceId);
  const update = useUpdateChannel(workspaceId);
  const pending = create.isPending || update.isPending;
  const error = create.error ?? update.error;
  const checked = toChannelRequest(draft, channel);
  const server = fieldErrors(error);
  const err = (key: string): string | undefined => (submitted ? checked.errors[key] : undefined) ?? server[key];
  const set = (patch: Partial<ChannelDraft>): void => {
    setDraft((d) => ({ ...d, ...patch }));
    create.reset();
    update.reset();
  };
  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    setSubmitted(true);
    if (pending) return;
    if (checked.create) create.mutate(checked.create, { onSuccess: onClose });
    else if (checked.update && channel) {
      if (Object.keys(checked.update).length === 0) onClose();
      else update.mutate({ id: channel.id, changes: checked.update }, { onSuccess: onClose });
    }
  };
  const other = error && Object.keys(server).length === 0 ? toUserMessage(error) : undefined;
  return (
    <Dialog
      title={channel ? `Edit ${channel.name}` : "New channel"}
      description="Webhooks receive a JSON body (signed with X-Vigil-Signature when there is a secret); emails go through the workspace's mail server."
      onClose={onClose}
      testId="channel-dialog"
      className="dialog-wide-form"
      initialFocus="input[name='name']"
    >
      <form className="stack" onSubmit={onSubmit} noValidate aria-label={channel ? "Edit channel" : "New channel"}>
        {channel ? null : (
          <RadioGroup label="Type" options={TYPES} value={draft.type} onChange={(type) => set({ type })} />
        )}
        <TextField label="Name" name="name" value={draft.name} onChange={(e) => set({ name: e.target.value })} error={err("name")} />
        {draft.type === "webhook" ? (
          <>
            <TextField
              label="URL"
              name="url"
              type="url"
              placeholder="https://hooks.example.com/vigil"
              value={draft.url}
              onChange={(e) => set({ url: e.target.value })}
              error={err("config.url") ?? err("config")}
              hint="Addresses on private networks are refused unless your operator allowed them."
            />
            <TextField
              label={channel?.has_secret ? "New signing secret" : "Signing secret (optional)"}
              name="secret"
              type="password"
              autoComplete="new-password"
              value={draft.secret}
              onChange={(e) => set({ secret: e.target.value })}
              error={err("secret")}
              hint={
                channel?.has_secret
                  ? "This channel has a secret (never shown). Type a new one to replace it."
                  : "16 characters or more; it is never shown again."
              }
            />
            {channel?.has_secret ? (
              <label className="check">
                <input
                  type="checkbox"
                  checked={draft.removeSecret}
                  disabled={draft.secret !== ""}
                  onChange={(e) => set({ removeSecret: e.target.checked })}
                />
                Remove the secret (send unsigned)
              </label>
            ) : null}
          </>
        ) : (
          <div className="field">
            <label htmlFor="channel-addresses">Addresses</label>
            <textarea
              id="channel-addresses"
              name="addresses"
              rows={3}
              placeholder="oncall@example.com, ops@example.com"
              value={draft.addresses}
              onChange={(e) => set({ addresses: e.target.value })}
              aria-invalid={err("config.addresses") ? true : undefined}
              aria-describedby="channel-addresses-msg"
            />
            <span id="channel-addresses-msg" className={err("config.addresses") ? "field-error" : "field-hint"}>
              {err("config.addresses") ?? "Up to 20, separated by commas or new lines."}
            </span>
          </div>
        )}
        <label className="check">
          <input type="checkbox" checked={draft.enabled} onChange={(e) => set({ enabled: e.target.checked })} />
          Enabled
        </label>
        {other ? (
          <span className="field-error" role="alert" data-testid="channel-error">
            {other}
          </span>
        ) : null}
        <div className="row">
          <Button type="submit" variant="primary" disabled={pending}>
            {channel ? "Save channel" : "Create channel"}
          </Button>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
