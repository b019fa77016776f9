import { useId, useState, type FormEvent, type ReactElement } from "react";
import { useNavigate } from "react-router";
import { useDashboards } from "@/api/useDashboards";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { Dialog } from "@/components/ui/Dialog";
import { TextField } from "@/components/ui/TextField";
import { toUserMessage } from "@/lib/apiError";
import type { QueryItem } from "@/lib/dql/queryRefs";
import type { TimeRangeSpec } from "@/lib/time";
import { titleForQuery } from "../addPanel";
import { useAddPanel } from "../hooks/useDashboardMutations";

const NEW = "";

export interface AddToDashboardProps {
  workspaceId: string;
  /**
   * The queries Explore ran (the ones in the link), with their legend formats (the panel's
   * queries name their series the same way) and hidden ones (kept hidden in the panel).
   */
  queries: readonly QueryItem[];
  /** Explore's view and unit: the panel draws the result the same way. */
  view: string;
  unit: string;
  range: TimeRangeSpec;
}

/**
 * Explore's "Add to dashboard": the queries as a new panel of a dashboard the user picks, or
 * of a new one, then that dashboard over Explore's time range.
 */
export function AddToDashboard(props: AddToDashboardProps): ReactElement {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="sm" onClick={() => setOpen(true)} aria-haspopup="dialog" data-testid="add-to-dashboard">
        Add to dashboard
      </Button>
      {open ? <AddToDashboardDialog {...props} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function AddToDashboardDialog({
  workspaceId,
  queries,
  view,
  unit,
  range,
  onClose,
}: AddToDashboardProps & { onClose: () => void }): ReactElement {
  const list = useDashboards(workspaceId);
  const add = useAddPanel(workspaceId);
  const navigate = useNavigate();
  const selectId = useId();
  const dashboards = list.data?.data ?? [];
  // the first dashboard once the list is there, until the user picks
  const [picked, setPicked] = useState<string>();
  const target = picked ?? dashboards[0]?.id ?? NEW;
  const [newTitle, setNewTitle] = useState("");
  // titled after the first query drawn
  const [title, setTitle] = useState(() => {
    const first = queries.find((q) => !q.hidden) ?? queries[0];
    return titleForQuery(first?.query ?? "", first?.language);
  });
  const [error, setError] = useState<string>();

  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    if (target === NEW && !newTitle.trim()) {
      setError("Name the new dashboard.");
      return;
    }
    setError(undefined);
    add.mutate(
      {
        to: target === NEW ? { newTitle: newTitle.trim() } : { dashboardId: target },
        explored: { title, queries, view, unit },
        range,
      },
      {
        onSuccess: (d) => {
          onClose();
          navigate(`/w/${workspaceId}/dashboards/${d.id}?${new URLSearchParams({ from: range.from, to: range.to })}`);
        },
      },
    );
  };

  return (
    <Dialog
      title="Add to dashboard"
      description={
        <p>
          {queries.length > 1 ? `The ${queries.length} queries become` : "The query becomes"} a new panel, drawn as
          it is here. The dashboard is saved as a new version, which its history can undo.
        </p>
      }
      onClose={onClose}
      testId="add-to-dashboard-dialog"
      initialFocus="select"
    >
      <form className="stack" onSubmit={onSubmit} aria-label="Add to dashboard">
        <div className="field">
          <label htmlFor={selectId}>Dashboard</label>
          <select
            id={selectId}
            value={target}
            onChange={(e) => setPicked(e.target.value)}
            // not disabled while the list loads: it has the focus from the start
            aria-busy={list.isPending}
          >
            {dashboards.map((d) => (
              <option key={d.id} value={d.id}>
                {d.title}
              </option>
            ))}
            <option value={NEW}>A new dashboard…</option>
          </select>
        </div>
        {target === NEW ? (
          <TextField
            label="New dashboard title"
            value={newTitle}
            maxLength={200}
            onChange={(e) => setNewTitle(e.target.value)}
            error={error}
          />
        ) : null}
        <TextField label="Panel title" value={title} maxLength={200} onChange={(e) => setTitle(e.target.value)} />
        {list.isError ? <Alert title="Could not list the dashboards">{toUserMessage(list.error)}</Alert> : null}
        {add.isError ? <Alert title="The panel was not added">{toUserMessage(add.error)}</Alert> : null}
        <div className="form-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={add.isPending}>
            {add.isPending ? "Adding…" : "Add panel"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
