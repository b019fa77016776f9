import { useEffect, useId, useRef, useState, type FormEvent, type ReactElement } from "react";
import type { DashboardVariable } from "@/api/dashboards";
import { quoteList } from "@/components/query-editor/dqlCompletion";
import { Button } from "@/components/ui/Button";
import { TextField } from "@/components/ui/TextField";
import { toUserMessage } from "@/lib/apiError";
import { useDebouncedValue } from "@/lib/useDebouncedValue";
import { useMetadataValues, useVariableValues } from "../hooks/useMetadataValues";
import {
  emptyVariableForm,
  formQuery,
  formToVariable,
  hasRegex,
  MAX_VARIABLE_LABEL,
  splitOptions,
  VARIABLE_SOURCES,
  variableErrors,
  variableToForm,
  type VariableField,
  type VariableForm,
  type VariableSource,
} from "../variableEditor";

/** How long the preview and the tag-key suggestions wait after the last keystroke. */
export const VARIABLE_PREVIEW_DEBOUNCE_MS = 400;
/** How many preview values are listed before "and n more". */
const PREVIEW_SHOWN = 30;

export interface VariableEditorProps {
  workspaceId: string;
  /** The variable being edited; undefined for a new one. */
  variable?: DashboardVariable;
  /** Names of the dashboard's other variables (a name must be unique). */
  otherNames: readonly string[];
  onApply: (variable: DashboardVariable) => void;
  onCancel: () => void;
}

/**
 * One variable's form: name, label, where its values come from (tag values of a measurement
 * with suggestions from the workspace's metadata, a DQL or PromQL query with a regex, a fixed
 * list or a constant), multi-select, "All", the default and a live preview of the values.
 */
export function VariableEditor({ workspaceId, variable, otherNames, onApply, onCancel }: VariableEditorProps): ReactElement {
  const id = useId();
  const [form, setForm] = useState<VariableForm>(() => (variable ? variableToForm(variable) : emptyVariableForm()));
  const [submitted, setSubmitted] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const set = (patch: Partial<VariableForm>): void => setForm((f) => ({ ...f, ...patch }));

  useEffect(() => {
    formRef.current?.querySelector<HTMLInputElement>("input")?.focus();
  }, []);

  const [debounced] = useDebouncedValue(form, VARIABLE_PREVIEW_DEBOUNCE_MS);
  const measurements = useMetadataValues(workspaceId, form.source === "tags" ? "show_measurement()" : undefined);
  const measurement = debounced.measurement.trim();
  const tagKeys = useMetadataValues(
    workspaceId,
    form.source === "tags" && measurement ? `show_tag_key(from=${quoteList(measurement)})` : undefined,
  );
  const previewQuery = formQuery(debounced);
  const preview = useVariableValues(
    workspaceId,
    previewQuery === undefined
      ? undefined
      : {
          query: previewQuery,
          language: debounced.source === "promql" ? "promql" : "dql",
          regex: hasRegex(debounced.source) ? debounced.regex : undefined,
        },
  );
  const values = form.source === "custom" ? splitOptions(form.options) : form.source === "constant" ? [] : (preview.data ?? []);

  const errors = variableErrors(form, otherNames);
  // Before the first Apply only a name already typed is checked, so a new form is not all red.
  const shown: Partial<Record<VariableField, string>> = submitted ? errors : { name: form.name ? errors.name : undefined };

  const apply = (e: FormEvent): void => {
    e.preventDefault();
    setSubmitted(true);
    if (Object.keys(errors).length > 0) {
      window.setTimeout(() => formRef.current?.querySelector<HTMLElement>("[aria-invalid='true']")?.focus());
      return;
    }
    onApply(formToVariable(form));
  };

  const defaultChoices = [...values, ...form.defaults.filter((d) => d && !values.includes(d))];
  const title = variable ? `Edit variable ${variable.name}` : "New variable";

  return (
    <form ref={formRef} className="variable-editor" aria-label={title} onSubmit={apply} noValidate>
      <h4>{title}</h4>
      <div className="variable-editor-grid">
        <TextField
          label="Name"
          value={form.name}
          maxLength={64}
          placeholder="host"
          spellCheck={false}
          autoComplete="off"
          error={shown.name}
          hint={
            variable && form.name.trim() && form.name.trim() !== variable.name
              ? `Panel queries using $${variable.name} will use $${form.name.trim()}`
              : `Panels use it as $${form.name.trim() || "name"}`
          }
          onChange={(e) => set({ name: e.target.value })}
        />
        <TextField
          label="Label"
          value={form.label}
          maxLength={MAX_VARIABLE_LABEL}
          placeholder={form.name.trim() || "Host"}
          error={shown.label}
          hint="Shown above the panels; the name when empty"
          onChange={(e) => set({ label: e.target.value })}
        />
        <div className="field">
          <label htmlFor={`${id}-source`}>Values from</label>
          <select
            id={`${id}-source`}
            value={form.source}
            onChange={(e) => {
              const source = e.target.value as VariableSource;
              // Switching from the builder to a query keeps the query it built.
              set(source === "query" && form.source === "tags" ? { source, query: formQuery(form) ?? form.query } : { source });
            }}
          >
            {VARIABLE_SOURCES.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
      </div>

      {form.source === "tags" ? (
        <div className="variable-editor-grid">
          <TextField
            label="Measurement"
            list={`${id}-measurements`}
            value={form.measurement}
            placeholder="cpu"
            spellCheck={false}
            autoComplete="off"
            error={shown.measurement}
            hint={measurements.isError ? `Suggestions unavailable: ${toUserMessage(measurements.error)}` : undefined}
            onChange={(e) => set({ measurement: e.target.value, tagKey: "" })}
          />
          <datalist id={`${id}-measurements`}>
            {(measurements.data ?? []).map((m) => (
              <option key={m} value={m} />
            ))}
          </datalist>
          <TextField
            label="Tag key"
            list={`${id}-tag-keys`}
            value={form.tagKey}
            placeholder="host"
            spellCheck={false}
            autoComplete="off"
            error={shown.tagKey}
            onChange={(e) => set({ tagKey: e.target.value })}
          />
          <datalist id={`${id}-tag-keys`}>
            {(tagKeys.data ?? []).map((k) => (
              <option key={k} value={k} />
            ))}
          </datalist>
        </div>
      ) : null}
      {form.source === "query" || form.source === "promql" ? (
        <div className="field">
          <label htmlFor={`${id}-query`}>{form.source === "promql" ? "PromQL query" : "DQL query"}</label>
          <textarea
            id={`${id}-query`}
            rows={2}
            spellCheck={false}
            className="mono"
            value={form.query}
            placeholder={
              form.source === "promql" ? "label_values(node_uname_info{job=\"$job\"}, instance)" : "show_tag_value(from=['cpu'], keyin=['host'])"
            }
            aria-invalid={shown.query ? true : undefined}
            aria-describedby={shown.query ? `${id}-query-err` : undefined}
            onChange={(e) => set({ query: e.target.value })}
          />
          {shown.query ? (
            <span id={`${id}-query-err`} className="field-error">
              {shown.query}
            </span>
          ) : form.source === "promql" ? (
            <span className="field-hint">
              label_values(metric, label), label_values(label), label_names(), metrics(regex) or query_result(query); other
              variables as $name
            </span>
          ) : null}
        </div>
      ) : null}
      {hasRegex(form.source) ? (
        <TextField
          label="Regex"
          value={form.regex}
          maxLength={1000}
          placeholder="/(.*):9100/"
          spellCheck={false}
          autoComplete="off"
          error={shown.regex}
          hint="Optional: keeps the values it matches; with a group, the group's text is the value"
          onChange={(e) => set({ regex: e.target.value })}
        />
      ) : null}
      {form.source === "custom" ? (
        <TextField
          label="Values"
          value={form.options}
          placeholder="eu-west, us-east"
          error={shown.options}
          hint="Separated by commas"
          onChange={(e) => set({ options: e.target.value })}
        />
      ) : null}
      {form.source === "constant" ? (
        <TextField
          label="Value"
          value={form.defaults[0] ?? ""}
          hint="Not shown above the panels; queries use it as it is"
          onChange={(e) => set({ defaults: [e.target.value] })}
        />
      ) : (
        <>
          <div className="variable-editor-grid">
            <div className="field" role="group" aria-label="Selection">
              <span className="field-title">Selection</span>
              <label className="check">
                <input
                  type="checkbox"
                  checked={form.multi}
                  onChange={(e) =>
                    set({ multi: e.target.checked, defaults: e.target.checked ? form.defaults : form.defaults.slice(0, 1) })
                  }
                />
                Multi-select
              </label>
              <label className="check">
                <input type="checkbox" checked={form.includeAll} onChange={(e) => set({ includeAll: e.target.checked })} />
                Include "All"
              </label>
            </div>
            <div className="field">
              <label htmlFor={`${id}-default`}>{form.multi ? "Default values" : "Default value"}</label>
              <select
                id={`${id}-default`}
                multiple={form.multi}
                size={form.multi ? Math.min(5, Math.max(2, defaultChoices.length)) : undefined}
                value={form.multi ? form.defaults : (form.defaults[0] ?? "")}
                onChange={(e) => set({ defaults: Array.from(e.target.selectedOptions, (o) => o.value).filter(Boolean) })}
              >
                {!form.multi ? <option value="">{form.includeAll ? "All" : "The first value"}</option> : null}
                {defaultChoices.map((v) => (
                  <option key={v} value={v}>
                    {values.includes(v) ? v : `${v} (not among the values now)`}
                  </option>
                ))}
              </select>
              <span className="field-hint">
                {form.multi ? "Nothing selected means all values." : "Used when the link does not choose one."}
              </span>
            </div>
          </div>
          <VariablePreview
            source={form.source}
            values={values}
            loading={previewQuery !== undefined && preview.isFetching}
            error={preview.isError && form.source !== "custom" ? toUserMessage(preview.error) : undefined}
            query={form.source === "custom" ? undefined : previewQuery}
          />
        </>
      )}

      <div className="row variable-editor-actions">
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="submit" variant="primary">
          {variable ? "Apply" : "Add"}
        </Button>
        <span className="muted small">Applied to the dashboard at once, saved with it.</span>
      </div>
    </form>
  );
}

interface VariablePreviewProps {
  source: VariableSource;
  values: string[];
  loading: boolean;
  error?: string;
  /** The query the values come from, shown for reference. */
  query?: string;
}

function VariablePreview({ source, values, loading, error, query }: VariablePreviewProps): ReactElement {
  let body: ReactElement;
  if (error) {
    body = (
      <p className="field-error" role="alert">
        {error}
      </p>
    );
  } else if (source !== "custom" && !query) {
    body = (
      <p className="muted small">
        {source === "tags" ? "Choose a measurement and a tag key to see their values." : "Write the query to see its values."}
      </p>
    );
  } else if (loading && values.length === 0) {
    body = <p className="muted small">Loading values…</p>;
  } else if (values.length === 0) {
    body = <p className="muted small">No values in this workspace yet.</p>;
  } else {
    body = (
      <ul className="value-chips" aria-label="Values">
        {values.slice(0, PREVIEW_SHOWN).map((v) => (
          <li key={v} className="value-chip">
            {v}
          </li>
        ))}
        {values.length > PREVIEW_SHOWN ? <li className="muted small">and {values.length - PREVIEW_SHOWN} more</li> : null}
      </ul>
    );
  }
  return (
    <section className="variable-preview" aria-label="Preview of the values" aria-busy={loading} data-testid="variable-preview">
      <p className="small">
        <strong>Preview</strong>{" "}
        <span className="muted">
          {values.length > 0 ? `${values.length} value${values.length === 1 ? "" : "s"}` : ""}
          {query ? (
            <>
              {values.length > 0 ? " · " : ""}
              <code>{query}</code>
            </>
          ) : null}
        </span>
      </p>
      {body}
    </section>
  );
}
