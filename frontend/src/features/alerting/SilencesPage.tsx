import { useMemo, useState, type ReactElement } from "react";
import { Link } from "react-router";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { DataTable, type DataTableColumn } from "@/components/ui/DataTable";
import { EmptyState } from "@/components/ui/EmptyState";
import { RadioGroup } from "@/components/ui/RadioGroup";
import { canEdit } from "@/api/useWorkspaces";
import { toUserMessage } from "@/lib/apiError";
import { useStringParam } from "@/lib/useUrlState";
import { useDocumentTitle } from "@/lib/useDocumentTitle";
import { useCurrentWorkspace } from "@/api/useCurrentWorkspace";
import type { Silence, SilenceState } from "./api";
import { SilenceStateBadge } from "./components/Badges";
import { ConfirmDeleteButton } from "./components/ConfirmDeleteButton";
import { SilenceDialog } from "./components/SilenceForm";
import { useMonitors } from "./hooks/useMonitors";
import { useDeleteSilence, useSilences, useUpdateSilence } from "./hooks/useSilences";
import { SILENCE_STATE_LABELS } from "./severity";
import { describeMatchers, describeSchedule, newSilenceDraft } from "./silenceForm";

const STATES: readonly SilenceState[] = ["active", "scheduled", "pending", "expired"];
const FILTERS = [
  { value: "current", label: "Current" },
  ...STATES.map((s) => ({ value: s, label: SILENCE_STATE_LABELS[s] })),
  { value: "all", label: "All" },
];

/** Which silences a filter shows: `current` is every one not expired. */
export function silencesShown(silences: readonly Silence[], filter: string): Silence[] {
  const order = (s: Silence): number => STATES.indexOf(s.state);
  return silences
    .filter((s) => filter === "all" || (filter === "current" ? s.state !== "expired" : s.state === filter))
    .sort((a, b) => order(a) - order(b) || Date.parse(b.created_at) - Date.parse(a.created_at));
}

/** Alerts › Silences: what mutes notifications (by monitor and tags, once or weekly), create, end, delete. */
export function SilencesPage(): ReactElement {
  const workspace = useCurrentWorkspace();
  useDocumentTitle(["Silences", "Alerts", workspace.name]);
  const editable = canEdit(workspace.role);
  const silences = useSilences(workspace.id);
  const monitors = useMonitors(workspace.id, { live: false });
  const update = useUpdateSilence(workspace.id);
  const remove = useDeleteSilence(workspace.id);
  const [filter, setFilter] = useStringParam("state", "current", { replace: true });
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<string>();
  const rows = useMemo(() => silencesShown(silences.data?.data ?? [], filter), [silences.data, filter]);

  const columns: DataTableColumn<Silence>[] = [
    { id: "state", header: "State", cell: (s) => <SilenceStateBadge state={s.state} /> },
    { id: "comment", header: "Comment", rowHeader: true, className: "wrap", cell: (s) => s.comment },
    {
      id: "monitor",
      header: "Monitor",
      className: "wrap",
      cell: (s) =>
        s.monitor_id ? (
          <Link to={`/w/${workspace.id}/alerts/monitors/${s.monitor_id}`}>{s.monitor_name ?? "a deleted monitor"}</Link>
        ) : (
          <span className="muted">every monitor</span>
        ),
    },
    { id: "matchers", header: "Matchers", className: "wrap", cell: (s) => describeMatchers(s.matchers) || "–" },
    { id: "when", header: "When", className: "wrap small", cell: (s) => describeSchedule(s) },
    { id: "by", header: "Created by", className: "small", cell: (s) => s.created_by_email ?? "–" },
    {
      id: "actions",
      header: "Actions",
      headerHidden: true,
      className: "actions",
      cell: (s) =>
        editable ? (
          <>
            {s.state !== "expired" ? (
              <Button
                size="sm"
                aria-label={`End ${s.comment} now`}
                onClick={() => update.mutate({ id: s.id, changes: { ends_at: new Date().toISOString() } })}
              >
                End now
              </Button>
            ) : null}
            <ConfirmDeleteButton
              name={s.comment}
              question={`Delete the silence "${s.comment}"?`}
              message="It stops muting at once; events it muted stay marked as muted."
              onDelete={() => remove.mutate(s.id)}
            />
          </>
        ) : null,
    },
  ];

  return (
    <>
      <div className="page-header">
        <h1>Silences</h1>
        {editable ? (
          <Button variant="primary" onClick={() => setCreating(true)} aria-haspopup="dialog">
            New silence
          </Button>
        ) : (
          <span className="muted small">Editors and admins create and end silences.</span>
        )}
      </div>
      <p className="muted">
        A silence holds back the notifications of the groups it matches; their events are still recorded, marked muted.
      </p>
      {created ? <Alert tone="success">{created}</Alert> : null}
      {update.error || remove.error ? <Alert>{toUserMessage(update.error ?? remove.error)}</Alert> : null}
      <section className="card stack" aria-label="Silence list" aria-busy={silences.isFetching}>
        <RadioGroup label="Show silences" options={FILTERS} value={filter} onChange={setFilter} className="wrap" />
        <DataTable
          caption="Silences"
          testId="silences-table"
          rowTestId="silence-row"
          loading={silences.isPending}
          loadingLabel="Loading silences"
          error={silences.error}
          errorTitle="Could not load the silences"
          empty={
            <EmptyState title={filter === "current" ? "Nothing is silenced" : "No silences here"} testId="silences-empty">
              Silence a monitor or a group from its page, or create one here for planned maintenance (once or every week).
            </EmptyState>
          }
          rows={rows}
          rowKey={(s) => s.id}
          columns={columns}
        />
      </section>
      {creating ? (
        <SilenceDialog
          workspaceId={workspace.id}
          monitors={monitors.data?.data ?? []}
          initial={newSilenceDraft()}
          onClose={() => setCreating(false)}
          onCreated={(s) => {
            setCreating(false);
            setCreated(`Silence created (${SILENCE_STATE_LABELS[s.state].toLowerCase()}): ${s.comment}`);
          }}
        />
      ) : null}
    </>
  );
}
