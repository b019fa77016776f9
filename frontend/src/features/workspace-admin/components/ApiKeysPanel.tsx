import { useState, type FormEvent, type ReactElement } from "react";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { EmptyState } from "@/components/ui/EmptyState";
import { Spinner } from "@/components/ui/Spinner";
import { TextField } from "@/components/ui/TextField";
import { useConfirm } from "@/components/ui/useConfirm";
import { toUserMessage } from "@/lib/apiError";
import { formatDateTime } from "@/lib/time";
import type { KeyScope } from "../api";
import { useApiKeys, useCreateKey, useRevokeKey } from "../hooks/useApiKeys";
import { CopyButton } from "./CopyButton";

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
                    <td>
                      <span className="badge badge-accent" title={`An ${k.scope} key ${SCOPE_HELP[k.scope]}`}>
                        {k.scope}
                      </span>
                    </td>
                    <td>
                      <code>{k.key_prefix}…</code>
                    </td>
                    <td>{formatDateTime(Date.parse(k.created_at), undefined, false)}</td>
                    <td>{k.last_used_at ? formatDateTime(Date.parse(k.last_used_at), undefined, false) : "never"}</td>
                    <td>
                      {k.revoked_at ? (
                        <span className="badge badge-danger">revoked</span>
                      ) : (
                        <span className="badge badge-ok">active</span>
                      )}
                    </td>
                    <td className="actions">
                      {!k.revoked_at ? (
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
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
      {confirmDialog}
    </section>
  );
}
