import type { EChartsOption } from "echarts";
import { useEffect, useRef, type CSSProperties, type ReactElement } from "react";
import { useColorScheme } from "@/lib/useColorScheme";
import { countDrawn } from "./countDrawn";
import { echarts } from "./echarts";

export interface EChartProps {
  option: EChartsOption;
  /** Accessible description of what the chart shows. */
  label: string;
  /** Replace the whole option instead of merging (default true: series may disappear). */
  notMerge?: boolean;
  style?: CSSProperties;
  className?: string;
  testId?: string;
  /** Called with `[start, end]` of the x range the user selected by dragging (time axes). */
  onBrushX?: (range: [number, number]) => void;
  /** Called once the instance exists, e.g. to subscribe to more events. */
  onReady?: (chart: echarts.ECharts) => void;
}

/**
 * The one component that owns an ECharts instance: init on mount, `setOption` when the
 * option changes, resize with its container, dispose on unmount. It sets
 * `data-series-count` and `data-point-count` from what the instance actually holds, and
 * `data-ready="true"` once that is drawn, so tests can check a chart without reading pixels.
 */
export function EChart({
  option,
  label,
  notMerge = true,
  style,
  className,
  testId = "chart",
  onBrushX,
  onReady,
}: EChartProps): ReactElement {
  const ref = useRef<HTMLDivElement>(null);
  const chartRef = useRef<echarts.ECharts | null>(null);
  const scheme = useColorScheme();
  const brushRef = useRef(onBrushX);
  brushRef.current = onBrushX;
  const readyRef = useRef(onReady);
  readyRef.current = onReady;
  // what the chart should show; applied when it changes and when the instance is created
  const shownRef = useRef({ option, notMerge, brush: onBrushX !== undefined });
  shownRef.current = { option, notMerge, brush: onBrushX !== undefined };
  // series the user switched off in the canvas legend, by name: kept across new options
  // (a refresh replaces the whole option) and across a new instance (theme change)
  const legendRef = useRef<LegendSelection>({});

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    let chart: echarts.ECharts | null = null;
    // The instance is created on the first size report, with that size: ECharts would
    // otherwise read it from the DOM, forcing a layout per chart while a dashboard mounts.
    // Later reports resize it, only when the size really changed (a resize re-lays out
    // every series).
    const ro = new ResizeObserver((entries) => {
      const box = entries[entries.length - 1].contentRect;
      const size = { width: Math.round(box.width), height: Math.round(box.height) };
      if (chart) {
        if (size.width !== chart.getWidth() || size.height !== chart.getHeight()) chart.resize(size);
        return;
      }
      const c = echarts.init(el, scheme === "dark" ? "dark" : undefined, { renderer: "canvas", ...size });
      chart = c;
      chartRef.current = c;
      c.on("brushEnd", (params: unknown) => {
        const areas = (params as { areas?: { coordRange?: unknown }[] }).areas ?? [];
        const range = areas[0]?.coordRange;
        c.dispatchAction({ type: "brush", areas: [] });
        if (Array.isArray(range) && range.length === 2 && brushRef.current) {
          const [a, b] = range.map(Number);
          if (Number.isFinite(a) && Number.isFinite(b) && b > a) brushRef.current([Math.round(a), Math.round(b)]);
        }
      });
      // the pointer moves over a chart before it can press on it, touch included
      c.getZr().on("mousemove", (e) => arm(c, e));
      c.getZr().on("mousedown", (e) => arm(c, e));
      c.on("finished", () => {
        el.dataset.ready = "true";
      });
      c.on("legendselectchanged", (params: unknown) => {
        const selected = (params as { selected?: LegendSelection }).selected;
        if (selected) legendRef.current = { ...selected };
      });
      readyRef.current?.(c);
      show(c, el, shownRef.current, legendRef.current);
    });
    ro.observe(el);
    return () => {
      ro.disconnect();
      chart?.dispose();
      chartRef.current = null;
    };
  }, [scheme]);

  useEffect(() => {
    const chart = chartRef.current;
    const el = ref.current;
    if (chart && el) show(chart, el, { option, notMerge, brush: onBrushX !== undefined }, legendRef.current);
  }, [option, notMerge, onBrushX]);

  return (
    <div
      ref={ref}
      role="img"
      aria-label={label}
      data-testid={testId}
      className={className}
      // A layout boundary: what ECharts adds inside (canvas, tooltip) does not make the page
      // lay out again, which each chart otherwise forces while a dashboard of them is drawn.
      style={{ width: "100%", height: 360, ...style, contain: "strict" }}
    />
  );
}

/**
 * What a chart adds once the pointer reaches it: its tooltip (and axis pointer), and whether
 * to arm drag-to-select. Both cost a chart real work when it is created (the tooltip's DOM
 * and a read of the page layout; arming the brush re-lays out the whole chart), which on a
 * dashboard is paid by every chart at once while nobody points at any of them yet.
 */
const onPointer = new WeakMap<echarts.ECharts, { tooltip?: EChartsOption["tooltip"]; brush: boolean }>();

function arm(chart: echarts.ECharts, e: { offsetX: number; offsetY: number }): void {
  const pending = onPointer.get(chart);
  if (!pending) return;
  onPointer.delete(chart);
  if (pending.tooltip) {
    chart.setOption({ tooltip: pending.tooltip });
    // the move that armed it shows the tooltip too
    chart.dispatchAction({ type: "showTip", x: e.offsetX, y: e.offsetY });
  }
  if (pending.brush) {
    chart.dispatchAction({
      type: "takeGlobalCursor",
      key: "brush",
      brushOption: { brushType: "lineX", brushMode: "single" },
    });
  }
}

/** A legend's selection as ECharts reports it: series name → shown. */
export type LegendSelection = Record<string, boolean>;

/**
 * `option` with the series the user switched off (`selection`, by series name) still off.
 * An option that sets its legend's `selected` itself (an HTML legend does) is left as it is;
 * names the option no longer has are dropped, and come back off if they return later.
 */
export function keepLegendSelection(option: EChartsOption, selection: LegendSelection): EChartsOption {
  const legend = option.legend;
  if (!legend || Array.isArray(legend) || legend.selected !== undefined) return option;
  const series = (Array.isArray(option.series) ? option.series : option.series ? [option.series] : []) as {
    name?: unknown;
  }[];
  const names = new Set(series.map((s) => s.name));
  const off = Object.keys(selection).filter((name) => selection[name] === false && names.has(name));
  if (off.length === 0) return option;
  return { ...option, legend: { ...legend, selected: Object.fromEntries(off.map((name) => [name, false])) } };
}

/**
 * Puts `option` on the chart (with drag-to-select on the x axis when `brush`, and the
 * legend `selection` the user made kept) and sets the element's `data-series-count`,
 * `data-point-count` and `data-ready` from it.
 */
function show(
  chart: echarts.ECharts,
  el: HTMLElement,
  { option: given, notMerge, brush }: { option: EChartsOption; notMerge: boolean; brush: boolean },
  selection: LegendSelection,
): void {
  const option = keepLegendSelection(given, selection);
  // The chart contains its layout and paint (`contain: strict`): its tooltip must stay inside.
  const { tooltip, ...rest } = option;
  const contained =
    tooltip && !Array.isArray(tooltip) && tooltip.confine === undefined ? { ...tooltip, confine: true } : tooltip;
  const withBrush: EChartsOption = brush
    ? {
        ...rest,
        brush: { xAxisIndex: "all", brushLink: "all", brushType: "lineX", brushMode: "single", transformable: false },
      }
    : rest;
  // lazyUpdate: draw in the next frame, so a dashboard's charts share frames with React
  // instead of each blocking the main thread inside its own effect.
  chart.setOption(withBrush, { notMerge, lazyUpdate: true });
  if (contained || brush) onPointer.set(chart, { tooltip: contained, brush });
  else onPointer.delete(chart);
  // A merged option only adds to what is there; a replaced one is exactly this option, which
  // is cheaper to count than the deep copy getOption() returns.
  const drawn = countDrawn(notMerge ? withBrush : chart.getOption());
  el.dataset.seriesCount = String(drawn.series);
  el.dataset.pointCount = String(drawn.points);
  // set again by the "finished" event once this option is on the canvas
  el.dataset.ready = "false";
}
