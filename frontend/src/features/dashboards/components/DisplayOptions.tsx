import type { ReactElement } from "react";
import type { Panel, QueryPanel } from "@/api/dashboards";
import { DEFAULT_HEATMAP_SCHEME, HEATMAP_SCHEMES, type HeatmapScheme } from "@/components/charts/heatmapOption";
import { REDUCERS, type Reducer } from "@/components/charts/statReduce";
import { UNITS } from "@/components/charts/units";
import { TOP_LIST_LIMIT } from "@/components/panels/topList";
import { visualisationOf } from "../panelSpec";
import { ThresholdsEditor } from "./ThresholdsEditor";

type LegendValue = "last" | "min" | "max" | "avg" | "sum";
const LEGEND_VALUES: { value: LegendValue; label: string }[] = [
  { value: "last", label: "Last" },
  { value: "min", label: "Min" },
  { value: "max", label: "Max" },
  { value: "avg", label: "Mean" },
  { value: "sum", label: "Total" },
];

export interface DisplayOptionsProps {
  idPrefix: string;
  panel: QueryPanel;
  gaugeRangeError?: string;
  onChange: (patch: Partial<Panel>) => void;
}

/** How a panel of queries draws them: unit, decimals, value, the options of its type, legend, thresholds. */
export function DisplayOptions({ idPrefix, panel: q, gaugeRangeError, onChange }: DisplayOptionsProps): ReactElement {
  const vis = visualisationOf(q);
  const isChart = vis === "timeseries" || vis === "area" || vis === "bar";
  const isHeatmap = vis === "heatmap";
  return (
    <>
    <div className="row">
      <div className="field grow">
        <label htmlFor={`${idPrefix}-unit`}>Unit</label>
        <select id={`${idPrefix}-unit`} value={q.unit ?? "none"} onChange={(e) => onChange({ unit: e.target.value })}>
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
        <label htmlFor={`${idPrefix}-dec`}>Decimals</label>
        <input
          id={`${idPrefix}-dec`}
          type="number"
          min={0}
          max={10}
          placeholder="auto"
          value={q.decimals ?? ""}
          onChange={(e) =>
            onChange({
              decimals: e.target.value === "" ? null : Math.min(10, Math.max(0, Math.round(Number(e.target.value)))),
            })
          }
        />
      </div>
    </div>
    {q.type === "stat" || q.type === "gauge" || q.type === "table" || q.type === "toplist" ? (
      <div className="field">
        <label htmlFor={`${idPrefix}-reduce`}>{q.type === "table" ? "Rows" : "Value"}</label>
        <select
          id={`${idPrefix}-reduce`}
          value={("reduce" in q && q.reduce) || ""}
          onChange={(e) => onChange({ reduce: (e.target.value || null) as Reducer } as Partial<Panel>)}
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
          <label htmlFor={`${idPrefix}-limit`}>Show</label>
          <input
            id={`${idPrefix}-limit`}
            type="number"
            min={1}
            max={100}
            placeholder={String(TOP_LIST_LIMIT)}
            value={q.limit ?? ""}
            onChange={(e) =>
              onChange({
                limit:
                  e.target.value === "" ? undefined : Math.min(100, Math.max(1, Math.round(Number(e.target.value)))),
              } as Partial<Panel>)
            }
          />
        </div>
        <div className="field grow">
          <label htmlFor={`${idPrefix}-order`}>Order</label>
          <select
            id={`${idPrefix}-order`}
            value={q.order ?? "desc"}
            onChange={(e) => onChange({ order: e.target.value as "desc" | "asc" } as Partial<Panel>)}
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
            <label htmlFor={`${idPrefix}-${end}`}>{end === "min" ? "Min" : "Max"}</label>
            <input
              id={`${idPrefix}-${end}`}
              type="number"
              step="any"
              placeholder={end === "min" ? "0" : "auto"}
              value={q[end] ?? ""}
              aria-invalid={gaugeRangeError ? true : undefined}
              aria-describedby={gaugeRangeError ? `${idPrefix}-range-error` : undefined}
              onChange={(e) =>
                onChange({ [end]: e.target.value === "" ? null : Number(e.target.value) } as Partial<Panel>)
              }
            />
          </div>
        ))}
      </div>
    ) : null}
    {gaugeRangeError ? (
      <p className="field-error small" id={`${idPrefix}-range-error`} role="alert">
        {gaugeRangeError}
      </p>
    ) : null}
    {q.type === "stat" ? (
      <label className="check">
        <input
          type="checkbox"
          checked={q.sparkline !== false}
          onChange={(e) => onChange({ sparkline: e.target.checked } as Partial<Panel>)}
        />
        Sparkline
      </label>
    ) : null}
    {isChart ? (
      <label className="check">
        <input
          type="checkbox"
          checked={"stack" in q && q.stack === true}
          onChange={(e) => onChange({ stack: e.target.checked } as Partial<Panel>)}
        />
        Stack series
      </label>
    ) : null}
    {q.type === "heatmap" ? (
      <div className="field">
        <label htmlFor={`${idPrefix}-scheme`}>Colours</label>
        <select
          id={`${idPrefix}-scheme`}
          value={q.color_scheme ?? DEFAULT_HEATMAP_SCHEME}
          onChange={(e) => onChange({ color_scheme: e.target.value as HeatmapScheme } as Partial<Panel>)}
        >
          {HEATMAP_SCHEMES.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      </div>
    ) : null}
    {isChart || isHeatmap ? <LegendOptions idPrefix={idPrefix} panel={q} heatmap={isHeatmap} onChange={onChange} /> : null}
    {/* a heatmap colours its cells by the scale above, not by thresholds */}
    {(vis !== "table" || ("reduce" in q && q.reduce)) && !isHeatmap ? (
      <ThresholdsEditor value={q.thresholds ?? []} onChange={(thresholds) => onChange({ thresholds })} />
    ) : null}
    </>
  );
}

interface LegendOptionsProps {
  idPrefix: string;
  panel: QueryPanel;
  /** A heatmap's legend is its colour scale: shown or not, and where. */
  heatmap: boolean;
  onChange: (patch: Partial<Panel>) => void;
}

/** A chart's legend (shown, where, which values) or a heatmap's colour scale. */
function LegendOptions({ idPrefix, panel: q, heatmap: isHeatmap, onChange }: LegendOptionsProps): ReactElement {
  const legend = q.legend ?? { show: true, position: "bottom" as const, values: [] };
  const legendValues = legend.values ?? [];
  return (
    <fieldset>
      <legend>{isHeatmap ? "Colour scale" : "Legend"}</legend>
      <label className="check">
        <input
          type="checkbox"
          checked={legend.show !== false}
          onChange={(e) => onChange({ legend: { ...legend, show: e.target.checked } })}
        />
        {isHeatmap ? "Show colour scale" : "Show legend"}
      </label>
      <div className="field">
        <label htmlFor={`${idPrefix}-legpos`}>Placement</label>
        <select
          id={`${idPrefix}-legpos`}
          value={legend.position ?? "bottom"}
          disabled={legend.show === false}
          onChange={(e) => onChange({ legend: { ...legend, position: e.target.value as "bottom" | "right" } })}
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
                  onChange({
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
  );
}
