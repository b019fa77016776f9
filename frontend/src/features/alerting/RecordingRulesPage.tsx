import { useState, type FormEvent, type ReactElement } from "react";
import { Link } from "react-router";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { DataTable, type DataTableColumn } from "@/components/ui/DataTable";
import { Dialog } from "@/components/ui/Dialog";
import { EmptyState } from "@/components/ui/EmptyState";
import { TextField } from "@/components/ui/TextField";
import { useLimits } from "@/api/useLimits";
import { canEdit } from "@/api/useWorkspaces";
import { fieldErrors, toUserMessage } from "@/lib/apiError";
import { formatDateTime } from "@/lib/time";
import { useDocumentTitle } from "@/lib/useDocumentTitle";
import { useCurrentWorkspace } from "@/api/useCurrentWorkspace";
import type { RecordingRule } from "./api";
import { ConfirmDeleteButton } from "./components/ConfirmDeleteButton";
import { QueryField } from "./components/QueryField";
import {
  useCreateRecordingRule,
  useDeleteRecordingRule,
  useRecordingRules,
  useUpdateRecordingRule,
} from "./hooks/useRecordingRules";
import { secondsText } from "./monitorForm";
import { queryError } from "./queryErrors";
import {
  newRecordingRuleDraft,
  recordingRuleDraft,
  toRecordingRuleRequest,
  type RecordingRuleDraft,
} from "./recordingRuleForm";

/** Alerts › Recording rules: queries whose results are written back as new measurements (derived metrics, downsampling). */
export function RecordingRulesPage(): ReactElement {
  const workspace = useCurrentWorkspace();
  useDocumentTitle(["Recording rules", "Alerts", workspace.name]);
  const editable = canEdit(workspace.role);
  const rules = useRecordingRules(workspace.id);
  const update = useUpdateRecordingRule(workspace.id);
  const remove = useDeleteRecordingRule(workspace.id);
  const [editing, setEditing] = useState<RecordingRule | "new" | null>(null);

  const columns: DataTableColumn<RecordingRule>[] = [
    { id: "name", header: "Rule", rowHeader: true, className: "wrap", cell: (r) => r.name },
    {
      id: "query",
      header: "Query",
      className: "wrap small",
      cell: (r) => (
        <span className="mono">
          {r.language === "promql" ? "PromQL: " : ""}
          {r.query}
        </span>
      ),
    },
    {
      id: "writes",
      header: "Writes",
      className: "small",
      cell: (r) => (
        <>
          <code>{r.measurement}</code>
          {r.field ? (
            <>
              {" "}
              · <code>{r.field}</code>
            </>
          ) : null}
        </>
      ),
    },
    {
      id: "every",
      header: "Every",
      className: "small",
      cell: (r) => `${secondsText(r.interval_seconds ?? 60)}${r.enabled === false ? " (off)" : ""}`,
    },
    {
      id: "last",
      header: "Last run",
      className: "wrap small",
      cell: (r) =>
        r.last_eval_at ? (
          <div className="cell-stack">
            <span>
              {formatDateTime(Date.parse(r.last_eval_at))}
              {r.last_points != null ? ` · ${r.last_points} points` : ""}
            </span>
            {r.last_error ? <span className="error-text">{r.last_error}</span> : null}
          </div>
        ) : (
          <span className="muted">not yet</span>
        ),
    },
    {
      id: "actions",
      header: "Actions",
      headerHidden: true,
      className: "actions",
      cell: (r) =>
        editable ? (
          <>
            <Button
              size="sm"
              aria-label={`${r.enabled === false ? "Enable" : "Disable"} ${r.name}`}
              onClick={() => update.mutate({ id: r.id, changes: { enabled: r.enabled === false } })}
            >
              {r.enabled === false ? "Enable" : "Disable"}
            </Button>
            <Button size="sm" aria-label={`Edit ${r.name}`} aria-haspopup="dialog" onClick={() => setEditing(r)}>
              Edit
            </Button>
            <ConfirmDeleteButton
              name={r.name}
              question={`Delete the recording rule "${r.name}"?`}
              message="It stops writing; what it wrote stays."
              onDelete={() => remove.mutate(r.id)}
            />
          </>
        ) : null,
    },
  ];

  return (
    <>
      <div className="page-header">
        <h1>Recording rules</h1>
        {editable ? (
          <Button variant="primary" onClick={() => setEditing("new")} aria-haspopup="dialog">
            New recording rule
          </Button>
        ) : (
          <span className="muted small">Editors and admins create and change recording rules.</span>
        )}
      </div>
      <p className="muted">
        A recording rule runs a query every interval and writes its result into this workspace as a new measurement, through
        the normal write path (it counts against the workspace&apos;s limits): derived metrics, or a long range downsampled.
        Query the result in <Link to={`/w/${workspace.id}/explore`}>Explore</Link> like any other measurement.
      </p>
      {update.error || remove.error ? <Alert>{toUserMessage(update.error ?? remove.error)}</Alert> : null}
      <section className="card" aria-label="Recording rule list" aria-busy={rules.isFetching}>
        <DataTable
          caption="Recording rules and their last run"
          testId="recording-rules-table"
          rowTestId="recording-rule-row"
          loading={rules.isPending}
          loadingLabel="Loading recording rules"
          error={rules.error}
          errorTitle="Could not load the recording rules"
          empty={
            <EmptyState title="No recording rules yet" testId="recording-rules-empty">
              For example <code>M::cpu:(avg(usage_user)) BY host</code> every minute into <code>cpu_1m</code>.
            </EmptyState>
          }
          rows={rules.data?.data ?? []}
          rowKey={(r) => r.id}
          columns={columns}
        />
      </section>
      {editing ? (
        <RecordingRuleDialog
          workspaceId={workspace.id}
          rule={editing === "new" ? undefined : editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </>
  );
}

interface RecordingRuleDialogProps {
  workspaceId: string;
  rule?: RecordingRule;
  onClose: () => void;
}

function RecordingRuleDialog({ workspaceId, rule, onClose }: RecordingRuleDialogProps): ReactElement {
  const [draft, setDraft] = useState<RecordingRuleDraft>(() => (rule ? recordingRuleDraft(rule) : newRecordingRuleDraft()));
  const [submitted, setSubmitted] = useState(false);
  const limits = useLimits(workspaceId);
  const create = useCreateRecordingRule(workspaceId);
  const update = useUpdateRecordingRule(workspaceId);
  const pending = create.isPending || update.isPending;
  const error = create.error ?? update.error;
  const checked = toRecordingRuleRequest(draft, rule, limits.data?.min_monitor_interval_seconds ?? 1);
  const server = fieldErrors(error);
  const err = (key: string): string | undefined => (submitted ? checked.errors[key] : undefined) ?? server[key];
  const refused = queryError(error);
  const set = (patch: Partial<RecordingRuleDraft>): void => {
    setDraft((d) => ({ ...d, ...patch }));
    create.reset();
    update.reset();
  };
  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    setSubmitted(true);
    if (pending) return;
    if (checked.create) create.mutate(checked.create, { onSuccess: onClose });
    else if (checked.update && rule) {
      if (Object.keys(checked.update).length === 0) onClose();
      else update.mutate({ id: rule.id, changes: checked.update }, { onSuccess: onClose });
    }
  };
  const other = error && !refused && Object.keys(server).length === 0 ? toUserMessage(error) : undefined;
  return (
    <Dialog
      title={rule ? `Edit ${rule.name}` : "New recording rule"}
      onClose={onClose}
      testId="recording-rule-dialog"
      className="dialog-wide-form"
      initialFocus="input[name='name']"
    >
      <form className="stack" onSubmit={onSubmit} noValidate aria-label={rule ? "Edit recording rule" : "New recording rule"}>
        <TextField label="Name" name="name" value={draft.name} onChange={(e) => set({ name: e.target.value })} error={err("name")} />
        <QueryField
          workspaceId={workspaceId}
          language={draft.language}
          query={draft.query}
          onLanguage={(language) => set({ language })}
          onQuery={(query) => set({ query })}
          onRun={() => undefined}
          error={refused}
          errorQuery={create.variables?.query ?? update.variables?.changes.query ?? draft.query}
          message={err("query")}
          label="Recording rule query"
        />
        <div className="editor-grid">
          <TextField
            label="Every"
            name="interval"
            value={draft.interval}
            onChange={(e) => set({ interval: e.target.value })}
            error={err("interval_seconds")}
            hint="e.g. 1m"
          />
          <TextField
            label="Over the last"
            name="window"
            value={draft.window}
            onChange={(e) => set({ window: e.target.value })}
            error={err("window_seconds")}
            hint="DQL: the range each run reads."
            disabled={draft.language !== "dql"}
          />
          <TextField
            label="Into measurement"
            name="measurement"
            value={draft.measurement}
            onChange={(e) => set({ measurement: e.target.value })}
            error={err("measurement")}
            placeholder="cpu_1m"
          />
          <TextField
            label="Field (optional)"
            name="field"
            value={draft.field}
            onChange={(e) => set({ field: e.target.value })}
            error={err("field")}
            hint="Default: each value column's name (DQL), value (PromQL)."
          />
        </div>
        <label className="check">
          <input type="checkbox" checked={draft.enabled} onChange={(e) => set({ enabled: e.target.checked })} />
          Enabled
        </label>
        {other ? (
          <span className="field-error" role="alert">
            {other}
          </span>
        ) : null}
        <div className="row">
          <Button type="submit" variant="primary" disabled={pending}>
            {rule ? "Save rule" : "Create rule"}
          </Button>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
