import { useEffect, useId, useMemo, useRef, useState, type ReactElement } from "react";
import { isTextPanel, type Panel, type PanelQuery, type QueryPanel } from "@/api/dashboards";
import { useQueryCompletion } from "@/components/query-editor/useQueryCompletion";
import { Button } from "@/components/ui/Button";
import { useConfirm } from "@/components/ui/useConfirm";
import { useModalFocus } from "@/components/ui/useModalFocus";
import { useRestoreFocus } from "@/components/ui/useRestoreFocus";
import type { TimeRangeSpec } from "@/lib/time";
import { useDebouncedValue } from "@/lib/useDebouncedValue";
import { changePanelType, compactPanel, type Visualisation } from "../panelSpec";
import { repeatValues } from "../repeat";
import { sameJson } from "../sameSpec";
import { PanelOptions } from "./PanelOptions";
import { emptyQueries, PanelQueriesEditor } from "./PanelQueriesEditor";
import { PanelView } from "./PanelView";

const NO_OPTIONS: Readonly<Record<string, readonly string[] | undefined>> = {};

/** How long the preview waits after the last edit before it re-runs the query. */
export const PREVIEW_DEBOUNCE_MS = 600;

export interface PanelEditorProps {
  workspaceId: string;
  panel: Panel;
  timeRange: TimeRangeSpec;
  variables: Record<string, string[]>;
  /** Variables still waiting for a value: the preview waits too when its query uses one. */
  pending?: readonly string[];
  compare?: string;
  /**
   * Every value of each of the dashboard's variables (name → values, undefined while not
   * known): what a panel can be repeated for, and the preview's value for a repeated one.
   */
  variableOptions?: Readonly<Record<string, readonly string[] | undefined>>;
  /** Applies the edited panel to the dashboard (saved with the dashboard). */
  onApply: (panel: Panel) => void;
  onCancel: () => void;
}

/**
 * Full-screen panel editor: the queries (DQL or PromQL, with completion) and the display options
 * on the side, with a preview that re-runs shortly after each change. It is modal: Tab stays
 * inside it, and focus goes back to the button that opened it when it closes.
 */
export function PanelEditor({
  workspaceId,
  panel,
  timeRange,
  variables,
  pending,
  compare,
  variableOptions = NO_OPTIONS,
  onApply,
  onCancel,
}: PanelEditorProps): ReactElement {
  useRestoreFocus();
  const dialogRef = useRef<HTMLDivElement>(null);
  const keepFocus = useModalFocus(dialogRef);
  const [confirm, confirmDialog] = useConfirm();
  const [draft, setDraft] = useState<Panel>(panel);
  const [preview, flushPreview] = useDebouncedValue(draft, PREVIEW_DEBOUNCE_MS);
  const titleId = useId();
  const titleInput = useRef<HTMLInputElement>(null);
  const changed = !sameJson(draft, panel);
  // the panel as a query panel; what it was as a chart and as text, which come back when
  // the visualisation switches back
  const q = isTextPanel(draft) ? undefined : draft;
  const asChart = useRef<QueryPanel | undefined>(isTextPanel(panel) ? undefined : panel);
  const asText = useRef(isTextPanel(panel) ? (panel.content ?? "") : "");
  const validQuery = !q || (q.queries.length > 0 && emptyQueries(q.queries).length === 0);
  // the API's rule: a gauge's min below its max
  const gaugeRangeError =
    q?.type === "gauge" && q.min != null && q.max != null && q.min >= q.max ? "Min must be below Max." : undefined;

  const completion = useQueryCompletion(workspaceId);

  useEffect(() => titleInput.current?.focus(), []);
  const cancel = (): void => {
    if (!changed) {
      onCancel();
      return;
    }
    void confirm({
      title: "Discard the changes to this panel?",
      message: "The dashboard keeps the panel as it was before you opened the editor.",
      confirmLabel: "Discard",
    }).then((ok) => {
      if (ok) onCancel();
    });
  };
  const cancelRef = useRef(cancel);
  cancelRef.current = cancel;
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === "Escape" && !(e.target instanceof HTMLElement && e.target.closest(".cm-editor"))) cancelRef.current();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  const update = (patch: Partial<Panel>): void => setDraft((d) => ({ ...d, ...patch }) as Panel);
  const setQueries = (queries: PanelQuery[]): void => setDraft((d) => (isTextPanel(d) ? d : { ...d, queries }));
  const setContent = (content: string): void => setDraft((d) => (isTextPanel(d) ? { ...d, content } : d));
  const changeType = (type: Visualisation): void => {
    if (isTextPanel(draft)) asText.current = draft.content ?? "";
    else asChart.current = draft;
    const next = changePanelType(draft, type, asChart.current);
    setDraft(isTextPanel(next) && q ? { ...next, content: asText.current } : next);
  };
  // the preview of a repeated panel: its first copy
  const variableNames = Object.keys(variableOptions);
  const repeatedFor = draft.repeat ?? undefined;
  const previewVariables = useMemo(() => {
    const first = repeatedFor ? repeatValues(variables[repeatedFor], variableOptions[repeatedFor])?.[0] : undefined;
    return repeatedFor && first !== undefined ? { ...variables, [repeatedFor]: [first] } : variables;
  }, [variables, variableOptions, repeatedFor]);

  return (
    <div
      ref={dialogRef}
      className="panel-editor"
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      data-testid="panel-editor"
      onKeyDown={keepFocus}
    >
      <header className="panel-editor-bar">
        <h2 id={titleId}>Edit panel</h2>
        <div className="toolbar">
          {changed ? <span className="muted small">Changes are applied to the dashboard, then saved with it.</span> : null}
          <Button onClick={cancel}>Discard</Button>
          <Button
            variant="primary"
            disabled={!validQuery || gaugeRangeError !== undefined}
            onClick={() => onApply(compactPanel({ ...draft, title: draft.title?.trim() ?? "" }))}
          >
            Apply
          </Button>
        </div>
      </header>
      <div className="panel-editor-body">
        <div className="panel-editor-main">
          <div className="panel-editor-preview">
            <PanelView
              preview
              workspaceId={workspaceId}
              panel={preview}
              timeRange={timeRange}
              variables={previewVariables}
              pending={pending}
              compare={compare}
            />
          </div>
          {q ? (
            <PanelQueriesEditor queries={q.queries} onChange={setQueries} onRun={flushPreview} completion={completion} />
          ) : (
            <section className="card panel-editor-text" aria-label="Text">
              <label htmlFor={`${titleId}-content`}>Text (Markdown)</label>
              <textarea
                id={`${titleId}-content`}
                className="mono"
                rows={12}
                maxLength={20_000}
                spellCheck
                value={draft.type === "text" ? (draft.content ?? "") : ""}
                onChange={(e) => setContent(e.target.value)}
              />
              <p className="muted small editor-hint">
                Markdown: <code># heading</code>, <code>**bold**</code>, <code>- list</code>, <code>[link](https://…)</code>,
                tables, <code>`code`</code>. <code>$name</code> shows a dashboard variable&apos;s value. Links to other sites
                open in a new tab.
              </p>
            </section>
          )}
        </div>
        <PanelOptions
          idPrefix={titleId}
          panel={draft}
          titleInput={titleInput}
          variableNames={variableNames}
          gaugeRangeError={gaugeRangeError}
          onChange={update}
          onTypeChange={changeType}
        />
      </div>
      {confirmDialog}
    </div>
  );
}
