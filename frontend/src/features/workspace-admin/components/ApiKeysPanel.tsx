import { useState, type FormEvent, type ReactElement } from "react";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { EmptyState } from "@/components/ui/EmptyState";
import { Spinner } from "@/components/ui/Spinner";
import { TextField } from "@/components/ui/TextField";
import { toUserMessage } from "@/lib/apiError";
import { formatDateTime } from "@/lib/time";
import type { KeyScope } from "../api";
import { useApiKeys, useCreateKey, useRevokeKey } from "../hooks/useApiKeys";

export interface ApiKeysPanelProps {
  workspaceId: string;
  canManage: boolean;
}

/** Ingest and query keys: create (the secret is shown once, with a copy button), list, revoke. */
export function ApiKeysPanel({ workspaceId, canManage }: ApiKeysPanelProps): ReactElement {
  const keys = useApiKeys(workspaceId);
  const create = useCreateKey(workspaceId);
  const revoke = useRevokeKey(workspaceId);
  const [name, setName] = useState("");
  const [scope, setScope] = useState<KeyScope>("ingest");
  const [nameError, setNameError] = useState<string>();
  const [copied, setCopied] = useState(false);

  const onCreate = (e: FormEvent): void => {
    e.preventDefault();
    if (!name.trim()) {
      setNameError("Give the key a name, e.g. the host or agent that will use it.");
      return;
    }
    setNameError(undefined);
    setCopied(false);
    create.mutate({ name: name.trim(), scope }, { onSuccess: () => setName("") });
  };

  const secret = create.data?.key;

  return (
    <section className="card stack" aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <p className="muted">
        Agents send data with an <strong>ingest</strong> key; Grafana and scripts read with a <strong>query</strong> key.
      </p>
      {canManage ? (
        <form className="row keys-form" onSubmit={onCreate} noValidate>
          <TextField label="Key name" name="key_name" value={name} error={nameError} onChange={(e) => setName(e.target.value)} />
          <label className="field">
            Scope
            <select value={scope} onChange={(e) => setScope(e.target.value as KeyScope)} name="key_scope">
              <option value="ingest">ingest</option>
              <option value="query">query</option>
            </select>
          </label>
          <Button type="submit" variant="primary" disabled={create.isPending}>
            Create key
          </Button>
        </form>
      ) : (
        <Alert tone="info">Only owners and admins can create or revoke keys.</Alert>
      )}
      {create.isError ? <Alert>{toUserMessage(create.error)}</Alert> : null}
      {secret ? (
        <Alert tone="success" title="Copy this key now — it will not be shown again" testId="new-key">
          <div className="row">
            <code className="secret" data-testid="new-key-value">
              {secret}
            </code>
            <Button
              size="sm"
              onClick={() => {
                void navigator.clipboard?.writeText(secret).then(() => setCopied(true));
              }}
            >
              {copied ? "Copied" : "Copy"}
            </Button>
          </div>
        </Alert>
      ) : null}
      {revoke.isError ? <Alert>{toUserMessage(revoke.error)}</Alert> : null}
      {keys.isPending ? (
        <Spinner label="Loading keys" />
      ) : keys.isError ? (
        <Alert title="Could not load the keys">{toUserMessage(keys.error)}</Alert>
      ) : keys.data.data.length === 0 ? (
        <EmptyState title="No keys yet">Create an ingest key and give it to your agent.</EmptyState>
      ) : (
        <table className="data-table" data-testid="keys-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Scope</th>
              <th scope="col">Key</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.data.data.map((k) => (
              <tr key={k.id}>
                <td>{k.name}</td>
                <td>{k.scope}</td>
                <td>
                  <code>{k.key_prefix}…</code>
                </td>
                <td>{formatDateTime(Date.parse(k.created_at), undefined, false)}</td>
                <td>{k.last_used_at ? formatDateTime(Date.parse(k.last_used_at), undefined, false) : "never"}</td>
                <td>{k.revoked_at ? "revoked" : "active"}</td>
                <td>
                  {canManage && !k.revoked_at ? (
                    <Button
                      size="sm"
                      variant="danger"
                      aria-label={`Revoke key ${k.name}`}
                      disabled={revoke.isPending}
                      onClick={() => {
                        if (window.confirm(`Revoke "${k.name}"? Agents using it will be refused within seconds.`)) {
                          create.reset();
                          revoke.mutate(k.id);
                        }
                      }}
                    >
                      Revoke
                    </Button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
