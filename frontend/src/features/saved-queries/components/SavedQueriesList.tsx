import { useState, type FormEvent, type ReactElement } from "react";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { EmptyState } from "@/components/ui/EmptyState";
import { Spinner } from "@/components/ui/Spinner";
import { useConfirm } from "@/components/ui/useConfirm";
import { toUserMessage } from "@/lib/apiError";
import type { SavedQuery } from "../api";
import { filterSavedQueries } from "../filterSavedQueries";
import { useDeleteSavedQuery, useSavedQueries, useUpdateSavedQuery } from "../hooks/useSavedQueries";

export interface SavedQueriesListProps {
  workspaceId: string;
  canEdit: boolean;
  currentId?: string;
  onOpen: (saved: SavedQuery) => void;
}

/** Search the workspace's saved queries; open, rename or delete one. */
export function SavedQueriesList({ workspaceId, canEdit, currentId, onOpen }: SavedQueriesListProps): ReactElement {
  const saved = useSavedQueries(workspaceId);
  const update = useUpdateSavedQuery(workspaceId);
  const remove = useDeleteSavedQuery(workspaceId);
  const [confirm, confirmDialog] = useConfirm();
  const [search, setSearch] = useState("");
  const [renaming, setRenaming] = useState<{ id: string; name: string }>();
  const list = saved.data ? filterSavedQueries(saved.data.data, search) : [];
  const error = update.error ?? remove.error;

  const onRename = (e: FormEvent): void => {
    e.preventDefault();
    if (!renaming || !renaming.name.trim()) return;
    update.mutate({ id: renaming.id, changes: { name: renaming.name.trim() } }, { onSuccess: () => setRenaming(undefined) });
  };

  return (
    <div className="saved-popover" role="dialog" aria-label="Saved queries">
      <input
        type="search"
        aria-label="Search saved queries"
        placeholder="Search by name, description or query"
        autoFocus
        value={search}
        onChange={(e) => setSearch(e.target.value)}
      />
      {error ? <Alert>{toUserMessage(error)}</Alert> : null}
      {saved.isPending ? (
        <Spinner label="Loading saved queries" />
      ) : saved.isError ? (
        <Alert title="Could not load the saved queries">{toUserMessage(saved.error)}</Alert>
      ) : saved.data.data.length === 0 ? (
        <EmptyState title="No saved queries yet">
          {canEdit ? "Write a query, then press Save query to keep it for the whole workspace." : "Editors can save queries here."}
        </EmptyState>
      ) : list.length === 0 ? (
        <EmptyState title="Nothing matches">No saved query contains “{search}”.</EmptyState>
      ) : (
        <ul className="saved-list" data-testid="saved-queries-list">
          {list.map((q) => (
            <li key={q.id} className={q.id === currentId ? "saved-item current" : "saved-item"}>
              {renaming?.id === q.id ? (
                <form className="row" onSubmit={onRename} aria-label={`Rename ${q.name}`}>
                  <input
                    aria-label="New name"
                    autoFocus
                    maxLength={200}
                    value={renaming.name}
                    onChange={(e) => setRenaming({ id: q.id, name: e.target.value })}
                  />
                  <Button type="submit" size="sm" variant="primary" disabled={update.isPending || !renaming.name.trim()}>
                    Save name
                  </Button>
                  <Button size="sm" variant="ghost" onClick={() => setRenaming(undefined)}>
                    Cancel
                  </Button>
                </form>
              ) : (
                <div className="saved-item-head">
                  <button
                    type="button"
                    className="saved-item-name"
                    onClick={() => onOpen(q)}
                    aria-label={`Open saved query ${q.name}`}
                  >
                    {q.name}
                  </button>
                  {canEdit ? (
                    <span className="row">
                      <Button size="sm" variant="ghost" aria-label={`Rename ${q.name}`} onClick={() => setRenaming({ id: q.id, name: q.name })}>
                        Rename
                      </Button>
                      <Button
                        size="sm"
                        variant="danger"
                        aria-label={`Delete ${q.name}`}
                        disabled={remove.isPending}
                        onClick={async () => {
                          const ok = await confirm({
                            title: `Delete the saved query "${q.name}"?`,
                            message: "It goes for everyone in this workspace.",
                            confirmLabel: "Delete",
                          });
                          if (ok) remove.mutate(q.id);
                        }}
                      >
                        Delete
                      </Button>
                    </span>
                  ) : null}
                </div>
              )}
              {q.description ? <p>{q.description}</p> : null}
              <code title={q.query}>{q.query}</code>
            </li>
          ))}
        </ul>
      )}
      {confirmDialog}
    </div>
  );
}
