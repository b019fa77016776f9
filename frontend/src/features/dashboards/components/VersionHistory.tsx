import { useEffect, useId, useRef, type ReactElement } from "react";
import type { DashboardVersion } from "@/api/dashboards";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { DataTable, type DataTableColumn } from "@/components/ui/DataTable";
import { EmptyState } from "@/components/ui/EmptyState";
import { useConfirm } from "@/components/ui/useConfirm";
import { useRestoreFocus } from "@/components/ui/useRestoreFocus";
import { toUserMessage } from "@/lib/apiError";
import { formatDateTime } from "@/lib/time";
import { useDashboardVersions, useMemberNames, useRestoreDashboardVersion } from "../hooks/useVersionHistory";

export interface VersionHistoryProps {
  workspaceId: string;
  dashboardId: string;
  currentVersion: number;
  editable: boolean;
  /** True when the dashboard has unsaved changes that a restore would throw away. */
  dirty: boolean;
  onRestored: () => void;
  onClose: () => void;
}

/** Saved versions, newest first, with who saved them and when; editors restore one as a new version. */
export function VersionHistory({
  workspaceId,
  dashboardId,
  currentVersion,
  editable,
  dirty,
  onRestored,
  onClose,
}: VersionHistoryProps): ReactElement {
  useRestoreFocus();
  const titleId = useId();
  const versions = useDashboardVersions(workspaceId, dashboardId);
  const names = useMemberNames(workspaceId);
  const restore = useRestoreDashboardVersion(workspaceId, dashboardId);
  const [confirm, confirmDialog] = useConfirm();
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    closeRef.current?.focus();
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === "Escape") onClose();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [onClose]);

  const onRestore = async (version: number): Promise<void> => {
    const note = dirty ? " Your unsaved changes will be lost." : "";
    const ok = await confirm({
      title: `Restore version ${version}?`,
      message: `It is saved as a new version.${note}`,
      confirmLabel: "Restore",
      destructive: dirty,
    });
    if (ok) restore.mutate(version, { onSuccess: onRestored });
  };

  const columns: DataTableColumn<DashboardVersion>[] = [
    { id: "version", header: "Version", cell: (v) => v.version },
    {
      id: "saved-by",
      header: "Saved by",
      cell: (v) => (v.created_by ? (names.data?.get(v.created_by) ?? "former member") : "API key"),
    },
    { id: "when", header: "When", cell: (v) => formatDateTime(Date.parse(v.created_at), undefined, false) },
    { id: "note", header: "Note", cell: (v) => v.message || <span className="muted">–</span> },
    {
      id: "actions",
      header: "Actions",
      headerHidden: true,
      cell: (v) =>
        v.version === currentVersion ? (
          <span className="muted small">current</span>
        ) : editable ? (
          <Button
            size="sm"
            aria-label={`Restore version ${v.version}`}
            disabled={restore.isPending}
            onClick={() => void onRestore(v.version)}
          >
            Restore
          </Button>
        ) : null,
    },
  ];

  return (
    <div className="drawer-backdrop" onClick={onClose}>
      <div
        className="drawer card"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid="version-history"
        onClick={(e) => e.stopPropagation()}
      >
        <header className="drawer-header">
          <h2 id={titleId}>Version history</h2>
          <button ref={closeRef} type="button" className="btn btn-ghost" aria-label="Close version history" onClick={onClose}>
            ✕
          </button>
        </header>
        {restore.isError ? <Alert>{toUserMessage(restore.error)}</Alert> : null}
        <DataTable
          caption="Saved versions, newest first"
          loading={versions.isPending}
          loadingLabel="Loading versions"
          error={versions.error}
          errorTitle="Could not load the history"
          empty={<EmptyState title="No versions yet" />}
          rows={versions.data?.data ?? []}
          rowKey={(v) => v.version}
          rowTestId="version-row"
          columns={columns}
        />
        {confirmDialog}
      </div>
    </div>
  );
}
