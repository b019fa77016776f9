import { useEffect, useId, useMemo, useRef, useState, type ReactElement } from "react";
import { DEFAULT_HEATMAP_SCHEME, HEATMAP_SCHEMES, type HeatmapScheme } from "@/components/charts/heatmapOption";
import { REDUCERS, type Reducer } from "@/components/charts/statReduce";
import { UNITS } from "@/components/charts/units";
import { Button } from "@/components/ui/Button";
import { RadioGroup } from "@/components/ui/RadioGroup";
import { useConfirm } from "@/components/ui/useConfirm";
import { queryRaw } from "@/features/explore/api";
import { dqlCompletionSource } from "@/features/explore/editor/dqlCompletion";
import type { TimeRangeSpec } from "@/lib/time";
import { isTextPanel, type Panel, type PanelQuery, type QueryPanel } from "../api";
import { changePanelType, compactPanel, VISUALISATIONS, visualisationOf, type Visualisation } from "../panelSpec";
import { repeatValues } from "../repeat";
import { sameJson } from "../sameSpec";
import { TOP_LIST_LIMIT } from "../topList";
import { useDebouncedValue } from "../useDebouncedValue";
import { useModalFocus } from "../useModalFocus";
import { useRestoreFocus } from "../useRestoreFocus";
import { emptyQueries, PanelQueriesEditor } from "./PanelQueriesEditor";
import { PanelView } from "./PanelView";
import { ThresholdsEditor } from "./ThresholdsEditor";

const NO_OPTIONS: Readonly<Record<string, readonly string[] | undefined>> = {};

/** How long the preview waits after the last edit before it re-runs the query. */
export const PREVIEW_DEBOUNCE_MS = 600;

type LegendValue = "last" | "min" | "max" | "avg" | "sum";
const LEGEND_VALUES: { value: LegendValue; label: string }[] = [
  { value: "last", label: "Last" },
  { value: "min", label: "Min" },
  { value: "max", label: "Max" },
  { value: "avg", label: "Mean" },
  { value: "sum", label: "Total" },
];

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
 * Full-screen panel editor: the query (DQL editor with completion) and the display options
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

  const completion = useMemo(
    () =>
      dqlCompletionSource(async (q) => {
        const res = await queryRaw(workspaceId, { queries: [{ query: q, disable_slimit: true }] });
        return res.content[0] ?? { series: [] };
      }),
    [workspaceId],
  );

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
  const legend = q?.legend ?? { show: true, position: "bottom" as const, values: [] };
  const legendValues = legend.values ?? [];
  const vis = visualisationOf(draft);
  const isChart = vis === "timeseries" || vis === "area" || vis === "bar";
  const isHeatmap = vis === "heatmap";
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
        <aside className="panel-editor-options card" aria-label="Panel options">
          <div className="field">
            <label htmlFor={`${titleId}-title`}>Title</label>
            <input
              id={`${titleId}-title`}
              ref={titleInput}
              value={draft.title ?? ""}
              maxLength={200}
              onChange={(e) => update({ title: e.target.value })}
            />
          </div>
          <div className="field">
            <label htmlFor={`${titleId}-desc`}>Description</label>
            <textarea
              id={`${titleId}-desc`}
              rows={2}
              maxLength={2000}
              value={draft.description ?? ""}
              onChange={(e) => update({ description: e.target.value })}
            />
          </div>
          <fieldset>
            <legend>Visualisation</legend>
            <RadioGroup
              label="Visualisation"
              className="wrap"
              options={VISUALISATIONS}
              value={vis}
              onChange={changeType}
            />
          </fieldset>
          {variableNames.length > 0 || draft.repeat ? (
            <fieldset>
              <legend>Repeat</legend>
              <div className="field">
                <label htmlFor={`${titleId}-repeat`}>Repeat for</label>
                <select
                  id={`${titleId}-repeat`}
                  value={draft.repeat ?? ""}
                  aria-describedby={`${titleId}-repeat-hint`}
                  onChange={(e) => update({ repeat: e.target.value || null })}
                >
                  <option value="">Do not repeat</option>
                  {draft.repeat && !variableNames.includes(draft.repeat) ? (
                    <option value={draft.repeat}>${draft.repeat} (no such variable)</option>
                  ) : null}
                  {variableNames.map((name) => (
                    <option key={name} value={name}>
                      ${name}
                    </option>
                  ))}
                </select>
              </div>
              {draft.repeat ? (
                <div className="row">
                  <div className="field grow">
                    <label htmlFor={`${titleId}-repeat-dir`}>Copies</label>
                    <select
                      id={`${titleId}-repeat-dir`}
                      value={draft.repeat_direction ?? "h"}
                      onChange={(e) => update({ repeat_direction: e.target.value as "h" | "v" })}
                    >
                      <option value="h">Side by side</option>
                      <option value="v">One under another</option>
                    </select>
                  </div>
                  {(draft.repeat_direction ?? "h") === "h" ? (
                    <div className="field narrow">
                      <label htmlFor={`${titleId}-per-row`}>Per row</label>
                      <input
                        id={`${titleId}-per-row`}
                        type="number"
                        min={1}
                        max={24}
                        value={draft.max_per_row ?? 4}
                        onChange={(e) =>
                          update({ max_per_row: Math.min(24, Math.max(1, Math.round(Number(e.target.value) || 1))) })
                        }
                      />
                    </div>
                  ) : null}
                </div>
              ) : null}
              <p className="muted small editor-hint" id={`${titleId}-repeat-hint`}>
                {draft.repeat
                  ? `One copy of the panel per selected value of $${draft.repeat} (every value when none or All is selected), each with $${draft.repeat} set to its value. The copies show outside edit mode; the preview shows the first.`
                  : "Draw the panel once per value of a variable, e.g. one chart per host."}
              </p>
            </fieldset>
          ) : null}
          {q ? (
            <>
              <div className="row">
                <div className="field grow">
                  <label htmlFor={`${titleId}-unit`}>Unit</label>
                  <select id={`${titleId}-unit`} value={q.unit ?? "none"} onChange={(e) => update({ unit: e.target.value })}>
                    {UNITS.some((u) => u.value === (q.unit ?? "none")) ? null : (
                      <option value={q.unit}>{q.unit}</option>
                    )}
                    {UNITS.map((u) => (
                      <option key={u.value} value={u.value}>
                        {u.label}
                      </option>
                    ))}
                  </select>
                </div>
                <div className="field narrow">
                  <label htmlFor={`${titleId}-dec`}>Decimals</label>
                  <input
                    id={`${titleId}-dec`}
                    type="number"
                    min={0}
                    max={10}
                    placeholder="auto"
                    value={q.decimals ?? ""}
                    onChange={(e) =>
                      update({
                        decimals: e.target.value === "" ? null : Math.min(10, Math.max(0, Math.round(Number(e.target.value)))),
                      })
                    }
                  />
                </div>
              </div>
              {q.type === "stat" || q.type === "gauge" || q.type === "table" || q.type === "toplist" ? (
                <div className="field">
                  <label htmlFor={`${titleId}-reduce`}>{q.type === "table" ? "Rows" : "Value"}</label>
                  <select
                    id={`${titleId}-reduce`}
                    value={("reduce" in q && q.reduce) || ""}
                    onChange={(e) => update({ reduce: (e.target.value || null) as Reducer } as Partial<Panel>)}
                  >
                    {q.type === "table" ? <option value="">One row per point</option> : null}
                    {REDUCERS.map((r) => (
                      <option key={r.value} value={r.value}>
                        {r.label}
                      </option>
                    ))}
                  </select>
                </div>
              ) : null}
              {q.type === "toplist" ? (
                <div className="row">
                  <div className="field narrow">
                    <label htmlFor={`${titleId}-limit`}>Show</label>
                    <input
                      id={`${titleId}-limit`}
                      type="number"
                      min={1}
                      max={100}
                      placeholder={String(TOP_LIST_LIMIT)}
                      value={q.limit ?? ""}
                      onChange={(e) =>
                        update({
                          limit:
                            e.target.value === "" ? undefined : Math.min(100, Math.max(1, Math.round(Number(e.target.value)))),
                        } as Partial<Panel>)
                      }
                    />
                  </div>
                  <div className="field grow">
                    <label htmlFor={`${titleId}-order`}>Order</label>
                    <select
                      id={`${titleId}-order`}
                      value={q.order ?? "desc"}
                      onChange={(e) => update({ order: e.target.value as "desc" | "asc" } as Partial<Panel>)}
                    >
                      <option value="desc">Largest first</option>
                      <option value="asc">Smallest first</option>
                    </select>
                  </div>
                </div>
              ) : null}
              {q.type === "gauge" ? (
                <div className="row" role="group" aria-label="Dial range">
                  {(["min", "max"] as const).map((end) => (
                    <div className="field grow" key={end}>
                      <label htmlFor={`${titleId}-${end}`}>{end === "min" ? "Min" : "Max"}</label>
                      <input
                        id={`${titleId}-${end}`}
                        type="number"
                        step="any"
                        placeholder={end === "min" ? "0" : "auto"}
                        value={q[end] ?? ""}
                        aria-invalid={gaugeRangeError ? true : undefined}
                        aria-describedby={gaugeRangeError ? `${titleId}-range-error` : undefined}
                        onChange={(e) =>
                          update({ [end]: e.target.value === "" ? null : Number(e.target.value) } as Partial<Panel>)
                        }
                      />
                    </div>
                  ))}
                </div>
              ) : null}
              {gaugeRangeError ? (
                <p className="field-error small" id={`${titleId}-range-error`} role="alert">
                  {gaugeRangeError}
                </p>
              ) : null}
              {q.type === "stat" ? (
                <label className="check">
                  <input
                    type="checkbox"
                    checked={q.sparkline !== false}
                    onChange={(e) => update({ sparkline: e.target.checked } as Partial<Panel>)}
                  />
                  Sparkline
                </label>
              ) : null}
              {isChart ? (
                <label className="check">
                  <input
                    type="checkbox"
                    checked={"stack" in q && q.stack === true}
                    onChange={(e) => update({ stack: e.target.checked } as Partial<Panel>)}
                  />
                  Stack series
                </label>
              ) : null}
              {q.type === "heatmap" ? (
                <div className="field">
                  <label htmlFor={`${titleId}-scheme`}>Colours</label>
                  <select
                    id={`${titleId}-scheme`}
                    value={q.color_scheme ?? DEFAULT_HEATMAP_SCHEME}
                    onChange={(e) => update({ color_scheme: e.target.value as HeatmapScheme } as Partial<Panel>)}
                  >
                    {HEATMAP_SCHEMES.map((c) => (
                      <option key={c.value} value={c.value}>
                        {c.label}
                      </option>
                    ))}
                  </select>
                </div>
              ) : null}
              {isChart || isHeatmap ? (
                <fieldset>
                  <legend>{isHeatmap ? "Colour scale" : "Legend"}</legend>
                  <label className="check">
                    <input
                      type="checkbox"
                      checked={legend.show !== false}
                      onChange={(e) => update({ legend: { ...legend, show: e.target.checked } })}
                    />
                    {isHeatmap ? "Show colour scale" : "Show legend"}
                  </label>
                  <div className="field">
                    <label htmlFor={`${titleId}-legpos`}>Placement</label>
                    <select
                      id={`${titleId}-legpos`}
                      value={legend.position ?? "bottom"}
                      disabled={legend.show === false}
                      onChange={(e) => update({ legend: { ...legend, position: e.target.value as "bottom" | "right" } })}
                    >
                      <option value="bottom">Bottom</option>
                      <option value="right">Right</option>
                    </select>
                  </div>
                  {isHeatmap ? null : (
                    <div className="row" role="group" aria-label="Values in the legend">
                      {LEGEND_VALUES.map((v) => (
                        <label key={v.value} className="check">
                          <input
                            type="checkbox"
                            disabled={legend.show === false}
                            checked={legendValues.includes(v.value)}
                            onChange={(e) =>
                              update({
                                legend: {
                                  ...legend,
                                  values: e.target.checked
                                    ? LEGEND_VALUES.map((x) => x.value).filter((x) => x === v.value || legendValues.includes(x))
                                    : legendValues.filter((x) => x !== v.value),
                                },
                              })
                            }
                          />
                          {v.label}
                        </label>
                      ))}
                    </div>
                  )}
                </fieldset>
              ) : null}
              {/* a heatmap colours its cells by the scale above, not by thresholds */}
              {(vis !== "table" || ("reduce" in q && q.reduce)) && !isHeatmap ? (
                <ThresholdsEditor value={q.thresholds ?? []} onChange={(thresholds) => update({ thresholds })} />
              ) : null}
            </>
          ) : null}
        </aside>
      </div>
      {confirmDialog}
    </div>
  );
}
