import type { ReactElement } from "react";
import { isRow, type DashboardItem, type DashboardVariable, type Panel } from "@/api/dashboards";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { EmptyState } from "@/components/ui/EmptyState";
import { DuplicateIcon } from "@/components/ui/icons";
import type { Confirm } from "@/components/ui/useConfirm";
import type { TimeRangeSpec } from "@/lib/time";
import { newPanelId, nextPanelPosition } from "../layout";
import type { RepeatedItems } from "../repeat";
import { rowPanelCount, toggleRow } from "../rows";
import { DashboardGrid, MoveHandle } from "./DashboardGrid";
import { PanelView } from "./PanelView";
import { RowHeader, rowTitle } from "./RowHeader";

/** What every panel shows, alone or in the grid (a repeated panel's copy has its own value). */
export interface PanelContext {
  workspaceId: string;
  timeRange: TimeRangeSpec;
  variables: Record<string, string[]>;
  pending: string[];
  compare: string;
}

export interface DashboardPanelsProps {
  /** The dashboard's items as saved or drafted: panels and rows. */
  panels: DashboardItem[];
  /** What the grid draws (`dashboardGrid` / `firstCopies`): copies, folds, each copy's values. */
  grid: RepeatedItems;
  variables: readonly DashboardVariable[];
  context: PanelContext;
  /** Whether the person may edit, and whether the layout is being edited now. */
  editable: boolean;
  editing: boolean;
  /** The panel shown alone (`viewPanel`), found among the grid's and the collapsed rows'. */
  viewPanel: string;
  viewed: Panel | undefined;
  onViewPanel: (id: string) => void;
  onPanelsChange: (panels: DashboardItem[]) => void;
  /** Folds or unfolds a row while looking (not a change to save). */
  onFold: (rowId: string, collapsed: boolean) => void;
  onZoom: (range: [number, number]) => void;
  /** Opens a panel in the panel editor. */
  onEditPanel: (id: string) => void;
  /** An empty dashboard's "Add a panel". */
  onAddFirstPanel: () => void;
  confirm: Confirm;
}

/**
 * A dashboard's panels: one alone over the page (`viewPanel`), or the grid of rows and panels,
 * with the buttons of edit mode (move, edit, duplicate, remove); an empty dashboard says so.
 */
export function DashboardPanels(props: DashboardPanelsProps): ReactElement {
  const { panels, grid, context, editable, editing, viewPanel, viewed, onViewPanel, onPanelsChange } = props;
  const layoutEditable = editable && editing;
  const shownAs = (p: DashboardItem): PanelContext => {
    const own = grid.scope.get(p.id);
    const waitsFor = grid.waiting.get(p.id);
    return {
      ...context,
      variables: own ? { ...context.variables, ...own } : context.variables,
      pending: waitsFor ? [...context.pending, waitsFor] : context.pending,
    };
  };

  const toggle = (rowId: string): void => {
    if (editing) {
      onPanelsChange(toggleRow(panels, rowId));
      return;
    }
    const row = grid.items.find((i) => i.id === rowId);
    if (row && isRow(row)) props.onFold(rowId, !row.collapsed);
  };
  const removeRow = async (rowId: string): Promise<void> => {
    const row = panels.find((i) => i.id === rowId);
    if (!row || !isRow(row)) return;
    const inside = row.collapsed ? (row.panels ?? []).length : 0;
    const ok = await props.confirm({
      title: `Remove the row "${rowTitle(row, context.variables)}"?`,
      message: inside
        ? `Its ${inside} panel${inside === 1 ? " goes" : "s go"} with it, as the row is collapsed. Until you save, Discard brings ${inside === 1 ? "it" : "them"} back.`
        : "The panels under it stay on the dashboard. Until you save, Discard brings the row back.",
      confirmLabel: "Remove",
    });
    if (ok) onPanelsChange(panels.filter((i) => i.id !== rowId));
  };
  const duplicatePanel = (p: Panel): void => {
    const copy: Panel = {
      ...p,
      id: newPanelId(panels),
      title: p.title ? `${p.title} (copy)` : "",
      grid: nextPanelPosition(panels, p.grid.w, p.grid.h),
    };
    onPanelsChange([...panels, copy]);
  };
  const removePanel = async (p: Panel): Promise<void> => {
    const ok = await props.confirm({
      title: `Remove the panel "${p.title || "Untitled panel"}"?`,
      message: "Until you save, Discard brings it back.",
      confirmLabel: "Remove",
    });
    if (ok) onPanelsChange(panels.filter((x) => x.id !== p.id));
  };
  const changeItem = (item: DashboardItem): void => onPanelsChange(panels.map((i) => (i.id === item.id ? item : i)));

  if (viewPanel && !editing) {
    return viewed ? (
      <div className="panel-view" data-testid="panel-view">
        <PanelView
          {...shownAs(viewed)}
          panel={viewed}
          onZoom={props.onZoom}
          onToggleView={() => onViewPanel("")}
          viewing
          actions={
            <Button size="sm" onClick={() => onViewPanel("")} title="Escape" data-testid="panel-view-back">
              Back to the dashboard
            </Button>
          }
        />
      </div>
    ) : (
      <Alert title="This panel is not on the dashboard" titleAs="h2">
        <p>The link names a panel ({viewPanel}) this version of the dashboard does not have.</p>
        <Button size="sm" onClick={() => onViewPanel("")}>
          Show the whole dashboard
        </Button>
      </Alert>
    );
  }
  if (panels.length === 0) {
    return (
      <EmptyState title="This dashboard has no panels yet">
        {editable ? (
          <Button variant="primary" onClick={props.onAddFirstPanel}>
            Add a panel
          </Button>
        ) : (
          "An editor of this workspace can add some."
        )}
      </EmptyState>
    );
  }
  return (
    <DashboardGrid
      panels={grid.items}
      editable={layoutEditable}
      onPanelsChange={onPanelsChange}
      renderPanel={(p, handle) =>
        isRow(p) ? (
          <RowHeader
            row={p}
            panelCount={rowPanelCount(grid.items, p)}
            variables={shownAs(p).variables}
            variableNames={layoutEditable ? props.variables.map((v) => v.name) : undefined}
            onRepeatChange={layoutEditable ? (repeat) => changeItem({ ...p, repeat }) : undefined}
            onToggle={() => toggle(p.id)}
            onTitleChange={layoutEditable ? (title) => changeItem({ ...p, title }) : undefined}
            headerClassName={editing ? handle : undefined}
            actions={
              layoutEditable ? (
                <>
                  <MoveHandle panel={p} panels={panels} onPanelsChange={onPanelsChange} />
                  <Button
                    size="sm"
                    variant="ghost"
                    className="no-drag"
                    title="Remove row"
                    aria-label={`Remove the row ${rowTitle(p, context.variables)}`}
                    onClick={() => void removeRow(p.id)}
                  >
                    ✕
                  </Button>
                </>
              ) : null
            }
          />
        ) : (
          <PanelView
            {...shownAs(p)}
            panel={p}
            onZoom={editing ? undefined : props.onZoom}
            onToggleView={editing ? undefined : () => onViewPanel(p.id)}
            headerClassName={editing ? handle : undefined}
            badge={
              editing && p.repeat ? (
                <span className="muted small repeat-badge" title={`One copy per value of $${p.repeat}, outside edit mode`}>
                  repeats for ${p.repeat}
                </span>
              ) : undefined
            }
            actions={
              layoutEditable ? (
                <>
                  <MoveHandle panel={p} panels={panels} onPanelsChange={onPanelsChange} />
                  <Button
                    size="sm"
                    className="no-drag"
                    aria-label={`Edit ${p.title || "panel"}`}
                    onClick={() => props.onEditPanel(p.id)}
                  >
                    Edit
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    className="no-drag"
                    aria-label={`Duplicate ${p.title || "panel"}`}
                    title="Duplicate"
                    onClick={() => duplicatePanel(p)}
                  >
                    <DuplicateIcon />
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    className="no-drag"
                    title="Remove"
                    aria-label={`Remove ${p.title || "panel"}`}
                    onClick={() => removePanel(p)}
                  >
                    ✕
                  </Button>
                </>
              ) : null
            }
          />
        )
      }
    />
  );
}
