import type { ReactElement, RefObject } from "react";
import type { Panel } from "@/api/dashboards";
import { RadioGroup } from "@/components/ui/RadioGroup";
import { VISUALISATIONS, visualisationOf, type Visualisation } from "../panelSpec";
import { DisplayOptions } from "./DisplayOptions";

export interface PanelOptionsProps {
  /** Makes the fields' ids unique on the page. */
  idPrefix: string;
  panel: Panel;
  /** The title field, which has the focus when the editor opens. */
  titleInput: RefObject<HTMLInputElement | null>;
  /** The dashboard's variables: what the panel can be repeated for. */
  variableNames: readonly string[];
  /** The API's rule for a gauge (min below max), when it is broken. */
  gaugeRangeError?: string;
  onChange: (patch: Partial<Panel>) => void;
  onTypeChange: (type: Visualisation) => void;
}

/**
 * The panel editor's side: title, description, visualisation, repeat, and for a panel of
 * queries how it draws them (unit, decimals, value, legend, thresholds and the options of its
 * type).
 */
export function PanelOptions({
  idPrefix,
  panel,
  titleInput,
  variableNames,
  gaugeRangeError,
  onChange,
  onTypeChange,
}: PanelOptionsProps): ReactElement {
  const vis = visualisationOf(panel);
  return (
    <aside className="panel-editor-options card" aria-label="Panel options">
      <div className="field">
        <label htmlFor={`${idPrefix}-title`}>Title</label>
        <input
          id={`${idPrefix}-title`}
          ref={titleInput}
          value={panel.title ?? ""}
          maxLength={200}
          onChange={(e) => onChange({ title: e.target.value })}
        />
      </div>
      <div className="field">
        <label htmlFor={`${idPrefix}-desc`}>Description</label>
        <textarea
          id={`${idPrefix}-desc`}
          rows={2}
          maxLength={2000}
          value={panel.description ?? ""}
          onChange={(e) => onChange({ description: e.target.value })}
        />
      </div>
      <fieldset>
        <legend>Visualisation</legend>
        <RadioGroup
          label="Visualisation"
          className="wrap"
          options={VISUALISATIONS}
          value={vis}
          onChange={onTypeChange}
        />
      </fieldset>
      {variableNames.length > 0 || panel.repeat ? (
        <RepeatOptions idPrefix={idPrefix} panel={panel} variableNames={variableNames} onChange={onChange} />
      ) : null}
      {panel.type === "text" ? null : (
        <DisplayOptions idPrefix={idPrefix} panel={panel} gaugeRangeError={gaugeRangeError} onChange={onChange} />
      )}
    </aside>
  );
}

interface RepeatOptionsProps {
  idPrefix: string;
  panel: Panel;
  variableNames: readonly string[];
  onChange: (patch: Partial<Panel>) => void;
}

/** Draws the panel once per value of a variable: which one, side by side or one under another. */
function RepeatOptions({ idPrefix, panel, variableNames, onChange }: RepeatOptionsProps): ReactElement {
  return (
    <fieldset>
      <legend>Repeat</legend>
      <div className="field">
        <label htmlFor={`${idPrefix}-repeat`}>Repeat for</label>
        <select
          id={`${idPrefix}-repeat`}
          value={panel.repeat ?? ""}
          aria-describedby={`${idPrefix}-repeat-hint`}
          onChange={(e) => onChange({ repeat: e.target.value || null })}
        >
          <option value="">Do not repeat</option>
          {panel.repeat && !variableNames.includes(panel.repeat) ? (
            <option value={panel.repeat}>${panel.repeat} (no such variable)</option>
          ) : null}
          {variableNames.map((name) => (
            <option key={name} value={name}>
              ${name}
            </option>
          ))}
        </select>
      </div>
      {panel.repeat ? (
        <div className="row">
          <div className="field grow">
            <label htmlFor={`${idPrefix}-repeat-dir`}>Copies</label>
            <select
              id={`${idPrefix}-repeat-dir`}
              value={panel.repeat_direction ?? "h"}
              onChange={(e) => onChange({ repeat_direction: e.target.value as "h" | "v" })}
            >
              <option value="h">Side by side</option>
              <option value="v">One under another</option>
            </select>
          </div>
          {(panel.repeat_direction ?? "h") === "h" ? (
            <div className="field narrow">
              <label htmlFor={`${idPrefix}-per-row`}>Per row</label>
              <input
                id={`${idPrefix}-per-row`}
                type="number"
                min={1}
                max={24}
                value={panel.max_per_row ?? 4}
                onChange={(e) =>
                  onChange({ max_per_row: Math.min(24, Math.max(1, Math.round(Number(e.target.value) || 1))) })
                }
              />
            </div>
          ) : null}
        </div>
      ) : null}
      <p className="muted small editor-hint" id={`${idPrefix}-repeat-hint`}>
        {panel.repeat
          ? `One copy of the panel per selected value of $${panel.repeat} (every value when none or All is selected), each with $${panel.repeat} set to its value. The copies show outside edit mode; the preview shows the first.`
          : "Draw the panel once per value of a variable, e.g. one chart per host."}
      </p>
    </fieldset>
  );
}
