import { useEffect, useMemo, useState, type CSSProperties, type ReactElement } from "react";
import { Button } from "@/components/ui/Button";
import { EmptyState } from "@/components/ui/EmptyState";
import { Spinner } from "@/components/ui/Spinner";
import { useColorScheme } from "@/lib/useColorScheme";
import { EChart } from "./EChart";
import { heatmapGrid, heatmapOption, type HeatmapRow } from "./heatmapOption";
import { formatValue } from "./units";

let loaded = false;
let loading: Promise<void> | null = null;

/**
 * Registers the heatmap chart and colour scale with ECharts (`heatmap.ts`), downloading them
 * the first time; a dashboard without heatmaps never asks for them. A failed download can be
 * tried again.
 */
export function loadHeatmap(): Promise<void> {
  if (!loading) {
    loading = import("./heatmap").then(
      () => {
        loaded = true;
      },
      (error: unknown) => {
        loading = null;
        throw error;
      },
    );
  }
  return loading;
}

export interface HeatmapChartProps {
  /** One row each, named by the series. */
  series: readonly HeatmapRow[];
  /** `[start, end]` in epoch ms: the columns cover it. */
  range?: [number, number];
  unit?: string;
  decimals?: number | null;
  /** `color_scheme` of the panel (viridis by default). */
  scheme?: string;
  /** Where the colour scale goes; `show: false` hides it. */
  legend?: { show?: boolean; position?: "bottom" | "right" };
  /** Accessible name; the number of series and the range of values are added to it. */
  label: string;
  /** What the spinner says while the heatmap's code loads. */
  loadingLabel?: string;
  /** Called with the `[start, end]` of the columns the user selected by dragging. */
  onBrushX?: (range: [number, number]) => void;
  style?: CSSProperties;
  testId?: string;
  /** The zone of the time axis and tooltips (the browser's by default). */
  timeZone?: string;
}

/**
 * Series over time as a heatmap: a row per series (sorted by name), a column per time step,
 * each cell coloured by its value on a scale from the smallest to the largest. The wrapper
 * carries `data-row-count` and `data-column-count`; the chart inside carries the usual
 * `data-point-count` (cells with a value) and `data-ready`.
 */
export function HeatmapChart({
  series,
  range,
  unit = "none",
  decimals,
  scheme,
  legend,
  label,
  loadingLabel = "Loading heatmap",
  onBrushX,
  style,
  testId = "chart",
  timeZone,
}: HeatmapChartProps): ReactElement {
  const [ready, setReady] = useState(loaded);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (ready || failed) return;
    let live = true;
    loadHeatmap().then(
      () => {
        if (live) setReady(true);
      },
      () => {
        if (live) setFailed(true);
      },
    );
    return () => {
      live = false;
    };
  }, [ready, failed]);

  const theme = useColorScheme();
  const grid = useMemo(() => heatmapGrid(series, range, timeZone), [series, range, timeZone]);
  const show = legend?.show;
  const position = legend?.position;
  const option = useMemo(
    () => heatmapOption(grid, { unit, decimals, scheme, theme, legend: { show, position }, timeZone }),
    [grid, unit, decimals, scheme, theme, show, position, timeZone],
  );
  // a selection on the category axis is column indices: zoom to the times they cover
  const zoom = useMemo(() => {
    if (!onBrushX || grid.step === 0) return undefined;
    const last = grid.times.length - 1;
    const at = (i: number): number => Math.min(last, Math.max(0, i));
    return ([a, b]: [number, number]) => onBrushX([grid.times[at(a)], grid.times[at(b)] + grid.step]);
  }, [onBrushX, grid]);

  if (failed) {
    return (
      <EmptyState title="The heatmap could not be loaded">
        <Button size="sm" onClick={() => setFailed(false)}>
          Try again
        </Button>
      </EmptyState>
    );
  }
  if (!ready) return <Spinner label={loadingLabel} />;

  const values =
    grid.cells.length > 0 ? `, ${formatValue(grid.min, unit, decimals)} to ${formatValue(grid.max, unit, decimals)}` : "";
  const rows = grid.rows.length === 1 ? "1 series" : `${grid.rows.length} series`;
  return (
    <div
      className="heatmap-chart"
      data-testid="heatmap"
      data-row-count={grid.rows.length}
      data-column-count={grid.times.length}
      style={{ height: "100%", ...style }}
    >
      <EChart option={option} label={`${label}: ${rows}${values}`} onBrushX={zoom} style={{ height: "100%" }} testId={testId} />
    </div>
  );
}
