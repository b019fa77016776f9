import { useRef, useState, type ReactElement } from "react";
import { Button } from "@/components/ui/Button";
import { useDismiss } from "@/components/ui/useDismiss";
import type { SavedQuery } from "./api";
import { SavedQueriesList } from "./components/SavedQueriesList";
import { SaveQueryForm } from "./components/SaveQueryForm";
import { findSavedByText } from "./filterSavedQueries";
import { useSavedQueries } from "./hooks/useSavedQueries";
import "./saved-queries.css";

export interface SavedQueriesProps {
  workspaceId: string;
  /** The query in the editor (what "Save query" saves). */
  query: string;
  /** Editors and above may save, rename and delete. */
  canEdit: boolean;
  /** Puts a saved query in the editor and runs it (the caller updates the URL). */
  onOpen: (query: string) => void;
}

/** Explore's saved queries: "Save query" and "Saved queries", each opening a panel. */
export function SavedQueries({ workspaceId, query, canEdit, onOpen }: SavedQueriesProps): ReactElement {
  const saved = useSavedQueries(workspaceId);
  const [open, setOpen] = useState<"save" | "list">();
  const [openedId, setOpenedId] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const ref = useRef<HTMLDivElement>(null);
  const list = saved.data?.data ?? [];
  const opened = list.find((q) => q.id === openedId);
  const match = findSavedByText(list, query);

  useDismiss(open !== undefined, ref, (by) => {
    // Back to the button that opened the panel, so keyboard users keep their place.
    if (by === "escape") ref.current?.querySelector<HTMLButtonElement>(`[data-panel="${open}"]`)?.focus();
    setOpen(undefined);
  });

  const onPick = (q: SavedQuery): void => {
    setOpenedId(q.id);
    setOpen(undefined);
    setNotice(undefined);
    onOpen(q.query);
  };

  return (
    <div className="saved-queries" ref={ref}>
      <span className="muted small" role="status" data-testid="saved-query-status">
        {notice ?? (match ? `Saved as “${match.name}”` : "")}
      </span>
      {canEdit ? (
        <Button
          data-panel="save"
          size="sm"
          aria-expanded={open === "save"}
          aria-haspopup="dialog"
          onClick={() => {
            setNotice(undefined);
            setOpen(open === "save" ? undefined : "save");
          }}
        >
          Save query
        </Button>
      ) : null}
      <Button
        data-panel="list"
        size="sm"
        aria-expanded={open === "list"}
        aria-haspopup="dialog"
        onClick={() => setOpen(open === "list" ? undefined : "list")}
      >
        Saved queries{saved.data ? ` (${saved.data.count})` : ""}
      </Button>
      {open === "save" ? (
        <div className="popover">
          <SaveQueryForm
            workspaceId={workspaceId}
            query={query}
            current={opened}
            onCancel={() => setOpen(undefined)}
            onSaved={(q) => {
              setOpenedId(q.id);
              setOpen(undefined);
              setNotice(`Saved “${q.name}”`);
            }}
          />
        </div>
      ) : null}
      {open === "list" ? (
        <div className="popover">
          <SavedQueriesList workspaceId={workspaceId} canEdit={canEdit} currentId={match?.id ?? openedId} onOpen={onPick} />
        </div>
      ) : null}
    </div>
  );
}
