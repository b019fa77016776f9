import { useId, useMemo, useState, type ReactElement } from "react";
import type { DashboardSpec, DashboardVariable } from "@/api/dashboards";
import { RefreshPicker } from "@/components/time/RefreshPicker";
import { TimeShiftPicker } from "@/components/time/TimeShiftPicker";
import { Button } from "@/components/ui/Button";
import { DataTable, type DataTableColumn } from "@/components/ui/DataTable";
import { localTimeZone } from "@/lib/time";
import { timeZoneNames } from "@/lib/timeZone";
import { moveItem, panelsUsingVariable, parseTagValuesQuery, renameVariableInPanels, stopRepeating } from "../variableEditor";
import { VariableEditor } from "./VariableEditor";

export interface DashboardSettingsProps {
  workspaceId: string;
  spec: DashboardSpec;
  /** Puts the changed spec into the dashboard's draft (saved with the dashboard). */
  onChange: (spec: DashboardSpec) => void;
  onClose: () => void;
}

/** Which variable the form is open for: an index in the list, or a new one. */
type Editing = { index: number } | "new" | null;

/** A row of the variables table: the variable, its place in the list and the panels using it. */
interface VariableRow {
  variable: DashboardVariable;
  index: number;
  users: string[];
}

/** `host of cpu`, `2 fixed values`, …: where a variable's values come from, in a few words. */
function sourceSummary(v: DashboardVariable): string {
  if (v.type === "custom") return `fixed: ${(v.options ?? []).join(", ")}`;
  if (v.type === "constant") return `constant: ${v.default?.[0] ?? ""}`;
  const tags = parseTagValuesQuery(v.query ?? "");
  return tags ? `values of tag ${tags.tagKey} in ${tags.measurement}` : (v.query ?? "");
}

/**
 * The dashboard's settings, in edit mode: its variables (add, edit, reorder, remove), the
 * comparison it opens with and how often it refreshes. Every change goes into the draft at once, so the variable bar and
 * the panels follow, and is saved with the dashboard.
 */
export function DashboardSettings({ workspaceId, spec, onChange, onClose }: DashboardSettingsProps): ReactElement {
  const titleId = useId();
  const zones = useMemo(() => timeZoneNames(), []);
  const [editing, setEditing] = useState<Editing>(null);
  const variables = spec.variables ?? [];
  const panels = spec.panels ?? [];
  const setVariables = (next: DashboardVariable[]): void => onChange({ ...spec, variables: next });
  // A discarded draft can take the edited variable away; the form closes with it.
  const editingIndex = editing !== null && editing !== "new" && editing.index < variables.length ? editing.index : -1;
  const formOpen = editing === "new" || editingIndex >= 0;
  const otherNames = variables.filter((_, i) => i !== editingIndex).map((v) => v.name);

  const apply = (v: DashboardVariable): void => {
    if (editing === "new") setVariables([...variables, v]);
    else if (editingIndex >= 0) {
      const next = { ...spec, variables: variables.map((x, i) => (i === editingIndex ? v : x)) };
      const old = variables[editingIndex].name;
      // A renamed variable keeps working: the panel queries follow the new name.
      onChange(old === v.name ? next : { ...next, panels: renameVariableInPanels(panels, old, v.name) });
    }
    setEditing(null);
  };
  const move = (index: number, delta: number): void => {
    setVariables(moveItem(variables, index, delta));
    if (editingIndex === index) setEditing({ index: index + delta });
    else if (editingIndex === index + delta) setEditing({ index });
  };
  const remove = (index: number): void => {
    // panels repeated for it are drawn once again
    onChange({
      ...spec,
      variables: variables.filter((_, i) => i !== index),
      panels: stopRepeating(panels, variables[index].name),
    });
    if (editingIndex === index) setEditing(null);
    else if (editingIndex > index) setEditing({ index: editingIndex - 1 });
  };

  const rows: VariableRow[] = variables.map((variable, index) => ({
    variable,
    index,
    users: panelsUsingVariable(panels, variable.name),
  }));
  const columns: DataTableColumn<VariableRow>[] = [
    { id: "name", header: "Name", cell: ({ variable: v }) => <code>${v.name}</code> },
    { id: "label", header: "Label", cell: ({ variable: v }) => v.label || <span className="muted">—</span> },
    { id: "values", header: "Values", className: "variable-source", cell: ({ variable: v }) => sourceSummary(v) },
    {
      id: "options",
      header: "Options",
      cell: ({ variable: v }) =>
        [v.multi ? "multi-select" : "", v.include_all ? "All" : "", v.default?.length ? `default ${v.default.join(", ")}` : ""]
          .filter(Boolean)
          .join(" · ") || <span className="muted">—</span>,
    },
    {
      id: "used-by",
      header: "Used by",
      title: ({ users }) => users.join(", "),
      cell: ({ users }) =>
        users.length === 0 ? <span className="muted">no panel</span> : `${users.length} panel${users.length === 1 ? "" : "s"}`,
    },
    {
      id: "actions",
      header: "Actions",
      headerHidden: true,
      className: "row-actions",
      cell: ({ variable: v, index: i, users }) => (
        <>
          <Button size="sm" aria-label={`Edit variable ${v.name}`} onClick={() => setEditing({ index: i })}>
            Edit
          </Button>
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Move variable ${v.name} up`}
            title="Move up"
            disabled={i === 0}
            onClick={() => move(i, -1)}
          >
            ↑
          </Button>
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Move variable ${v.name} down`}
            title="Move down"
            disabled={i === variables.length - 1}
            onClick={() => move(i, 1)}
          >
            ↓
          </Button>
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Remove variable ${v.name}`}
            title={users.length > 0 ? `Remove (still used by ${users.join(", ")})` : "Remove"}
            onClick={() => remove(i)}
          >
            ✕
          </Button>
        </>
      ),
    },
  ];

  return (
    <section className="card dashboard-settings" aria-labelledby={titleId} data-testid="dashboard-settings">
      <div className="drawer-header">
        <h2 id={titleId}>Dashboard settings</h2>
        <Button size="sm" onClick={onClose}>
          Close settings
        </Button>
      </div>

      <section aria-label="Variables" className="settings-section">
        <h3>Variables</h3>
        <p className="muted small">
          A variable is a menu above the panels; a panel query uses its value as <code>$name</code>, e.g.{" "}
          <code>{"{host = re'$host'}"}</code> (several values become a regular expression alternation).
        </p>
        <DataTable
          caption="Variables, in the order of their menus"
          className="variables-table"
          empty={<p className="muted small">No variables yet.</p>}
          rows={rows}
          rowKey={(r) => r.variable.name}
          rowTestId="variable-row"
          rowProps={(r) => ({ "aria-current": editingIndex === r.index ? "true" : undefined })}
          columns={columns}
        />
        {!formOpen ? (
          <Button onClick={() => setEditing("new")}>Add variable</Button>
        ) : (
          <VariableEditor
            key={editingIndex >= 0 ? `edit-${variables[editingIndex].name}` : "new"}
            workspaceId={workspaceId}
            variable={editingIndex >= 0 ? variables[editingIndex] : undefined}
            otherNames={otherNames}
            onApply={apply}
            onCancel={() => setEditing(null)}
          />
        )}
      </section>

      <section aria-label="Default comparison" className="settings-section">
        <h3>Compare with the past</h3>
        <TimeShiftPicker
          label="Open with"
          offLabel="No comparison"
          testId="default-time-shift"
          value={spec.time_shift ?? ""}
          onChange={(shift) => onChange({ ...spec, time_shift: shift || null })}
        />
        <p className="muted small">
          The comparison the dashboard shows when its link does not choose one. <strong>Compare</strong> in the toolbar
          still changes it for you; a link with <code>compare=off</code> opens without any.
        </p>
      </section>

      <section aria-label="Default auto refresh" className="settings-section">
        <h3>Auto refresh</h3>
        <RefreshPicker
          label="Refresh every"
          offLabel="Never"
          testId="default-refresh"
          value={spec.refresh ?? ""}
          onChange={(refresh) => onChange({ ...spec, refresh: refresh || null })}
        />
        <p className="muted small">
          How often the panels ask for new data when the link does not say (<code>refresh=1m</code>, or{" "}
          <code>refresh=off</code> for never). Not while the tab is hidden.
        </p>
      </section>
      <section aria-label="Time zone" className="settings-section">
        <h3>Time zone</h3>
        <div className="field">
          <label htmlFor={`${titleId}-tz`}>Show times in</label>
          <select
            id={`${titleId}-tz`}
            value={spec.timezone ?? ""}
            onChange={(e) => onChange({ ...spec, timezone: e.target.value || null })}
          >
            <option value="">Each viewer&apos;s browser ({localTimeZone()} here)</option>
            {spec.timezone && !zones.includes(spec.timezone) ? <option value={spec.timezone}>{spec.timezone}</option> : null}
            {zones.map((z) => (
              <option key={z} value={z}>
                {z}
              </option>
            ))}
          </select>
        </div>
        <p className="muted small">
          The time axes, tooltips, tables and the time range picker of this dashboard, for everyone who opens it;
          an ops team in several countries often picks UTC.
        </p>
      </section>
    </section>
  );
}
