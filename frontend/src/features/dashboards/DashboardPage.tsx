import { lazy, Suspense, useCallback, useMemo, useState, type ReactElement } from "react";
import { useParams, useSearchParams } from "react-router";
import { everyPanel, isRow, type DashboardVariable, type Panel } from "@/api/dashboards";
import { useCurrentWorkspace } from "@/api/useCurrentWorkspace";
import { useDashboard } from "@/api/useDashboards";
import { canEdit } from "@/api/useWorkspaces";
import { Alert } from "@/components/ui/Alert";
import { ShareDialog } from "@/components/ui/ShareDialog";
import { Spinner } from "@/components/ui/Spinner";
import { useConfirm } from "@/components/ui/useConfirm";
import { toUserMessage } from "@/lib/apiError";
import { downloadJson } from "@/lib/download";
import { DEFAULT_QUERY } from "@/lib/dql/dql";
import { useShortcuts } from "@/lib/shortcuts";
import { TimeZoneProvider } from "@/lib/timeZone";
import { useDocumentTitle } from "@/lib/useDocumentTitle";
import { useRefreshParam } from "@/lib/useUrlState";
import { DashboardHeader } from "./components/DashboardHeader";
import { DashboardPanels } from "./components/DashboardPanels";
import { EditBar } from "./components/EditBar";
import { SaveProblem } from "./components/SaveProblem";
import { VariablePicker } from "./components/VariablePicker";
import { VersionHistory } from "./components/VersionHistory";
import { exportFileName } from "./exportFile";
import { useDashboardDraft } from "./hooks/useDashboardDraft";
import { useExportDashboard } from "./hooks/useDashboardMutations";
import { useDashboardRefresh } from "./hooks/useDashboardRefresh";
import { useDashboardUrl } from "./hooks/useDashboardUrl";
import { useLeaveGuard } from "./hooks/useLeaveGuard";
import { useVariableOptions } from "./hooks/useMetadataValues";
import { panelInFocus, useViewedPanelFocus } from "./hooks/useViewedPanelFocus";
import { newPanelId, nextPanelPosition } from "./layout";
import { dashboardView } from "./panelQuery";
import { newPanel } from "./panelSpec";
import { dashboardGrid, firstCopies, sourcePanelId } from "./repeat";
import { replacePanel, withNewRow } from "./rows";
import { panelTitle } from "./variables";
import "./dashboards.css";

// The panel editor and the settings (variables) bring CodeMirror; viewers never need them.
const PanelEditor = lazy(async () => ({ default: (await import("./components/PanelEditor")).PanelEditor }));
const DashboardSettings = lazy(async () => ({
  default: (await import("./components/DashboardSettings")).DashboardSettings,
}));

const NO_VARIABLES: DashboardVariable[] = [];

/**
 * The panel open in the editor: one of the dashboard's, or a new one, which joins the
 * dashboard only when the editor applies it.
 */
type PanelEdit = { id: string; added?: undefined } | { id: string; added: Panel };

/** What is open over the dashboard: the version history or the share dialog. */
type Opened = "history" | "share" | null;

/**
 * A dashboard. The time range, variables, comparison, auto refresh and a panel shown alone live
 * in the URL (`from`, `to`, `var-<name>`, `compare`, `refresh`, `viewPanel`) so the link shares the view; without them the
 * dashboard's saved defaults apply. Editors switch to edit mode to move, resize, add, edit and remove panels and
 * to change the variables and default comparison in Settings; changes stay local until saved
 * as a new version (`useDashboardDraft`).
 */
export function DashboardPage(): ReactElement {
  const workspace = useCurrentWorkspace();
  const editable = canEdit(workspace.role);
  const { dashboardId = "" } = useParams();
  const dashboard = useDashboard(workspace.id, dashboardId);
  const draft = useDashboardDraft(workspace.id, dashboardId, dashboard);
  const exporter = useExportDashboard(workspace.id);
  const [params] = useSearchParams();
  const [editingPanel, setEditingPanel] = useState<PanelEdit | null>(null);
  const [opened, setOpened] = useState<Opened>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [confirm, confirmDialog] = useConfirm();
  const server = dashboard.data;
  const { current, editing } = draft;
  const spec = current?.spec;

  const { range, compare, refresh, values, pending, viewPanel } = useMemo(() => dashboardView(spec, params), [spec, params]);
  const { setRange, setCompare, setViewPanel, setVariable } = useDashboardUrl(spec?.time_shift);
  // the same value as `refresh` above (the URL's over the saved one); the setter keeps the URL short
  const [, setRefresh] = useRefreshParam(spec?.refresh);
  // every value of each variable (the pickers ask for the same, once): what a repeated panel
  // is drawn for when none or All is selected
  const options = useVariableOptions(workspace.id, spec?.variables ?? NO_VARIABLES, values);
  // What the grid draws: while the layout is edited, the panels and rows as they are saved (a
  // repeated one as its first copy); otherwise a copy of each repeated row, the rows as this
  // person folded them, and a copy of each repeated panel per value.
  const grid = useMemo(() => {
    const items = spec?.panels ?? [];
    return editing ? firstCopies(items, values, options) : dashboardGrid(items, values, options, draft.folded);
  }, [spec, editing, draft.folded, values, options]);
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
  const { startEditing } = draft;
  const editPanel = (id: string): void => {
    if (viewPanel) setViewPanel("");
    startEditing();
    setEditingPanel({ id: sourcePanelId(id) });
  };
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
      if (editable && shown && !editingPanel) editPanel(shown);
    },
  });
  const backToDashboard = useCallback(() => setViewPanel(""), [setViewPanel]);
  useViewedPanelFocus(viewPanel, { editing, overlayOpen: opened === "history", onBack: backToDashboard });
  const onZoom = useCallback(([a, b]: [number, number]) => setRange({ from: String(a), to: String(b) }), [setRange]);
  useLeaveGuard(draft.dirty, confirm);

  if (dashboard.isPending) return <Spinner label="Loading dashboard" />;
  if (dashboard.isError || !current || !server) {
    return <Alert title="Could not open this dashboard" titleAs="h1">{toUserMessage(dashboard.error)}</Alert>;
  }

  const panels = current.spec.panels ?? [];
  const variables = current.spec.variables ?? [];
  const panelBeingEdited = editingPanel?.added ?? everyPanel(panels).find((p) => p.id === editingPanel?.id);
  // The new panel is only put on the dashboard when the editor applies it.
  const addPanel = (): void => {
    const id = newPanelId(panels);
    const query = DEFAULT_QUERY.replace("[15m::1m]", "[::1m]");
    setEditingPanel({ id, added: newPanel(id, nextPanelPosition(panels), query) });
  };
  const onExport = (): void =>
    exporter.mutate(server.id, { onSuccess: (doc) => downloadJson(doc, exportFileName(doc.title)) });

  return (
    // the dashboard's time zone for its charts, tables and time range (the browser's if none)
    <TimeZoneProvider timeZone={spec?.timezone}>
      <div className="page dashboard-page">
        <DashboardHeader
          workspaceId={workspace.id}
          title={current.title}
          editable={editable}
          editing={editing}
          onTitleChange={(title) => draft.change((d) => ({ ...d, title }))}
          dirty={draft.dirty}
          saving={draft.saving}
          version={server.version}
          range={range}
          onRangeChange={setRange}
          compare={compare}
          onCompareChange={setCompare}
          refresh={refresh}
          onRefreshChange={setRefresh}
          onRefreshNow={refreshNow}
          refreshing={fetching}
          onShare={() => setOpened("share")}
          onHistory={() => setOpened("history")}
          onExport={onExport}
          exporting={exporter.isPending}
          onEdit={() => {
            startEditing();
            if (viewPanel) setViewPanel("");
          }}
          onDoneEditing={draft.stopEditing}
        />
        {editable && (editing || draft.dirty) ? (
          <EditBar
            editing={editing}
            dirty={draft.dirty}
            saving={draft.saving}
            note={draft.note}
            onNoteChange={draft.setNote}
            onAddPanel={addPanel}
            onAddRow={() => draft.setPanels(withNewRow(panels, newPanelId(panels, "row")))}
            settingsOpen={settingsOpen}
            onToggleSettings={() => setSettingsOpen((v) => !v)}
            onDiscard={draft.discard}
            onSave={() => draft.save()}
          />
        ) : null}
        <SaveProblem
          conflict={draft.conflict}
          version={server.version}
          error={draft.saveError}
          onSaveAnyway={() => draft.save(true)}
          onDiscardMine={draft.discardAfterConflict}
        />
        {exporter.isError ? <Alert title="Export failed">{toUserMessage(exporter.error)}</Alert> : null}

        {editable && editing && settingsOpen ? (
          <Suspense fallback={<Spinner label="Loading the dashboard settings" />}>
            <DashboardSettings
              workspaceId={workspace.id}
              spec={current.spec}
              onChange={(next) => draft.change((d) => ({ ...d, spec: next }))}
              onClose={() => setSettingsOpen(false)}
            />
          </Suspense>
        ) : null}

        {variables.some((v) => v.type !== "constant") ? (
          <div className="row variables" role="group" aria-label="Variables">
            {variables
              .filter((v) => v.type !== "constant")
              .map((v) => (
                <VariablePicker
                  key={v.name}
                  workspaceId={workspace.id}
                  variable={v}
                  value={values[v.name] ?? []}
                  values={values}
                  onChange={(x) => setVariable(v.name, x)}
                />
              ))}
          </div>
        ) : null}

        <DashboardPanels
          panels={panels}
          grid={grid}
          variables={variables}
          context={{ workspaceId: workspace.id, timeRange: range, variables: values, pending, compare }}
          editable={editable}
          editing={editing}
          viewPanel={viewPanel}
          viewed={viewed}
          onViewPanel={setViewPanel}
          onPanelsChange={draft.setPanels}
          onFold={draft.setFolded}
          onZoom={onZoom}
          onEditPanel={(id) => setEditingPanel({ id })}
          onAddFirstPanel={() => {
            startEditing();
            addPanel();
          }}
          confirm={confirm}
        />

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
                draft.setPanels(editingPanel?.added ? [...panels, p] : replacePanel(panels, p));
                setEditingPanel(null);
              }}
            />
          </Suspense>
        ) : null}
        {opened === "history" ? (
          <VersionHistory
            workspaceId={workspace.id}
            dashboardId={server.id}
            currentVersion={server.version}
            editable={editable}
            dirty={draft.dirty}
            onRestored={() => {
              draft.discard();
              setOpened(null);
            }}
            onClose={() => setOpened(null)}
          />
        ) : null}
        {opened === "share" ? (
          <ShareDialog
            what={`“${current.title}”`}
            range={range}
            panel={viewed ? { id: viewed.id, title: panelTitle(viewed.title, values) } : undefined}
            onClose={() => setOpened(null)}
          />
        ) : null}
        {confirmDialog}
      </div>
    </TimeZoneProvider>
  );
}
