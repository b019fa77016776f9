import { useEffect, useRef } from "react";

/**
 * A panel shown alone (`viewPanel`): focus goes to its "Back to the dashboard" button, and back
 * to the panel's menu on the dashboard afterwards (the button that had it is gone either way);
 * Escape shows the whole dashboard again (`onBack`), unless it closes something open over the
 * panel (`overlayOpen`, a popover) or the layout is being edited.
 */
export function useViewedPanelFocus(
  viewPanel: string,
  { editing, overlayOpen, onBack }: { editing: boolean; overlayOpen: boolean; onBack: () => void },
): void {
  const lastViewed = useRef(viewPanel);
  useEffect(() => {
    const was = lastViewed.current;
    lastViewed.current = viewPanel;
    if (was === viewPanel) return;
    const target = viewPanel
      ? '[data-testid="panel-view-back"]'
      : `[data-testid="dashboard-grid"] [data-panel-id=${JSON.stringify(was)}] [aria-haspopup="menu"]`;
    const focus = (): boolean => {
      const el = document.querySelector<HTMLElement>(target);
      el?.focus();
      return el !== null;
    };
    // the grid lays its panels out once it knows its width: a frame or a few later
    if (focus()) return;
    let frame = 0;
    let tries = 0;
    const retry = (): void => {
      if (!focus() && (tries += 1) < 60) frame = requestAnimationFrame(retry);
    };
    frame = requestAnimationFrame(retry);
    return () => cancelAnimationFrame(frame);
  }, [viewPanel]);

  useEffect(() => {
    if (!viewPanel || editing) return;
    const onKey = (e: KeyboardEvent): void => {
      if (e.key !== "Escape" || e.defaultPrevented || overlayOpen || document.querySelector(".popover")) return;
      onBack();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [viewPanel, editing, overlayOpen, onBack]);
}

/** The id of the dashboard panel with the focus, else of the one under the pointer. */
export function panelInFocus(): string | undefined {
  const grid = document.querySelector('[data-testid="dashboard-grid"]');
  const focused = document.activeElement && grid?.contains(document.activeElement) ? document.activeElement : null;
  const panel = (focused ?? grid?.querySelector("[data-panel-id]:hover"))?.closest("[data-panel-id]");
  return panel?.getAttribute("data-panel-id") ?? undefined;
}
