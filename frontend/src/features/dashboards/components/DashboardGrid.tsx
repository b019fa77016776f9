import { useCallback, useMemo, type KeyboardEvent, type ReactElement, type ReactNode } from "react";
import ReactGridLayout, { useContainerWidth, type Layout } from "react-grid-layout";
import { isRow, type DashboardItem } from "@/api/dashboards";
import {
  applyGridLayout,
  GRID_COLUMNS,
  keyboardMove,
  NARROW_WIDTH,
  ROW_HEIGHT,
  stackedLayout,
  toGridLayout,
} from "../layout";
import "react-grid-layout/css/styles.css";

export interface DashboardGridProps {
  /** The panels and rows on the grid. */
  panels: DashboardItem[];
  editable: boolean;
  /** Called with the panels at their new positions after a drag, resize or key press. */
  onPanelsChange: (panels: DashboardItem[]) => void;
  renderPanel: (panel: DashboardItem, dragHandleClass: string) => ReactNode;
}

export const DRAG_HANDLE = "panel-drag-handle";

/**
 * The 24-column panel grid. In edit mode panels are dragged by their header and resized by
 * their bottom-right corner; with the keyboard, focus a panel's move handle and use the
 * arrow keys to move it (Shift + arrows to resize).
 */
export function DashboardGrid({ panels, editable, onPanelsChange, renderPanel }: DashboardGridProps): ReactElement {
  // Measured before the panels mount: they are laid out once, at the real width, and the
  // measurement reads the layout of an empty grid rather than of a dashboard of charts.
  const { width, containerRef, mounted } = useContainerWidth({ measureBeforeMount: true });
  // Narrow screens show one panel per row; the layout is edited on wider ones.
  const narrow = mounted && width < NARROW_WIDTH;
  const canMove = editable && !narrow;
  const layout = useMemo(() => (narrow ? stackedLayout(panels) : toGridLayout(panels)), [panels, narrow]);
  const onStop = useCallback(
    (next: Layout) => {
      if (narrow) return;
      const updated = applyGridLayout(panels, next);
      if (updated !== panels) onPanelsChange(updated);
    },
    [panels, onPanelsChange, narrow],
  );

  return (
    <div ref={containerRef} className={canMove ? "dashboard-grid editing" : "dashboard-grid"} data-testid="dashboard-grid">
      {mounted ? (
        <ReactGridLayout
          layout={layout}
          width={width}
          gridConfig={{ cols: GRID_COLUMNS, rowHeight: ROW_HEIGHT, margin: [10, 10], containerPadding: [0, 0] }}
          dragConfig={{ enabled: canMove, handle: `.${DRAG_HANDLE}`, cancel: ".no-drag, a, input, select, textarea" }}
          resizeConfig={{ enabled: canMove, handles: ["se"] }}
          onDragStop={onStop}
          onResizeStop={onStop}
        >
          {panels.map((p) => (
            <div
              key={p.id}
              className={isRow(p) ? "grid-cell grid-row" : "grid-cell"}
              data-testid="grid-cell"
              data-grid-x={p.grid.x}
              data-grid-y={p.grid.y}
              data-grid-w={p.grid.w}
              data-grid-h={p.grid.h}
            >
              {renderPanel(p, DRAG_HANDLE)}
            </div>
          ))}
        </ReactGridLayout>
      ) : null}
    </div>
  );
}

export interface MoveHandleProps {
  panel: DashboardItem;
  panels: DashboardItem[];
  onPanelsChange: (panels: DashboardItem[]) => void;
}

/** The keyboard way to move and resize a panel: arrows move it, Shift + arrows resize it. */
export function MoveHandle({ panel, panels, onPanelsChange }: MoveHandleProps): ReactElement {
  const onKeyDown = (e: KeyboardEvent): void => {
    const direction = ({ ArrowLeft: "left", ArrowRight: "right", ArrowUp: "up", ArrowDown: "down" } as const)[
      e.key as "ArrowLeft" | "ArrowRight" | "ArrowUp" | "ArrowDown"
    ];
    if (!direction) return;
    e.preventDefault();
    const next = keyboardMove(panels, panel.id, direction, e.shiftKey);
    if (next !== panels) onPanelsChange(next);
  };
  return (
    <button
      type="button"
      className={`btn btn-ghost btn-sm move-handle ${DRAG_HANDLE}`}
      aria-label={
        isRow(panel)
          ? `Move the row ${panel.title || "Untitled row"} (arrow keys)`
          : `Move ${panel.title || "panel"} (arrow keys; Shift + arrows to resize)`
      }
      title={isRow(panel) ? "Drag to move; arrow keys move" : "Drag to move; arrow keys move, Shift + arrow keys resize"}
      onKeyDown={onKeyDown}
    >
      ⠿
    </button>
  );
}
