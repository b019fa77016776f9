import { useState, type FormEvent, type ReactElement } from "react";
import { useNavigate } from "react-router";
import { useCurrentWorkspace } from "@/api/useCurrentWorkspace";
import { canAdmin, useDeleteWorkspace, useRenameWorkspace } from "@/api/useWorkspaces";
import type { Workspace } from "@/api/workspaces";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { CopyButton } from "@/components/ui/CopyButton";
import { TextField } from "@/components/ui/TextField";
import { useConfirm } from "@/components/ui/useConfirm";
import { fieldErrors, toUserMessage } from "@/lib/apiError";
import { formatDateTime } from "@/lib/time";
import { useMembers } from "./hooks/useMembers";

/** "a viewer", "an editor", … */
function withArticle(role: string): string {
  return /^[aeiou]/.test(role) ? `an ${role}` : `a ${role}`;
}

/** Settings › General: the workspace's name (renamed by admins and owners), its id, and deleting it (owners). */
export function GeneralPage(): ReactElement {
  const workspace = useCurrentWorkspace();
  // Another workspace picked from the header starts with a fresh form.
  return <GeneralSettings key={workspace.id} workspace={workspace} />;
}

function GeneralSettings({ workspace }: { workspace: Workspace }): ReactElement {
  const admin = canAdmin(workspace.role);
  const owner = workspace.role === "owner";
  return (
    <>
      <section className="card stack" aria-labelledby="general-title">
        <h2 id="general-title">General</h2>
        {!admin ? (
          <Alert tone="info" testId="general-read-only">
            You are {withArticle(workspace.role)} here: only owners and admins can rename this workspace, and only
            owners can delete it.
          </Alert>
        ) : null}
        <RenameForm workspace={workspace} canRename={admin} />
        <div className="field">
          <label htmlFor="workspace-id">Workspace ID</label>
          <div className="copy-field">
            <input id="workspace-id" className="mono" value={workspace.id} readOnly aria-describedby="workspace-id-hint" />
            <CopyButton text={workspace.id} label="Copy workspace ID" />
          </div>
          <span id="workspace-id-hint" className="field-hint">
            Identifies the workspace in API paths (<code>/api/v1/workspaces/&lt;id&gt;/…</code>) and in support requests.
          </span>
        </div>
        <dl className="facts">
          <div>
            <dt>Created</dt>
            <dd>{formatDateTime(Date.parse(workspace.created_at), undefined, false)}</dd>
          </div>
          <div>
            <dt>Your role</dt>
            <dd>{workspace.role}</dd>
          </div>
        </dl>
      </section>
      <DangerZone workspace={workspace} canDelete={owner} />
    </>
  );
}

function RenameForm({ workspace, canRename }: { workspace: Workspace; canRename: boolean }): ReactElement {
  const [name, setName] = useState(workspace.name);
  const [error, setError] = useState<string>();
  const rename = useRenameWorkspace(workspace.id);
  const apiFieldError = fieldErrors(rename.error).name;
  const unchanged = name.trim() === workspace.name;

  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    if (!name.trim()) {
      setError("Give the workspace a name.");
      return;
    }
    setError(undefined);
    rename.mutate(name.trim(), { onSuccess: (ws) => setName(ws.name) });
  };

  if (!canRename) {
    return (
      <div className="rename-row">
        <TextField label="Workspace name" value={workspace.name} readOnly />
      </div>
    );
  }
  return (
    <form className="stack" aria-label="Rename the workspace" onSubmit={onSubmit} noValidate>
      {rename.isError && !apiFieldError ? <Alert testId="rename-error">{toUserMessage(rename.error)}</Alert> : null}
      <div className="form-row rename-row">
        <TextField
          label="Workspace name"
          name="workspace_name"
          value={name}
          error={error ?? apiFieldError}
          hint="Shown in the workspace menu and in page titles."
          autoComplete="off"
          onChange={(e) => {
            setName(e.target.value);
            setError(undefined);
            if (!rename.isIdle) rename.reset();
          }}
        />
        <div className="rename-actions">
          <Button type="submit" variant="primary" disabled={rename.isPending || unchanged}>
            {rename.isPending ? "Saving…" : "Save name"}
          </Button>
          {rename.isSuccess ? (
            <span role="status" className="muted small" data-testid="rename-saved">
              Saved.
            </span>
          ) : null}
        </div>
      </div>
    </form>
  );
}

function DangerZone({ workspace, canDelete }: { workspace: Workspace; canDelete: boolean }): ReactElement {
  const remove = useDeleteWorkspace(workspace.id);
  const members = useMembers(workspace.id, canDelete);
  const [confirm, confirmDialog] = useConfirm();
  const navigate = useNavigate();
  const memberCount = members.data?.count;

  const onDelete = async (): Promise<void> => {
    remove.reset();
    const ok = await confirm({
      title: `Delete workspace "${workspace.name}"?`,
      message: (
        <>
          <p>
            This permanently deletes <strong>{workspace.name}</strong> and everything in it: all its metrics data,
            dashboards, saved queries, API keys and invitations.{" "}
            {memberCount !== undefined && memberCount > 1
              ? `All ${memberCount} members lose access.`
              : "Its members lose access."}
          </p>
          <p>Ingestion stops: agents sending with its keys are refused within seconds. This cannot be undone.</p>
        </>
      ),
      confirmLabel: "Delete workspace",
      typeToConfirm: workspace.name,
    });
    if (!ok) return;
    // Home opens another of your workspaces, or offers to create one.
    remove.mutate(workspace.name, { onSuccess: () => navigate("/", { replace: true }) });
  };

  return (
    <section className="card stack danger-zone" aria-labelledby="danger-title">
      <h2 id="danger-title">Danger zone</h2>
      {remove.isError ? <Alert testId="delete-workspace-error">{toUserMessage(remove.error)}</Alert> : null}
      <div className="danger-row">
        <div>
          <strong>Delete this workspace</strong>
          <p className="muted small">
            Deletes its metrics data, dashboards, saved queries, API keys, members and invitations, and stops
            ingestion with its keys. There is no undo.
          </p>
        </div>
        {canDelete ? (
          <Button variant="danger" disabled={remove.isPending} onClick={() => void onDelete()}>
            {remove.isPending ? "Deleting…" : "Delete workspace"}
          </Button>
        ) : (
          <span className="muted small" data-testid="delete-owners-only">
            Only owners can delete a workspace.
          </span>
        )}
      </div>
      {confirmDialog}
    </section>
  );
}
