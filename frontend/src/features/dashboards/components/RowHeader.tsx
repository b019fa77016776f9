import type { ReactElement, ReactNode } from "react";
import type { RowPanel } from "@/api/dashboards";
import { interpolateText } from "../variables";

export interface RowHeaderProps {
  row: RowPanel;
  /** How many panels the row groups (inside it when collapsed, below it when not). */
  panelCount: number;
  variables: Record<string, string[]>;
  onToggle: () => void;
  /** In edit mode: the title is edited in place. */
  onTitleChange?: (title: string) => void;
  /** In edit mode: the dashboard's variables, one of which the row may be repeated for. */
  variableNames?: readonly string[];
  onRepeatChange?: (repeat: string | null) => void;
  /** Class of the header, e.g. the grid's drag handle. */
  headerClassName?: string;
  /** Buttons shown at the end (move, remove …). */
  actions?: ReactNode;
}

/** A row's title; `$host` reads the selected values. */
export function rowTitle(row: RowPanel, variables: Record<string, string[]>): string {
  return row.title ? interpolateText(row.title, variables) : "Untitled row";
}

/**
 * A row across the dashboard: a button that collapses or expands the panels under it, which
 * says how many there are while they are hidden.
 */
export function RowHeader({
  row,
  panelCount,
  variables,
  onToggle,
  onTitleChange,
  variableNames,
  onRepeatChange,
  headerClassName,
  actions,
}: RowHeaderProps): ReactElement {
  const title = rowTitle(row, variables);
  const collapsed = row.collapsed === true;
  const count = `${panelCount} panel${panelCount === 1 ? "" : "s"}`;
  return (
    <div
      className={headerClassName ? `dashboard-row ${headerClassName}` : "dashboard-row"}
      data-testid="dashboard-row"
      data-row-id={row.id}
      data-collapsed={collapsed}
    >
      <h2 className="dashboard-row-title">
        <button
          type="button"
          className="dashboard-row-toggle no-drag"
          aria-expanded={!collapsed}
          title={collapsed ? `Show the ${count} of this row` : "Hide this row's panels"}
          onClick={onToggle}
        >
          <span className="dashboard-row-chevron" aria-hidden="true">
            {collapsed ? "▸" : "▾"}
          </span>
          {onTitleChange ? <span className="sr-only">{title}</span> : title}
        </button>
      </h2>
      {onTitleChange ? (
        <input
          className="dashboard-row-input"
          aria-label="Row title"
          value={row.title ?? ""}
          maxLength={200}
          placeholder="Row title"
          onChange={(e) => onTitleChange(e.target.value)}
        />
      ) : null}
      {onRepeatChange && (variableNames?.length || row.repeat) ? (
        <label className="inline-field small no-drag">
          Repeat for
          <select
            value={row.repeat ?? ""}
            title="One copy of the row and its panels per value of the variable, outside edit mode"
            onChange={(e) => onRepeatChange(e.target.value || null)}
          >
            <option value="">Do not repeat</option>
            {row.repeat && !variableNames?.includes(row.repeat) ? (
              <option value={row.repeat}>${row.repeat} (no such variable)</option>
            ) : null}
            {(variableNames ?? []).map((name) => (
              <option key={name} value={name}>
                ${name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {collapsed ? <span className="muted small dashboard-row-count">({count})</span> : null}
      <span className="grow" />
      {actions ? <div className="panel-actions">{actions}</div> : null}
    </div>
  );
}
