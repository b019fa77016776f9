import type { ReactElement } from "react";
import { Link } from "react-router";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { Spinner } from "@/components/ui/Spinner";
import { useDashboards } from "@/features/dashboards/hooks/useDashboards";
import { CopyButton } from "@/features/workspace-admin/components/CopyButton";
import { useCreateKey } from "@/features/workspace-admin/hooks/useApiKeys";
import { toUserMessage } from "@/lib/apiError";
import { useCurrentWorkspace } from "@/routes/useWorkspaceContext";
import { canAdmin } from "./hooks/useWorkspaces";
import "./workspaces.css";

/** The agent command line for `key`; the gateway address is the operator's (8001 by default). */
export function agentCommand(key: string): string {
  return `VIGIL_INGEST_KEY=${key} vigil-agent -gateway.url=http://<gateway-host>:8001`;
}

/**
 * Where a new workspace opens: create an ingest key (shown once), start an agent with it,
 * then open the shipped "Host overview" dashboard or Explore.
 */
export function GetStartedPage(): ReactElement {
  const workspace = useCurrentWorkspace();
  const admin = canAdmin(workspace.role);
  const create = useCreateKey(workspace.id);
  const dashboards = useDashboards(workspace.id);
  const hostOverview = dashboards.data?.data.find((d) => d.title === "Host overview");
  const base = `/w/${workspace.id}`;
  const key = create.data?.key;

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
          ) : key ? (
            <Alert tone="success" title="Your ingest key — copy it now, it will not be shown again" testId="new-key">
              <div className="row">
                <code className="secret" data-testid="new-key-value">
                  {key}
                </code>
                <CopyButton text={key} label="Copy key" />
              </div>
              <p>Start the agent on each host you want to watch:</p>
              <div className="row">
                <code className="secret">{agentCommand(key)}</code>
                <CopyButton text={agentCommand(key)} label="Copy agent command" />
              </div>
            </Alert>
          ) : (
            <div className="row">
              <Button
                variant="primary"
                disabled={create.isPending}
                onClick={() => create.mutate({ name: "first agent", scope: "ingest" })}
              >
                Create an ingest key
              </Button>
              <Link to={`${base}/settings/keys`}>Manage keys</Link>
            </div>
          )}
          {create.isError ? <Alert>{toUserMessage(create.error)}</Alert> : null}
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
