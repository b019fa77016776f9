import { useState, type FormEvent, type ReactElement } from "react";
import type { ApiKey, KeyScope } from "@/api/apiKeys";
import { useApiKeys, useCreateKey, useRevokeKey } from "@/api/useApiKeys";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { CopyButton } from "@/components/ui/CopyButton";
import { DataTable, type DataTableColumn } from "@/components/ui/DataTable";
import { EmptyState } from "@/components/ui/EmptyState";
import { TextField } from "@/components/ui/TextField";
import { useConfirm } from "@/components/ui/useConfirm";
import { toUserMessage } from "@/lib/apiError";
import { formatDateTime } from "@/lib/time";
import { isServiceToken, KEY_SCOPES, tokenExample } from "../keyScopes";

export interface ApiKeysPanelProps {
  workspaceId: string;
  canManage: boolean;
}

const scopeOption = (scope: KeyScope): ReactElement => (
  <option key={scope} value={scope}>
    {scope} — {KEY_SCOPES[scope].help}
  </option>
);

/**
 * Ingest and query keys, and service tokens (editor or admin) for the REST API: create (the
 * secret is shown once, with a copy button), list with who created each and when it was last
 * used, revoke.
 */
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
      setNameError(
        isServiceToken(scope)
          ? "Give the token a name, e.g. the script or pipeline that will use it."
          : "Give the key a name, e.g. the host or agent that will use it.",
      );
      return;
    }
    setNameError(undefined);
    create.mutate({ name: name.trim(), scope }, { onSuccess: () => setName("") });
  };

  const secret = create.data?.key;
  const newToken = create.data ? isServiceToken(create.data.scope) : false;
  const noun = isServiceToken(scope) ? "token" : "key";
  const columns: DataTableColumn<ApiKey>[] = [
    { id: "name", header: "Name", cell: (k) => k.name },
    {
      id: "scope",
      header: "Scope",
      cell: (k) => (
        <span className="badge badge-accent" title={KEY_SCOPES[k.scope].help}>
          {KEY_SCOPES[k.scope].label}
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
                message: isServiceToken(k.scope)
                  ? "Scripts using it will be refused at once, and the invitations it sent that are still pending are revoked."
                  : "Agents using it will be refused within seconds.",
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
        A <strong>service token</strong> lets a script use the REST API of this workspace — for example to apply
        dashboards kept in git — with an editor&apos;s or an admin&apos;s rights, as <code>Authorization: Bearer</code>.
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
                <optgroup label="Keys for agents and Grafana">{(["ingest", "query"] as const).map(scopeOption)}</optgroup>
                <optgroup label="Service tokens for the REST API">{(["editor", "admin"] as const).map(scopeOption)}</optgroup>
              </select>
            </label>
            <Button type="submit" variant="primary" disabled={create.isPending}>
              Create {noun}
            </Button>
          </form>
          {create.isError ? <Alert>{toUserMessage(create.error)}</Alert> : null}
          {secret ? (
            <Alert
              tone="success"
              title={`Copy this ${newToken ? "token" : "key"} now — it will not be shown again`}
              testId="new-key"
            >
              <div className="row">
                <code className="secret" data-testid="new-key-value">
                  {secret}
                </code>
                <CopyButton text={secret} label={newToken ? "Copy token" : "Copy key"} />
              </div>
              {newToken ? (
                <p className="small">
                  Keep it in your script&apos;s secrets as <code>VIGIL_TOKEN</code>, then:{" "}
                  <code data-testid="new-token-example">{tokenExample(window.location.origin, workspaceId)}</code>
                </p>
              ) : null}
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
