import type { EChartsOption } from "echarts";
import { useEffect, useRef, useState, type ReactElement } from "react";
import "./ChartLegend.css";

export interface LegendEntry {
  /** The series name (what ECharts' legend actions refer to). */
  name: string;
  /** What is shown: the name, possibly followed by values. */
  label: string;
  color?: string;
}

/**
 * The entries of an option's legend, read from the option itself: each series' name and
 * colour, and the text the legend's formatter gives it.
 */
export function legendEntries(option: EChartsOption): LegendEntry[] {
  const legend = (Array.isArray(option.legend) ? option.legend[0] : option.legend) as
    | { formatter?: unknown }
    | undefined;
  const format = typeof legend?.formatter === "function" ? (legend.formatter as (n: string) => string) : undefined;
  const series = (Array.isArray(option.series) ? option.series : option.series ? [option.series] : []) as {
    name?: unknown;
    color?: unknown;
    itemStyle?: { color?: unknown };
  }[];
  const seen = new Set<string>();
  const out: LegendEntry[] = [];
  for (const s of series) {
    if (typeof s.name !== "string" || seen.has(s.name)) continue;
    seen.add(s.name);
    const color = typeof s.color === "string" ? s.color : typeof s.itemStyle?.color === "string" ? s.itemStyle.color : undefined;
    out.push({ name: s.name, label: format ? format(s.name) : s.name, color });
  }
  return out;
}

export interface ChartLegendProps {
  entries: LegendEntry[];
  position: "bottom" | "right";
  /** Names of the series currently hidden. */
  hidden: ReadonlySet<string>;
  /** Called with the series name when an entry is clicked (show/hide that series). */
  onToggle: (name: string) => void;
  label: string;
}

/**
 * Entries a legend renders at first (more than a panel's legend shows at once); the rest
 * follow when the list is scrolled to its end or "more" is pressed. A dashboard of charts
 * with hundreds of series each would otherwise build thousands of buttons nobody sees yet.
 */
export const LEGEND_FIRST = 30;

/**
 * A legend drawn as HTML beside a chart. A canvas legend lays out and measures every entry on
 * each draw, which dominates the cost of charts with many series; this one costs a list.
 */
export function ChartLegend({ entries, position, hidden, onToggle, label }: ChartLegendProps): ReactElement {
  const [all, setAll] = useState(false);
  const listRef = useRef<HTMLUListElement>(null);
  const moreRef = useRef<HTMLButtonElement>(null);
  const rest = all ? 0 : Math.max(0, entries.length - LEGEND_FIRST);
  useEffect(() => {
    const more = moreRef.current;
    if (rest === 0 || !more || typeof IntersectionObserver === "undefined") return;
    const io = new IntersectionObserver((seen) => seen.some((e) => e.isIntersecting) && setAll(true), {
      root: listRef.current,
    });
    io.observe(more);
    return () => io.disconnect();
  }, [rest]);
  const shown = rest > 0 ? entries.slice(0, LEGEND_FIRST) : entries;
  return (
    <ul ref={listRef} className={`chart-legend chart-legend-${position}`} aria-label={label} data-testid="chart-legend">
      {shown.map((e) => {
        const off = hidden.has(e.name);
        return (
          <li key={e.name}>
            <button
              type="button"
              className={off ? "chart-legend-item off" : "chart-legend-item"}
              aria-pressed={!off}
              title={e.label}
              onClick={() => onToggle(e.name)}
            >
              <span className="chart-legend-swatch" style={{ background: e.color }} aria-hidden="true" />
              <span className="chart-legend-label">{e.label}</span>
            </button>
          </li>
        );
      })}
      {rest > 0 ? (
        <li>
          <button ref={moreRef} type="button" className="chart-legend-item chart-legend-more" onClick={() => setAll(true)}>
            {rest} more
          </button>
        </li>
      ) : null}
    </ul>
  );
}

/** The option with the `hidden` series switched off in its legend's selection. */
export function withHiddenSeries(option: EChartsOption, hidden: ReadonlySet<string>): EChartsOption {
  if (hidden.size === 0 || Array.isArray(option.legend)) return option;
  const selected = Object.fromEntries([...hidden].map((name) => [name, false]));
  return { ...option, legend: { ...option.legend, selected } };
}
