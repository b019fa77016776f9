import type { UseQueryResult } from "@tanstack/react-query";
import { useCallback, useEffect, useState } from "react";
import type { Dashboard, DashboardItem, DashboardSpec } from "@/api/dashboards";
import { ApiError } from "@/lib/apiError";
import { withRowsFolded } from "../rows";
import { sameJson } from "../sameSpec";
import { useUpdateDashboard } from "./useDashboardMutations";

/** Local, unsaved state of a dashboard being edited; `version` is the one the edits started from. */
export interface Draft {
  version: number;
  title: string;
  spec: DashboardSpec;
}

export interface DashboardDraft {
  /** The dashboard as shown: the draft while there is one, else the saved version. */
  current: Draft | undefined;
  /** Whether the draft differs from the saved version. */
  dirty: boolean;
  /** Changes the draft (started from the saved version when there is none yet). */
  change: (f: (d: Draft) => Draft) => void;
  setPanels: (panels: DashboardItem[]) => void;
  /** Whether the layout is being edited (edit mode). */
  editing: boolean;
  /** Enters edit mode; rows folded while looking stay folded, as a change to save. */
  startEditing: () => void;
  stopEditing: () => void;
  /** Rows folded or unfolded while looking (row id → collapsed), over what the dashboard saved. */
  folded: Readonly<Record<string, boolean>>;
  setFolded: (rowId: string, collapsed: boolean) => void;
  /** The version note saved with the next version. */
  note: string;
  setNote: (note: string) => void;
  /** Saves the draft as a new version; `overwrite` saves over a version someone saved meanwhile. */
  save: (overwrite?: boolean) => void;
  saving: boolean;
  /** Why the last save failed; `conflict` when someone saved a newer version meanwhile (409). */
  saveError: unknown;
  conflict: boolean;
  /** Drops the draft. */
  discard: () => void;
  /** Drops the draft after a conflict and loads the newer version. */
  discardAfterConflict: () => void;
}

/**
 * A dashboard's draft and edit mode: changes stay local until saved as a new version (with an
 * optional note); a save over a version someone else saved meanwhile is refused until
 * `save(true)`. Ctrl/Cmd+S saves while editing.
 */
export function useDashboardDraft(
  workspaceId: string,
  dashboardId: string,
  dashboard: UseQueryResult<Dashboard>,
): DashboardDraft {
  const server = dashboard.data;
  const update = useUpdateDashboard(workspaceId, dashboardId);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [editing, setEditing] = useState(false);
  const [note, setNote] = useState("");
  const [folded, setFoldedState] = useState<Record<string, boolean>>({});

  const current: Draft | undefined =
    draft ?? (server ? { version: server.version, title: server.title, spec: server.spec } : undefined);
  const dirty =
    draft !== null && server !== undefined && (draft.title !== server.title || !sameJson(draft.spec, server.spec));

  const change = useCallback(
    (f: (d: Draft) => Draft) =>
      setDraft((prev) => {
        const base = prev ?? (server ? { version: server.version, title: server.title, spec: server.spec } : null);
        return base ? f(base) : null;
      }),
    [server],
  );
  const setPanels = useCallback(
    (panels: DashboardItem[]) => change((d) => ({ ...d, spec: { ...d.spec, panels } })),
    [change],
  );
  const startEditing = useCallback(() => {
    setEditing(true);
    if (Object.keys(folded).length === 0) return;
    change((d) => ({ ...d, spec: { ...d.spec, panels: withRowsFolded(d.spec.panels ?? [], folded) } }));
    setFoldedState({});
  }, [change, folded]);
  const setFolded = useCallback(
    (rowId: string, collapsed: boolean) => setFoldedState((f) => ({ ...f, [rowId]: collapsed })),
    [],
  );

  const save = useCallback(
    (overwrite = false) => {
      if (!draft) return;
      update.mutate(
        {
          title: draft.title.trim() || server?.title,
          spec: draft.spec,
          message: note.trim(),
          base_version: overwrite ? undefined : draft.version,
        },
        {
          onSuccess: () => {
            setDraft(null);
            setNote("");
          },
        },
      );
    },
    [draft, note, update, server?.title],
  );

  // Ctrl/Cmd+S saves while editing.
  useEffect(() => {
    if (!editing) return;
    const onKey = (e: KeyboardEvent): void => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "s") {
        e.preventDefault();
        if (dirty && !update.isPending) save();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [editing, dirty, update.isPending, save]);

  return {
    current,
    dirty,
    change,
    setPanels,
    editing,
    startEditing,
    stopEditing: useCallback(() => setEditing(false), []),
    folded,
    setFolded,
    note,
    setNote,
    save,
    saving: update.isPending,
    saveError: update.isError ? update.error : undefined,
    conflict: update.error instanceof ApiError && update.error.status === 409,
    discard: useCallback(() => setDraft(null), []),
    discardAfterConflict: () => {
      setDraft(null);
      update.reset();
      void dashboard.refetch();
    },
  };
}
