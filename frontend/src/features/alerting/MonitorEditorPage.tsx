import { useMemo, useState, type FormEvent, type ReactElement } from "react";
import { Link, useNavigate, useParams, useSearchParams } from "react-router";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { Spinner } from "@/components/ui/Spinner";
import { TextField } from "@/components/ui/TextField";
import { useDebouncedValue } from "@/lib/useDebouncedValue";
import { useLimits } from "@/api/useLimits";
import { canEdit } from "@/api/useWorkspaces";
import type { Workspace } from "@/api/workspaces";
import { fieldErrors, toUserMessage } from "@/lib/apiError";
import { useDocumentTitle } from "@/lib/useDocumentTitle";
import { useCurrentWorkspace } from "@/api/useCurrentWorkspace";
import type { Language, Monitor, Reducer, Severity } from "./api";
import { ConditionsEditor } from "./components/ConditionsEditor";
import { PreviewChart } from "./components/PreviewChart";
import { QueryField } from "./components/QueryField";
import { RoutesEditor } from "./components/RoutesEditor";
import { useChannels } from "./hooks/useChannels";
import { useCreateMonitor, useMonitor, useMonitorPreview, useUpdateMonitor } from "./hooks/useMonitors";
import {
  checkMonitor,
  draftPreview,
  monitorChanges,
  monitorDraft,
  newMonitorDraft,
  TEMPLATE_VARIABLES,
  type ChangeMode,
  type MonitorDraft,
  type NoDataAction,
} from "./monitorForm";
import { queryError } from "./queryErrors";
import { REDUCERS, SEVERITIES, SEVERITY_LABELS } from "./severity";

/** How long the form must rest before the preview runs again. */
export const PREVIEW_DEBOUNCE_MS = 700;

/**
 * Create (`/alerts/monitors/new`, prefilled from Explore with `?q=…&lang=dql`) or edit
 * (`/alerts/monitors/<id>/edit`) a monitor.
 */
export function MonitorEditorPage(): ReactElement {
  const workspace = useCurrentWorkspace();
  const { monitorId } = useParams();
  const [params] = useSearchParams();
  const monitor = useMonitor(workspace.id, monitorId);
  const editing = monitorId !== undefined;
  useDocumentTitle([editing ? `Edit ${monitor.data?.name ?? "monitor"}` : "New monitor", "Alerts", workspace.name]);

  if (editing && monitor.isPending) return <Spinner label="Loading the monitor" />;
  if (editing && monitor.isError) {
    return (
      <Alert title="Could not load the monitor" titleAs="h1">
        {toUserMessage(monitor.error)}
      </Alert>
    );
  }
  const language: Language = params.get("lang") === "promql" ? "promql" : "dql";
  const initial = monitor.data ? monitorDraft(monitor.data) : newMonitorDraft(params.get("q") ?? "", language);
  return <MonitorEditor key={monitor.data?.id ?? "new"} workspace={workspace} saved={monitor.data} initial={initial} />;
}

interface MonitorEditorProps {
  workspace: Workspace;
  saved?: Monitor;
  initial: MonitorDraft;
}

/** The server's message for each field, `conditions.2.threshold2` read as the conditions'. */
function serverFieldErrors(err: unknown): Partial<Record<string, string>> {
  const out: Partial<Record<string, string>> = {};
  for (const [key, msg] of Object.entries(fieldErrors(err))) {
    const field = key.startsWith("conditions.") ? "conditions" : key.startsWith("routes.") ? "routes" : key;
    out[field] ??= msg;
  }
  return out;
}

export function MonitorEditor({ workspace, saved, initial }: MonitorEditorProps): ReactElement {
  const editable = canEdit(workspace.role);
  const navigate = useNavigate();
  const [draft, setDraft] = useState<MonitorDraft>(initial);
  // errors show for the fields changed, and for every field once Save was pressed
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const limits = useLimits(workspace.id);
  const minInterval = limits.data?.min_monitor_interval_seconds ?? 1;
  const channels = useChannels(workspace.id, editable);
  const create = useCreateMonitor(workspace.id);
  const update = useUpdateMonitor(workspace.id);
  const saving = create.isPending || update.isPending;
  const saveError = create.error ?? update.error;

  const check = useMemo(() => checkMonitor(draft, { minIntervalSeconds: minInterval }), [draft, minInterval]);
  const [hours, setHours] = useState(24);
  const request = useMemo(() => draftPreview(draft, { minIntervalSeconds: minInterval }, hours), [draft, minInterval, hours]);
  const [debounced, flush] = useDebouncedValue(request, PREVIEW_DEBOUNCE_MS);
  const preview = useMonitorPreview(workspace.id, debounced);

  const set = <K extends keyof MonitorDraft>(key: K, value: MonitorDraft[K], field: string = key): void => {
    setDraft((d) => ({ ...d, [key]: value }));
    setTouched((t) => (t.has(field) ? t : new Set(t).add(field)));
    create.reset();
    update.reset();
  };
  const server = serverFieldErrors(saveError);
  const shownError = (field: string): string | undefined =>
    (submitted || touched.has(field) ? check.errors[field] : undefined) ?? server[field];

  // storage's word on the query: from the last save, else from the preview of that text
  const savedQueryError = queryError(saveError);
  const previewQueryError = queryError(preview.error);
  const queryProblem = savedQueryError ?? (preview.isError ? previewQueryError : undefined);
  const queryProblemText = savedQueryError ? (create.variables?.query ?? update.variables?.changes.query ?? draft.query) : debounced?.query;

  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    setSubmitted(true);
    if (!editable || !check.body || saving) return;
    const body = check.body;
    if (saved) {
      const changes = monitorChanges(saved, body);
      if (Object.keys(changes).length === 0) {
        navigate(`/w/${workspace.id}/alerts/monitors/${saved.id}`);
        return;
      }
      update.mutate(
        { id: saved.id, changes },
        { onSuccess: (m) => navigate(`/w/${workspace.id}/alerts/monitors/${m.id}`) },
      );
    } else {
      create.mutate(body, { onSuccess: (m) => navigate(`/w/${workspace.id}/alerts/monitors/${m.id}`) });
    }
  };

  const conditionErrors: Partial<Record<Severity, string>> = {};
  for (const s of SEVERITIES) {
    const msg = shownError(`conditions.${s}`);
    if (msg) conditionErrors[s] = msg;
  }
  const used = new Set(draft.conditions.filter((c) => c.enabled).map((c) => c.severity));
  const invalidCount = Object.keys(check.errors).length;
  const otherServerError =
    saveError && !savedQueryError && Object.keys(server).length === 0 ? toUserMessage(saveError) : undefined;
  const dql = draft.language === "dql";
  const duration = (
    key: keyof MonitorDraft & string,
    field: string,
    label: string,
    hint: string,
    props: { disabled?: boolean } = {},
  ): ReactElement => (
    <TextField
      label={label}
      name={field}
      value={String(draft[key])}
      onChange={(e) => set(key, e.target.value as never, field)}
      error={shownError(field)}
      hint={hint}
      autoComplete="off"
      {...props}
    />
  );

  return (
    <form className="monitor-editor" onSubmit={onSubmit} noValidate aria-labelledby="monitor-editor-title">
      <div className="page-header">
        <h1 id="monitor-editor-title">{saved ? `Edit ${saved.name}` : "New monitor"}</h1>
        <div className="toolbar">
          <Link to={saved ? `/w/${workspace.id}/alerts/monitors/${saved.id}` : `/w/${workspace.id}/alerts/monitors`}>
            {saved ? "Back to the monitor" : "All monitors"}
          </Link>
        </div>
      </div>
      {editable ? null : (
        <Alert tone="info" testId="monitor-read-only">
          You can read monitors; editors and admins create and change them.
        </Alert>
      )}
      <fieldset className="monitor-editor editor-fieldset" disabled={!editable}>
        <section className="card editor-section" aria-labelledby="sec-monitor">
          <h2 id="sec-monitor">Monitor</h2>
          <div className="editor-grid">
            <div className="wide">
              <TextField
                label="Name"
                name="name"
                value={draft.name}
                onChange={(e) => set("name", e.target.value)}
                error={shownError("name")}
                placeholder="CPU busy"
                autoComplete="off"
              />
            </div>
            <label className="check" style={{ alignSelf: "end" }}>
              <input type="checkbox" checked={draft.enabled} onChange={(e) => set("enabled", e.target.checked)} />
              Enabled (evaluated)
            </label>
          </div>
          <div className="field">
            <label htmlFor="monitor-description">Description</label>
            <textarea
              id="monitor-description"
              name="description"
              value={draft.description}
              onChange={(e) => set("description", e.target.value)}
              rows={2}
            />
            {shownError("description") ? <span className="field-error">{shownError("description")}</span> : null}
          </div>
        </section>

        <section className="card editor-section" aria-labelledby="sec-query">
          <h2 id="sec-query">Query</h2>
          <QueryField
            workspaceId={workspace.id}
            language={draft.language}
            query={draft.query}
            onLanguage={(l) => set("language", l)}
            onQuery={(q) => set("query", q)}
            onRun={flush}
            error={queryProblem}
            errorQuery={queryProblemText}
            message={shownError("query")}
            readOnly={!editable}
          />
          <div className="editor-grid">
            {duration("interval", "interval_seconds", "Evaluate every", `At least ${minInterval}s in this workspace, e.g. 1m.`)}
            {duration("window", "window_seconds", "Over the last", dql ? "The window each evaluation reads, e.g. 5m." : "DQL only.", {
              disabled: !dql,
            })}
            <label className="field">
              Reduced to its
              <select
                name="reducer"
                value={draft.reducer}
                disabled={!dql}
                onChange={(e) => set("reducer", e.target.value as Reducer)}
              >
                {REDUCERS.map((r) => (
                  <option key={r.value} value={r.value}>
                    {r.label}
                  </option>
                ))}
              </select>
              <span className="field-hint">{dql ? "How a group's points in the window become one value." : "DQL only."}</span>
            </label>
          </div>
        </section>

        <PreviewChart
          preview={preview}
          query={debounced?.query ?? draft.query}
          requested={debounced !== undefined}
          hint="Write a query, an interval and at least one valid condition to see when it would have fired."
          change={draft.changeOn ? draft.changeMode : undefined}
          hours={hours}
          onHours={setHours}
        />

        <section className="card editor-section" aria-labelledby="sec-conditions">
          <h2 id="sec-conditions">Conditions</h2>
          <label className="check">
            <input type="checkbox" checked={draft.changeOn} onChange={(e) => set("changeOn", e.target.checked)} />
            Alert on the change against an earlier window (mutation detection) instead of the value
          </label>
          {draft.changeOn ? (
            <div className="editor-grid">
              {duration("changeCompare", "change.compare_to_seconds", "Compared with", "How long ago, e.g. 1d or 1w.")}
              <label className="field">
                Change as
                <select value={draft.changeMode} onChange={(e) => set("changeMode", e.target.value as ChangeMode)}>
                  <option value="percent">percent of the earlier value</option>
                  <option value="absolute">difference</option>
                </select>
              </label>
            </div>
          ) : null}
          <ConditionsEditor
            conditions={draft.conditions}
            onChange={(c) => set("conditions", c)}
            errors={conditionErrors}
            unreachable={check.unreachable}
            formError={submitted || touched.has("conditions") ? (check.conditionsError ?? server.conditions) : server.conditions}
            changeUnit={draft.changeOn && draft.changeMode === "percent" ? "%" : undefined}
            readOnly={!editable}
          />
          <div className="editor-grid">
            {duration("forDuration", "for_seconds", "For", "How long a condition must hold before it fires (0s: at once).")}
          </div>
        </section>

        <section className="card editor-section" aria-labelledby="sec-groups">
          <h2 id="sec-groups">Groups and missing data</h2>
          <div className="editor-grid">
            {duration("groupGrace", "group_grace_seconds", "Group grace", "A group the query stops returning resolves after this.")}
            {duration("newGroupDelay", "new_group_delay_seconds", "New group delay", "A new group is not evaluated for this long.")}
            <label className="field">
              When there is no data
              <select value={draft.noDataAction} onChange={(e) => set("noDataAction", e.target.value as NoDataAction)}>
                <option value="keep">keep the last state</option>
                <option value="alert">alert (no data)</option>
                <option value="resolve">resolve</option>
              </select>
            </label>
            {duration("noDataAfter", "no_data.after_seconds", "No data after", "How long the query returns nothing first.")}
            <label className="field">
              No data alerts at
              <select
                value={draft.noDataSeverity}
                disabled={draft.noDataAction !== "alert"}
                onChange={(e) => set("noDataSeverity", e.target.value as Severity)}
              >
                {SEVERITIES.map((s) => (
                  <option key={s} value={s}>
                    {SEVERITY_LABELS[s]}
                  </option>
                ))}
              </select>
            </label>
          </div>
        </section>

        <section className="card editor-section" aria-labelledby="sec-notify">
          <h2 id="sec-notify">Notifications</h2>
          {editable ? (
            <RoutesEditor
              workspaceId={workspace.id}
              routes={draft.routes}
              onChange={(r) => set("routes", r, "routes")}
              channels={channels.data?.data}
              loading={channels.isPending}
              error={channels.error}
              used={used}
              errors={check.errors}
            />
          ) : (
            <p className="muted">Where each severity is sent is visible to editors and admins.</p>
          )}
          <div className="editor-grid">
            {duration("renotify", "renotify_minutes", "Tell again every", "While it fires, e.g. 30m; empty: once.")}
            <label className="check" style={{ alignSelf: "end" }}>
              <input type="checkbox" checked={draft.notifyResolved} onChange={(e) => set("notifyResolved", e.target.checked)} />
              Send a message when it resolves
            </label>
          </div>
          <TextField
            label="Title"
            name="title"
            value={draft.title}
            onChange={(e) => set("title", e.target.value)}
            error={shownError("title")}
            hint="The subject of an email, the title of a webhook's body."
          />
          <div className="field">
            <label htmlFor="monitor-message">Message</label>
            <textarea
              id="monitor-message"
              name="message"
              rows={3}
              value={draft.message}
              onChange={(e) => set("message", e.target.value)}
              aria-describedby="template-variables"
            />
            {shownError("message") ? <span className="field-error">{shownError("message")}</span> : null}
          </div>
          <div id="template-variables" className="stack" style={{ gap: "0.3rem" }}>
            <span className="small muted">
              Templates take the group&apos;s tags by name (<code>{"{{host}}"}</code>, also <code>{"{{tags.host}}"}</code>) and:
            </span>
            <ul className="template-vars" data-testid="template-variables">
              {TEMPLATE_VARIABLES.map((v) => (
                <li key={v.name}>
                  <code>{`{{${v.name}}}`}</code> <span className="muted">{v.description}</span>
                </li>
              ))}
            </ul>
          </div>
          <TextField
            label="Runbook link"
            name="runbook_url"
            type="url"
            placeholder="https://wiki.example.com/runbooks/cpu"
            value={draft.runbookUrl}
            onChange={(e) => set("runbookUrl", e.target.value)}
            error={shownError("runbook_url")}
          />
        </section>
      </fieldset>

      {editable ? (
        <div className="editor-actions">
          <Button type="submit" variant="primary" disabled={saving} data-testid="save-monitor">
            {saved ? "Save monitor" : "Create monitor"}
          </Button>
          <Button
            variant="ghost"
            onClick={() => navigate(saved ? `/w/${workspace.id}/alerts/monitors/${saved.id}` : `/w/${workspace.id}/alerts/monitors`)}
          >
            Cancel
          </Button>
          {saving ? <Spinner label="Saving" /> : null}
          {submitted && invalidCount > 0 ? (
            <span className="field-error" role="alert" data-testid="monitor-invalid">
              {invalidCount === 1 ? "One field needs" : `${invalidCount} fields need`} fixing before it can be saved.
            </span>
          ) : null}
          {savedQueryError ? (
            <span className="field-error" role="alert">
              Storage refused the query: see under the query.
            </span>
          ) : null}
          {otherServerError ? (
            <span className="field-error" role="alert" data-testid="monitor-save-error">
              {otherServerError}
            </span>
          ) : null}
        </div>
      ) : null}
    </form>
  );
}
