import { useState, type ReactElement } from "react";
import { useCurrentWorkspace } from "@/api/useCurrentWorkspace";
import { useLimits } from "@/api/useLimits";
import { canAdmin } from "@/api/useWorkspaces";
import { Alert } from "@/components/ui/Alert";
import { Spinner } from "@/components/ui/Spinner";
import { toUserMessage } from "@/lib/apiError";
import { LimitsForm } from "./components/LimitsForm";
import { UsageSection } from "./components/UsageSection";

/** Settings › Limits & usage: the workspace's limits (editable by admins) and usage against them. */
export function LimitsPage(): ReactElement {
  const workspace = useCurrentWorkspace();
  const admin = canAdmin(workspace.role);
  const limits = useLimits(workspace.id);
  // Kept here: the form starts over from the saved limits after a save.
  const [saved, setSaved] = useState(false);
  return (
    <>
      <section className="card stack" aria-labelledby="limits-title">
        <div className="section-header">
          <h2 id="limits-title">Limits</h2>
          <p className="muted small">
            {admin ? "Changes apply within seconds at the gateway and to the next query." : "Only owners and admins can change limits."}
          </p>
        </div>
        {limits.data ? (
          <p className="muted small" data-testid="limits-plan">
            Plan <strong>{limits.data.plan.name}</strong>, set by the platform&apos;s operators: each limit can be set up
            to the plan&apos;s ceiling, never above.
          </p>
        ) : null}
        {limits.isPending ? (
          <Spinner label="Loading limits" />
        ) : limits.isError ? (
          <Alert title="Could not load the limits">{toUserMessage(limits.error)}</Alert>
        ) : (
          // Re-mount the form when the saved limits change so it starts from them.
          <LimitsForm
            key={JSON.stringify(limits.data)}
            workspaceId={workspace.id}
            limits={limits.data}
            editable={admin}
            onSaved={() => setSaved(true)}
            onEdit={() => setSaved(false)}
          />
        )}
        {saved ? (
          <Alert tone="success" testId="limits-saved">
            Limits saved.
          </Alert>
        ) : null}
      </section>
      {admin ? (
        <UsageSection workspaceId={workspace.id} limits={limits.data} />
      ) : (
        <section className="card stack" aria-labelledby="usage-title">
          <h2 id="usage-title">Usage</h2>
          <Alert tone="info">Usage figures are visible to owners and admins.</Alert>
        </section>
      )}
    </>
  );
}
