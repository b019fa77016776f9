import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactElement } from "react";
import { Link, useBlocker, useParams, useSearchParams } from "react-router";
import { RefreshPicker } from "@/components/time/RefreshPicker";
import { TimeRangePicker } from "@/components/time/TimeRangePicker";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { EmptyState } from "@/components/ui/EmptyState";
import { ShareDialog } from "@/components/ui/ShareDialog";
import { DuplicateIcon } from "@/components/ui/icons";
import { Spinner } from "@/components/ui/Spinner";
import { useConfirm } from "@/components/ui/useConfirm";
import { DEFAULT_QUERY } from "@/features/explore/dql";
import { canEdit } from "@/features/workspaces/hooks/useWorkspaces";
import { ApiError, toUserMessage } from "@/lib/apiError";
import { downloadJson } from "@/lib/download";
import type { TimeRangeSpec } from "@/lib/time";
import { useShortcuts } from "@/lib/shortcuts";
import { TimeZoneProvider } from "@/lib/timeZone";
import { useDocumentTitle } from "@/lib/useDocumentTitle";
import { useRefreshParam } from "@/lib/useUrlState";
import { useCurrentWorkspace } from "@/routes/useWorkspaceContext";
import { everyPanel, isRow, type DashboardItem, type DashboardSpec, type DashboardVariable, type Panel } from "./api";
import { DashboardGrid, MoveHandle } from "./components/DashboardGrid";
import { PanelView } from "./components/PanelView";
import { RowHeader, rowTitle } from "./components/RowHeader";
import { TimeShiftPicker } from "./components/TimeShiftPicker";
import { VariablePicker } from "./components/VariablePicker";
import { VersionHistory } from "./components/VersionHistory";

// The panel editor and the settings (variables) bring CodeMirror; viewers never need them.
const PanelEditor = lazy(async () => ({ default: (await import("./components/PanelEditor")).PanelEditor }));
const DashboardSettings = lazy(async () => ({
  default: (await import("./components/DashboardSettings")).DashboardSettings,
}));
import "./dashboards.css";
import { exportFileName } from "./exportFile";
import { useDashboardRefresh } from "./hooks/useDashboardRefresh";
import { useDashboard, useExportDashboard, useUpdateDashboard } from "./hooks/useDashboards";
import { useVariableOptions } from "./hooks/useMetadataValues";
import { newPanelId, nextPanelPosition } from "./layout";
import { newPanel } from "./panelSpec";
import { dashboardGrid, firstCopies, sourcePanelId } from "./repeat";
import { replacePanel, rowPanelCount, toggleRow, withNewRow, withRowsFolded } from "./rows";
import { sameJson } from "./sameSpec";
import { dashboardView } from "./panelQuery";
import { panelTitle } from "./variables";
import { timeShiftParam } from "./timeShift";

const NO_VARIABLES: DashboardVariable[] = [];

/** Local, unsaved state of a dashboard being edited; `version` is the one the edits started from. */
interface Draft {
  version: number;
  title: string;
  spec: DashboardSpec;
}

/**
 * The panel open in the editor: one of the dashboard's, or a new one, which joins the
 * dashboard only when the editor applies it.
 */
type PanelEdit = { id: string; added?: undefined } | { id: string; added: Panel };

/** The id of the dashboard panel with the focus, else of the one under the pointer. */
function panelInFocus(): string | undefined {
  const grid = document.querySelector('[data-testid="dashboard-grid"]');
  const focused = document.activeElement && grid?.contains(document.activeElement) ? document.activeElement : null;
  const panel = (focused ?? grid?.querySelector("[data-panel-id]:hover"))?.closest("[data-panel-id]");
  return panel?.getAttribute("data-panel-id") ?? undefined;
}

/**
 * A dashboard. The time range, variables, comparison, auto refresh and a panel shown alone live
 * in the URL (`from`, `to`, `var-<name>`, `compare`, `refresh`, `viewPanel`) so the link shares the view; without them the
 * dashboard's saved defaults apply. Editors switch to edit mode to move, resize, add, edit and remove panels and
 * to change the variables and default comparison in Settings; changes stay local until saved
 * as a new version.
 */
export function DashboardPage(): ReactElement {
  const workspace = useCurrentWorkspace();
  const editable = canEdit(workspace.role);
  const { dashboardId = "" } = useParams();
  const dashboard = useDashboard(workspace.id, dashboardId);
  const save = useUpdateDashboard(workspace.id, dashboardId);
  const exporter = useExportDashboard(workspace.id);
  const [params, setParams] = useSearchParams();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [editingPanel, setEditingPanel] = useState<PanelEdit | null>(null);
  const [showHistory, setShowHistory] = useState(false);
  const [sharing, setSharing] = useState(false);
  const [confirm, confirmDialog] = useConfirm();
  const [showSettings, setShowSettings] = useState(false);
  const [note, setNote] = useState("");
  // rows folded or unfolded while looking (row id → collapsed), over what the dashboard saved
  const [folded, setFolded] = useState<Record<string, boolean>>({});
  const server = dashboard.data;

  const current: Draft | undefined =
    draft ?? (server ? { version: server.version, title: server.title, spec: server.spec } : undefined);
  const spec = current?.spec;
  const dirty =
    draft !== null &&
    server !== undefined &&
    (draft.title !== server.title || !sameJson(draft.spec, server.spec));

  const { range, compare, refresh, values, pending, viewPanel } = useMemo(
    () => dashboardView(spec, params),
    [spec, params],
  );
  // every value of each variable (the pickers ask for the same, once): what a repeated panel
  // is drawn for when none or All is selected
  const options = useVariableOptions(workspace.id, spec?.variables ?? NO_VARIABLES);
  // What the grid draws: while the layout is edited, the panels and rows as they are saved (a
  // repeated one as its first copy); otherwise a copy of each repeated row, the rows as this
  // person folded them, and a copy of each repeated panel per value.
  const grid = useMemo(() => {
    const items = spec?.panels ?? [];
    return editing ? firstCopies(items, values, options) : dashboardGrid(items, values, options, folded);
  }, [spec, editing, folded, values, options]);
  // one panel over the whole page (`viewPanel`), a copy of a repeated one or one in a collapsed
  // row too, not while the layout is edited
  const viewed =
    editing || !viewPanel
      ? undefined
      : [...grid.items, ...everyPanel(spec?.panels ?? [])].find((p): p is Panel => p.id === viewPanel && !isRow(p));
  useDocumentTitle([
    ...(viewed ? [panelTitle(viewed.title, { ...values, ...grid.scope.get(viewed.id) })] : []),
    server?.title ?? "Dashboard",
    "Dashboards",
    workspace.name,
  ]);
  const { refresh: refreshNow, fetching } = useDashboardRefresh(workspace.id, refresh);
  const savedShift = spec?.time_shift;
  // the same value as `refresh` above (the URL's over the saved one); the setter keeps the URL short
  const [, setRefresh] = useRefreshParam(spec?.refresh);
  const setCompare = useCallback(
    (shift: string) =>
      setParams((prev) => {
        const next = new URLSearchParams(prev);
        const value = timeShiftParam(shift, savedShift);
        if (value === null) next.delete("compare");
        else next.set("compare", value);
        return next;
      }),
    [setParams, savedShift],
  );
  const setRange = useCallback(
    (r: TimeRangeSpec) =>
      setParams((prev) => {
        const next = new URLSearchParams(prev);
        next.set("from", r.from);
        next.set("to", r.to);
        return next;
      }),
    [setParams],
  );
  // a history entry of its own: Back returns to the whole dashboard
  const setViewPanel = useCallback(
    (id: string) =>
      setParams((prev) => {
        const next = new URLSearchParams(prev);
        if (id) next.set("viewPanel", id);
        else next.delete("viewPanel");
        return next;
      }),
    [setParams],
  );
  useShortcuts({
    "d r": refreshNow,
    // the panel with the focus, else the one under the pointer, alone; `v` again goes back
    v: () => {
      if (editing) return;
      if (viewPanel) return setViewPanel("");
      const id = panelInFocus();
      if (id) setViewPanel(id);
    },
    // the same panel (or the one shown alone) in the panel editor, for those who may edit;
    // for a copy of a repeated panel, the panel it repeats
    e: () => {
      const shown = viewed?.id ?? panelInFocus();
      if (!editable || !shown || editingPanel) return;
      if (viewPanel) setViewPanel("");
      startEditing();
      setEditingPanel({ id: sourcePanelId(shown) });
    },
  });
  // Focus follows the panel: to "Back to the dashboard" when it is shown alone, and back to its
  // menu on the dashboard afterwards (the button that had it is gone either way).
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
  // Escape shows the whole dashboard again, unless it closes something open over the panel
  useEffect(() => {
    if (!viewPanel || editing) return;
    const onKey = (e: KeyboardEvent): void => {
      if (e.key !== "Escape" || e.defaultPrevented || showHistory || document.querySelector(".popover")) return;
      setViewPanel("");
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [viewPanel, editing, showHistory, setViewPanel]);
  const onZoom = useCallback(([a, b]: [number, number]) => setRange({ from: String(a), to: String(b) }), [setRange]);
  const setVariable = useCallback(
    (name: string, v: string[]): void =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          next.delete(`var-${name}`);
          v.forEach((x) => next.append(`var-${name}`, x));
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  const change = useCallback(
    (f: (d: Draft) => Draft) =>
      setDraft((prev) => {
        const base = prev ?? (server ? { version: server.version, title: server.title, spec: server.spec } : null);
        return base ? f(base) : null;
      }),
    [server],
  );
  const setPanels = useCallback(
    (panels: DashboardItem[]) => change((d) => ({ ...d, spec: { ...d.spec, panels } })),
    [change],
  );
  // The layout is edited as it is shown: rows folded while looking stay so, as a change to save.
  const startEditing = useCallback(() => {
    setEditing(true);
    if (Object.keys(folded).length === 0) return;
    change((d) => ({ ...d, spec: { ...d.spec, panels: withRowsFolded(d.spec.panels ?? [], folded) } }));
    setFolded({});
  }, [change, folded]);

  const onSave = useCallback(
    (overwrite = false) => {
      if (!draft) return;
      save.mutate(
        {
          title: draft.title.trim() || server?.title,
          spec: draft.spec,
          message: note.trim(),
          base_version: overwrite ? undefined : draft.version,
        },
        {
          onSuccess: () => {
            setDraft(null);
            setNote("");
          },
        },
      );
    },
    [draft, note, save, server?.title],
  );

  // Ctrl/Cmd+S saves while editing.
  useEffect(() => {
    if (!editing) return;
    const onKey = (e: KeyboardEvent): void => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "s") {
        e.preventDefault();
        if (dirty && !save.isPending) onSave();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [editing, dirty, save.isPending, onSave]);

  // Unsaved changes: ask before leaving the page or the app.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (blocker.state !== "blocked") return;
    void confirm({
      title: "Leave without saving?",
      message: "This dashboard has unsaved changes. They are lost if you leave.",
      confirmLabel: "Leave",
      cancelLabel: "Stay",
    }).then((leave) => (leave ? blocker.proceed() : blocker.reset()));
  }, [blocker, confirm]);
  useEffect(() => {
    if (!dirty) return;
    const onUnload = (e: BeforeUnloadEvent): void => e.preventDefault();
    window.addEventListener("beforeunload", onUnload);
    return () => window.removeEventListener("beforeunload", onUnload);
  }, [dirty]);

  if (dashboard.isPending) return <Spinner label="Loading dashboard" />;
  if (dashboard.isError || !current || !server) {
    return <Alert title="Could not open this dashboard" titleAs="h1">{toUserMessage(dashboard.error)}</Alert>;
  }

  const panels = current.spec.panels ?? [];
  // what every panel shows, alone or in the grid; a repeated panel's copy has its own value
  const shown = { workspaceId: workspace.id, timeRange: range, variables: values, pending, compare };
  const shownAs = (p: DashboardItem) => {
    const own = grid.scope.get(p.id);
    const waitsFor = grid.waiting.get(p.id);
    return {
      ...shown,
      variables: own ? { ...values, ...own } : values,
      pending: waitsFor ? [...pending, waitsFor] : pending,
    };
  };
  const panelBeingEdited = editingPanel?.added ?? everyPanel(panels).find((p) => p.id === editingPanel?.id);
  const conflict = save.error instanceof ApiError && save.error.status === 409;

  // The new panel is only put on the dashboard when the editor applies it.
  const addPanel = (): void => {
    const id = newPanelId(panels);
    const query = DEFAULT_QUERY.replace("[15m::1m]", "[::1m]");
    setEditingPanel({ id, added: newPanel(id, nextPanelPosition(panels), query) });
  };
  const addRow = (): void => setPanels(withNewRow(panels, newPanelId(panels, "row")));
  const toggle = (rowId: string): void => {
    if (editing) {
      setPanels(toggleRow(panels, rowId));
      return;
    }
    const row = grid.items.find((i) => i.id === rowId);
    if (row && isRow(row)) setFolded((f) => ({ ...f, [rowId]: !row.collapsed }));
  };
  const removeRow = async (rowId: string): Promise<void> => {
    const row = panels.find((i) => i.id === rowId);
    if (!row || !isRow(row)) return;
    const inside = row.collapsed ? (row.panels ?? []).length : 0;
    const ok = await confirm({
      title: `Remove the row "${rowTitle(row, values)}"?`,
      message: inside
        ? `Its ${inside} panel${inside === 1 ? " goes" : "s go"} with it, as the row is collapsed. Until you save, Discard brings ${inside === 1 ? "it" : "them"} back.`
        : "The panels under it stay on the dashboard. Until you save, Discard brings the row back.",
      confirmLabel: "Remove",
    });
    if (ok) setPanels(panels.filter((i) => i.id !== rowId));
  };
  const duplicatePanel = (p: Panel): void => {
    const copy: Panel = {
      ...p,
      id: newPanelId(panels),
      title: p.title ? `${p.title} (copy)` : "",
      grid: nextPanelPosition(panels, p.grid.w, p.grid.h),
    };
    setPanels([...panels, copy]);
  };
  const removePanel = async (p: Panel): Promise<void> => {
    const ok = await confirm({
      title: `Remove the panel "${p.title || "Untitled panel"}"?`,
      message: "Until you save, Discard brings it back.",
      confirmLabel: "Remove",
    });
    if (ok) setPanels(panels.filter((x) => x.id !== p.id));
  };
  const onExport = (): void =>
    exporter.mutate(server.id, { onSuccess: (doc) => downloadJson(doc, exportFileName(doc.title)) });

  return (
    // the dashboard's time zone for its charts, tables and time range (the browser's if none)
    <TimeZoneProvider timeZone={spec?.timezone}>
      <div className="page dashboard-page">
        <div className="page-header">
          <div className="dashboard-title">
            <p className="muted small">
              <Link to={`/w/${workspace.id}/dashboards`}>Dashboards</Link> /
            </p>
            {editing ? (
              // still the page's heading while its text is edited
              <h1>
                <input
                  className="title-input"
                  aria-label="Dashboard title"
                  value={current.title}
                  maxLength={200}
                  onChange={(e) => change((d) => ({ ...d, title: e.target.value }))}
                />
              </h1>
            ) : (
              <h1>{current.title}</h1>
            )}
          </div>
          <div className="toolbar">
            {!editable ? (
              <span
                className="role-badge view-only"
                data-testid="view-only"
                title="Your role can view dashboards, not change them"
              >
                View only
              </span>
            ) : (
              <span className={dirty ? "save-state unsaved" : "save-state"} role="status" data-testid="save-state">
                {save.isPending ? "Saving…" : dirty ? "Unsaved changes" : `Saved · v${server.version}`}
              </span>
            )}
            <TimeRangePicker value={range} onChange={setRange} />
            <TimeShiftPicker value={compare} onChange={setCompare} />
            <RefreshPicker value={refresh} onChange={setRefresh} onRefresh={refreshNow} refreshing={fetching} />
            <Button onClick={() => setSharing(true)} aria-haspopup="dialog">
              Share
            </Button>
            <Button onClick={() => setShowHistory(true)} aria-haspopup="dialog">
              History
            </Button>
            <Button onClick={onExport} disabled={exporter.isPending}>
              Export JSON
            </Button>
            {editable ? (
              editing ? (
                <Button onClick={() => setEditing(false)} aria-pressed={true}>
                  Done editing
                </Button>
              ) : (
                <Button
                  variant="primary"
                  onClick={() => {
                    startEditing();
                    if (viewPanel) setViewPanel("");
                  }}
                >
                  Edit
                </Button>
              )
            ) : null}
          </div>
        </div>

        {editable && (editing || dirty) ? (
          <div className="edit-bar card" role="toolbar" aria-label="Dashboard editing">
            {editing ? (
              <Button onClick={addPanel} data-testid="add-panel">
                Add panel
              </Button>
            ) : null}
            {editing ? (
              <Button onClick={addRow} data-testid="add-row">
                Add row
              </Button>
            ) : null}
            {editing ? (
              <Button
                onClick={() => setShowSettings((v) => !v)}
                aria-expanded={showSettings}
                data-testid="dashboard-settings-toggle"
              >
                Settings
              </Button>
            ) : null}
            <span className="muted small grow">
              {editing ? "Drag a panel by its header, resize it from its corner; Ctrl+S saves." : "You have unsaved changes."}
            </span>
            <input
              aria-label="Version note"
              placeholder="Version note (optional)"
              value={note}
              maxLength={500}
              onChange={(e) => setNote(e.target.value)}
            />
            <Button disabled={!dirty || save.isPending} onClick={() => setDraft(null)}>
              Discard
            </Button>
            <Button
              variant="primary"
              disabled={!dirty || save.isPending}
              onClick={() => onSave()}
              data-testid="save-dashboard"
            >
              Save
            </Button>
          </div>
        ) : null}

        {conflict ? (
          <Alert title="Someone saved this dashboard meanwhile">
            <p>
              Version {server.version} is newer than the one you edited. Save anyway to replace it with your changes, or
              discard yours.
            </p>
            <div className="row">
              <Button variant="danger" size="sm" onClick={() => onSave(true)}>
                Save anyway
              </Button>
              <Button size="sm" onClick={() => { setDraft(null); save.reset(); void dashboard.refetch(); }}>
                Discard my changes
              </Button>
            </div>
          </Alert>
        ) : save.isError ? (
          <Alert title="The dashboard was not saved">{toUserMessage(save.error)}</Alert>
        ) : null}
        {exporter.isError ? <Alert title="Export failed">{toUserMessage(exporter.error)}</Alert> : null}

        {editable && editing && showSettings ? (
          <Suspense fallback={<Spinner label="Loading the dashboard settings" />}>
            <DashboardSettings
              workspaceId={workspace.id}
              spec={current.spec}
              onChange={(next) => change((d) => ({ ...d, spec: next }))}
              onClose={() => setShowSettings(false)}
            />
          </Suspense>
        ) : null}

        {(current.spec.variables ?? []).some((v) => v.type !== "constant") ? (
          <div className="row variables" role="group" aria-label="Variables">
            {(current.spec.variables ?? []).filter((v) => v.type !== "constant").map((v) => (
              <VariablePicker
                key={v.name}
                workspaceId={workspace.id}
                variable={v}
                value={values[v.name] ?? []}
                onChange={(x) => setVariable(v.name, x)}
              />
            ))}
          </div>
        ) : null}

        {viewPanel && !editing ? (
          viewed ? (
            <div className="panel-view" data-testid="panel-view">
              <PanelView
                {...shownAs(viewed)}
                panel={viewed}
                onZoom={onZoom}
                onToggleView={() => setViewPanel("")}
                viewing
                actions={
                  <Button size="sm" onClick={() => setViewPanel("")} title="Escape" data-testid="panel-view-back">
                    Back to the dashboard
                  </Button>
                }
              />
            </div>
          ) : (
            <Alert title="This panel is not on the dashboard" titleAs="h2">
              <p>The link names a panel ({viewPanel}) this version of the dashboard does not have.</p>
              <Button size="sm" onClick={() => setViewPanel("")}>
                Show the whole dashboard
              </Button>
            </Alert>
          )
        ) : panels.length === 0 ? (
          <EmptyState title="This dashboard has no panels yet">
            {editable ? (
              <Button
                variant="primary"
                onClick={() => {
                  startEditing();
                  addPanel();
                }}
              >
                Add a panel
              </Button>
            ) : (
              "An editor of this workspace can add some."
            )}
          </EmptyState>
        ) : (
          <DashboardGrid
            panels={grid.items}
            editable={editable && editing}
            onPanelsChange={setPanels}
            renderPanel={(p, handle) =>
              isRow(p) ? (
                <RowHeader
                  row={p}
                  panelCount={rowPanelCount(grid.items, p)}
                  variables={shownAs(p).variables}
                  variableNames={editable && editing ? (current.spec.variables ?? []).map((v) => v.name) : undefined}
                  onRepeatChange={
                    editable && editing
                      ? (repeat) => setPanels(panels.map((i) => (i.id === p.id ? { ...p, repeat } : i)))
                      : undefined
                  }
                  onToggle={() => toggle(p.id)}
                  onTitleChange={
                    editable && editing
                      ? (title) => setPanels(panels.map((i) => (i.id === p.id ? { ...p, title } : i)))
                      : undefined
                  }
                  headerClassName={editing ? handle : undefined}
                  actions={
                    editable && editing ? (
                      <>
                        <MoveHandle panel={p} panels={panels} onPanelsChange={setPanels} />
                        <Button
                          size="sm"
                          variant="ghost"
                          className="no-drag"
                          title="Remove row"
                          aria-label={`Remove the row ${rowTitle(p, values)}`}
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
                onZoom={editing ? undefined : onZoom}
                onToggleView={editing ? undefined : () => setViewPanel(p.id)}
                headerClassName={editing ? handle : undefined}
                badge={
                  editing && p.repeat ? (
                    <span className="muted small repeat-badge" title={`One copy per value of $${p.repeat}, outside edit mode`}>
                      repeats for ${p.repeat}
                    </span>
                  ) : undefined
                }
                actions={
                  editable && editing ? (
                    <>
                      <MoveHandle panel={p} panels={panels} onPanelsChange={setPanels} />
                      <Button
                        size="sm"
                        className="no-drag"
                        aria-label={`Edit ${p.title || "panel"}`}
                        onClick={() => setEditingPanel({ id: p.id })}
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
        )}

        {panelBeingEdited ? (
          <Suspense fallback={<Spinner label="Loading the panel editor" />}>
          <PanelEditor
            key={panelBeingEdited.id}
            workspaceId={workspace.id}
            panel={panelBeingEdited}
            timeRange={range}
            variables={values}
            pending={pending}
            compare={compare}
            variableOptions={options}
            onCancel={() => setEditingPanel(null)}
            onApply={(p) => {
              setPanels(editingPanel?.added ? [...panels, p] : replacePanel(panels, p));
              setEditingPanel(null);
            }}
          />
          </Suspense>
        ) : null}
        {showHistory ? (
          <VersionHistory
            workspaceId={workspace.id}
            dashboardId={server.id}
            currentVersion={server.version}
            editable={editable}
            dirty={dirty}
            onRestored={() => {
              setDraft(null);
              setShowHistory(false);
            }}
            onClose={() => setShowHistory(false)}
          />
        ) : null}
        {sharing ? (
          <ShareDialog
            what={`“${current.title}”`}
            range={range}
            panel={viewed ? { id: viewed.id, title: panelTitle(viewed.title, values) } : undefined}
            onClose={() => setSharing(false)}
          />
        ) : null}
        {confirmDialog}
      </div>
    </TimeZoneProvider>
  );
}
