import { useState, type FormEvent, type ReactElement } from "react";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { DataTable, type DataTableColumn } from "@/components/ui/DataTable";
import { EmptyState } from "@/components/ui/EmptyState";
import { TextField } from "@/components/ui/TextField";
import { useConfirm } from "@/components/ui/useConfirm";
import { toUserMessage } from "@/lib/apiError";
import { formatDateTime } from "@/lib/time";
import type { ApiKey, KeyScope } from "../api";
import { useApiKeys, useCreateKey, useRevokeKey } from "../hooks/useApiKeys";
import { CopyButton } from "@/components/ui/CopyButton";

export interface ApiKeysPanelProps {
  workspaceId: string;
  canManage: boolean;
}

const SCOPE_HELP: Record<KeyScope, string> = {
  ingest: "writes points through the gateway",
  query: "reads with DQL and PromQL",
};

/** Ingest and query keys: create (the secret is shown once, with a copy button), list, revoke. */
export function ApiKeysPanel({ workspaceId, canManage }: ApiKeysPanelProps): ReactElement {
  const keys = useApiKeys(workspaceId, canManage);
  const create = useCreateKey(workspaceId);
  const revoke = useRevokeKey(workspaceId);
  const [confirm, confirmDialog] = useConfirm();
  const [name, setName] = useState("");
  const [scope, setScope] = useState<KeyScope>("ingest");
  const [nameError, setNameError] = useState<string>();

  const onCreate = (e: FormEvent): void => {
    e.preventDefault();
    if (!name.trim()) {
      setNameError("Give the key a name, e.g. the host or agent that will use it.");
      return;
    }
    setNameError(undefined);
    create.mutate({ name: name.trim(), scope }, { onSuccess: () => setName("") });
  };

  const secret = create.data?.key;
  const columns: DataTableColumn<ApiKey>[] = [
    { id: "name", header: "Name", cell: (k) => k.name },
    {
      id: "scope",
      header: "Scope",
      cell: (k) => (
        <span className="badge badge-accent" title={`An ${k.scope} key ${SCOPE_HELP[k.scope]}`}>
          {k.scope}
        </span>
      ),
    },
    { id: "key", header: "Key", cell: (k) => <code>{k.key_prefix}…</code> },
    { id: "created", header: "Created", cell: (k) => formatDateTime(Date.parse(k.created_at), undefined, false) },
    {
      id: "creator",
      header: "Created by",
      // keys belong to the workspace: they outlive their creator's membership unless revoked
      cell: (k) =>
        k.created_by_email ? (
          <span title={k.created_by_name ?? undefined}>{k.created_by_email}</span>
        ) : (
          <span className="muted">{k.created_by ? "a deleted account" : "–"}</span>
        ),
    },
    {
      id: "last-used",
      header: "Last used",
      cell: (k) => (k.last_used_at ? formatDateTime(Date.parse(k.last_used_at), undefined, false) : "never"),
    },
    {
      id: "status",
      header: "Status",
      cell: (k) =>
        k.revoked_at ? <span className="badge badge-danger">revoked</span> : <span className="badge badge-ok">active</span>,
    },
    {
      id: "actions",
      header: "Actions",
      headerHidden: true,
      className: "actions",
      cell: (k) =>
        !k.revoked_at ? (
          <Button
            size="sm"
            variant="danger"
            aria-label={`Revoke key ${k.name}`}
            disabled={revoke.isPending}
            onClick={async () => {
              const ok = await confirm({
                title: `Revoke "${k.name}"?`,
                message: "Agents using it will be refused within seconds.",
                confirmLabel: "Revoke",
              });
              if (!ok) return;
              create.reset();
              revoke.mutate(k.id);
            }}
          >
            Revoke
          </Button>
        ) : null,
    },
  ];

  return (
    <section className="card stack" aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <p className="muted">
        Agents send data with an <strong>ingest</strong> key; Grafana and scripts read with a <strong>query</strong> key.
      </p>
      {!canManage ? (
        <Alert tone="info">Only owners and admins can see, create or revoke keys.</Alert>
      ) : (
        <>
          <form className="row keys-form" onSubmit={onCreate} noValidate aria-label="Create a key">
            <TextField label="Key name" name="key_name" value={name} error={nameError} onChange={(e) => setName(e.target.value)} />
            <label className="field">
              Scope
              <select value={scope} onChange={(e) => setScope(e.target.value as KeyScope)} name="key_scope">
                <option value="ingest">ingest — {SCOPE_HELP.ingest}</option>
                <option value="query">query — {SCOPE_HELP.query}</option>
              </select>
            </label>
            <Button type="submit" variant="primary" disabled={create.isPending}>
              Create key
            </Button>
          </form>
          {create.isError ? <Alert>{toUserMessage(create.error)}</Alert> : null}
          {secret ? (
            <Alert tone="success" title="Copy this key now — it will not be shown again" testId="new-key">
              <div className="row">
                <code className="secret" data-testid="new-key-value">
                  {secret}
                </code>
                <CopyButton text={secret} label="Copy key" />
              </div>
            </Alert>
          ) : null}
          {revoke.isError ? <Alert>{toUserMessage(revoke.error)}</Alert> : null}
          <DataTable
            caption="API keys and their status"
            testId="keys-table"
            loading={keys.isPending}
            loadingLabel="Loading keys"
            error={keys.error}
            errorTitle="Could not load the keys"
            empty={<EmptyState title="No keys yet">Create an ingest key and give it to your agent.</EmptyState>}
            rows={keys.data?.data ?? []}
            rowKey={(k) => k.id}
            columns={columns}
          />
        </>
      )}
      {confirmDialog}
    </section>
  );
}
