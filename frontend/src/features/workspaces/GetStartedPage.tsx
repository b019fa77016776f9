import type { ReactElement } from "react";
import { Link } from "react-router";
import { useApiKeys, useCreateKey } from "@/api/useApiKeys";
import { useCurrentWorkspace } from "@/api/useCurrentWorkspace";
import { useDashboards } from "@/api/useDashboards";
import { canAdmin, useMeta } from "@/api/useWorkspaces";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { CopyButton } from "@/components/ui/CopyButton";
import { Spinner } from "@/components/ui/Spinner";
import { toUserMessage } from "@/lib/apiError";
import { useDocumentTitle } from "@/lib/useDocumentTitle";
import { agentCommand, curlCommand, gatewayUrl, nextAgentKeyName } from "./ingestSetup";
import "./workspaces.css";

/**
 * Where a new workspace opens: create an ingest key (shown once), start an agent with it,
 * then open the shipped "Host overview" dashboard or Explore.
 */
export function GetStartedPage(): ReactElement {
  const workspace = useCurrentWorkspace();
  useDocumentTitle(["Get started", workspace.name]);
  const admin = canAdmin(workspace.role);
  const create = useCreateKey(workspace.id);
  const keys = useApiKeys(workspace.id, admin);
  const meta = useMeta();
  const dashboards = useDashboards(workspace.id);
  const hostOverview = dashboards.data?.data.find((d) => d.title === "Host overview");
  const base = `/w/${workspace.id}`;
  const created = create.data;
  const gateway = gatewayUrl(meta.data?.gateway_url, window.location.hostname);
  // Before the key is created, the count is of the keys agents can use already.
  const ingestKeys = created ? 0 : (keys.data?.data.filter((k) => k.scope === "ingest" && !k.revoked_at).length ?? 0);
  const onCreate = (): void => {
    const names = keys.isError ? undefined : keys.data?.data.map((k) => k.name);
    create.mutate({ name: nextAgentKeyName(names), scope: "ingest" });
  };

  return (
    <div className="page get-started">
      <div className="page-header">
        <h1>Welcome to {workspace.name}</h1>
      </div>
      <ol className="steps">
        <li className="card stack" aria-labelledby="step-key">
          <h2 id="step-key">1 · Create an ingest key</h2>
          <p className="muted">
            Agents authenticate with an ingest key. It is shown once: copy it into the agent&apos;s configuration.
          </p>
          {!admin ? (
            <Alert tone="info">Ask an owner or admin of this workspace for an ingest key.</Alert>
          ) : created ? (
            <Alert
              tone="success"
              title={`Your ingest key “${created.name}” — copy it now, it will not be shown again`}
              testId="new-key"
            >
              <div className="row">
                <code className="secret" data-testid="new-key-value">
                  {created.key}
                </code>
                <CopyButton text={created.key} label="Copy key" />
              </div>
              <p>Start the agent on each host you want to watch:</p>
              <div className="row">
                <code className="secret" data-testid="agent-command">
                  {agentCommand(created.key, gateway)}
                </code>
                <CopyButton text={agentCommand(created.key, gateway)} label="Copy agent command" />
              </div>
              <p>Or send one point in Influx line protocol, to check the key:</p>
              <div className="row">
                <code className="secret" data-testid="curl-command">
                  {curlCommand(created.key, gateway)}
                </code>
                <CopyButton text={curlCommand(created.key, gateway)} label="Copy curl command" />
              </div>
            </Alert>
          ) : (
            <>
              {ingestKeys > 0 ? (
                <p data-testid="existing-keys">
                  This workspace has {ingestKeys} ingest {ingestKeys === 1 ? "key" : "keys"} —{" "}
                  <Link to={`${base}/settings/keys`}>manage them</Link>. Agents can share one, or each get their own.
                </p>
              ) : null}
              <div className="row">
                <Button variant="primary" disabled={create.isPending || keys.isPending} onClick={onCreate}>
                  {ingestKeys > 0 ? "Create another ingest key" : "Create an ingest key"}
                </Button>
                {ingestKeys > 0 ? null : <Link to={`${base}/settings/keys`}>Manage keys</Link>}
              </div>
            </>
          )}
          {create.isError ? <Alert>{toUserMessage(create.error)}</Alert> : null}
          <p className="muted small" data-testid="gateway-url">
            Agents send to <code>{gateway}</code>
            {meta.data && !meta.data.gateway_url ? (
              <>
                {" "}
                (this page&apos;s host on the gateway&apos;s default port; an operator can set the real address with{" "}
                <code>VIGIL_PUBLIC_GATEWAY_URL</code>).
              </>
            ) : (
              "."
            )}
          </p>
        </li>
        <li className="card stack" aria-labelledby="step-dashboard">
          <h2 id="step-dashboard">2 · Watch your hosts</h2>
          <p className="muted">
            The <strong>Host overview</strong> dashboard comes with every workspace: CPU, memory, disk and network of
            every host running the agent, with a host picker.
          </p>
          {dashboards.isPending ? (
            <Spinner label="Loading dashboards" />
          ) : hostOverview ? (
            <div className="row">
              <Link className="btn btn-primary" to={`${base}/dashboards/${hostOverview.id}`}>
                Open Host overview
              </Link>
            </div>
          ) : (
            <Link to={`${base}/dashboards`}>All dashboards</Link>
          )}
        </li>
        <li className="card stack" aria-labelledby="step-explore">
          <h2 id="step-explore">3 · Explore and invite</h2>
          <p className="muted">Query any metric with DQL, save the queries you use often, and bring your team.</p>
          <div className="row">
            <Link className="btn" to={`${base}/explore`}>
              Open Explore
            </Link>
            {admin ? (
              <Link className="btn" to={`${base}/settings/invitations`}>
                Invite people
              </Link>
            ) : null}
          </div>
        </li>
      </ol>
    </div>
  );
}
