import { useState, type FormEvent, type ReactElement } from "react";
import { Link, useNavigate } from "react-router";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { useConfirm } from "@/components/ui/useConfirm";
import { EmptyState } from "@/components/ui/EmptyState";
import { Spinner } from "@/components/ui/Spinner";
import { TextField } from "@/components/ui/TextField";
import { DEFAULT_QUERY } from "@/features/explore/dql";
import { canEdit } from "@/features/workspaces/hooks/useWorkspaces";
import { toUserMessage } from "@/lib/apiError";
import { formatDateTime } from "@/lib/time";
import { useCurrentWorkspace } from "@/routes/useWorkspaceContext";
import type { DashboardSpec } from "./api";
import { ImportDashboard } from "./components/ImportDashboard";
import { useCreateDashboard, useDashboards, useDeleteDashboard, useDuplicateDashboard } from "./hooks/useDashboards";

/** What a new dashboard starts with: a host variable and one CPU panel using it. */
export function starterSpec(): DashboardSpec {
  return {
    schema_version: 1,
    time: { from: "now-1h", to: "now" },
    variables: [
      { name: "host", label: "Host", type: "query", query: "show_tag_value(from=['cpu'], keyin=['host'])", multi: true },
    ],
    panels: [
      {
        id: "p1",
        type: "timeseries",
        title: "CPU user %",
        grid: { x: 0, y: 0, w: 12, h: 8 },
        queries: [{ query: DEFAULT_QUERY.replace("[15m::1m]", "{host = re'$host'} [15m::1m]") }],
        unit: "percent",
      },
    ],
  };
}

export function DashboardsPage(): ReactElement {
  const workspace = useCurrentWorkspace();
  const editable = canEdit(workspace.role);
  const list = useDashboards(workspace.id);
  const create = useCreateDashboard(workspace.id);
  const duplicate = useDuplicateDashboard(workspace.id);
  const remove = useDeleteDashboard(workspace.id);
  const navigate = useNavigate();
  const [title, setTitle] = useState("");
  const [titleError, setTitleError] = useState<string>();
  const [importing, setImporting] = useState(false);
  const [confirm, confirmDialog] = useConfirm();

  const onCreate = (e: FormEvent): void => {
    e.preventDefault();
    if (!title.trim()) {
      setTitleError("Give the dashboard a title.");
      return;
    }
    setTitleError(undefined);
    create.mutate(
      { title: title.trim(), spec: starterSpec() },
      { onSuccess: (d) => navigate(`/w/${workspace.id}/dashboards/${d.id}`) },
    );
  };

  const mutationError = create.error ?? duplicate.error ?? remove.error;
  return (
    <div className="page">
      <div className="page-header">
        <h1>Dashboards</h1>
        {editable ? (
          <Button aria-expanded={importing} onClick={() => setImporting((v) => !v)}>
            {importing ? "Close import" : "Import JSON"}
          </Button>
        ) : null}
      </div>
      {editable && importing ? (
        <ImportDashboard workspaceId={workspace.id} onImported={(d) => navigate(`/w/${workspace.id}/dashboards/${d.id}`)} />
      ) : null}
      {editable ? (
        <form className="row card keys-form" onSubmit={onCreate} noValidate aria-label="New dashboard">
          <TextField label="New dashboard title" value={title} error={titleError} onChange={(e) => setTitle(e.target.value)} />
          <Button type="submit" variant="primary" disabled={create.isPending}>
            Create dashboard
          </Button>
        </form>
      ) : (
        <Alert tone="info">You can view dashboards; ask an editor or admin to change them.</Alert>
      )}
      {mutationError ? <Alert>{toUserMessage(mutationError)}</Alert> : null}
      <section className="card" aria-label="Dashboard list">
        {list.isPending ? (
          <Spinner label="Loading dashboards" />
        ) : list.isError ? (
          <Alert title="Could not load dashboards">{toUserMessage(list.error)}</Alert>
        ) : list.data.data.length === 0 ? (
          <EmptyState title="No dashboards yet">Create one above; it starts with a CPU panel and a host variable.</EmptyState>
        ) : (
          <table className="data-table" data-testid="dashboards-table">
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">Tags</th>
                <th scope="col">Updated</th>
                <th scope="col">Version</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.data.map((d) => (
                <tr key={d.id}>
                  <td>
                    <Link to={`/w/${workspace.id}/dashboards/${d.id}`}>{d.title}</Link>
                  </td>
                  <td>{d.tags.join(", ")}</td>
                  <td>{formatDateTime(Date.parse(d.updated_at), undefined, false)}</td>
                  <td>{d.version}</td>
                  <td className="row">
                    {editable ? (
                      <>
                        <Button size="sm" aria-label={`Duplicate ${d.title}`} onClick={() => duplicate.mutate(d.id)}>
                          Duplicate
                        </Button>
                        <Button
                          size="sm"
                          variant="danger"
                          aria-label={`Delete ${d.title}`}
                          onClick={async () => {
                            const ok = await confirm({
                              title: `Delete "${d.title}"?`,
                              message: "The dashboard and its version history go for everyone in this workspace.",
                              confirmLabel: "Delete",
                            });
                            if (ok) remove.mutate(d.id);
                          }}
                        >
                          Delete
                        </Button>
                      </>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {confirmDialog}
    </div>
  );
}
