import { useMemo, type ReactElement } from "react";
import { readableColor, surfaceColor } from "@/components/charts/contrast";
import { reducePoints, REDUCERS, type Reducer } from "@/components/charts/statReduce";
import { thresholdColor, type ThresholdStep } from "@/components/charts/thresholds";
import { formatValue } from "@/components/charts/units";
import { useColorScheme } from "@/lib/useColorScheme";
import type { ChartSeries } from "./toLineSeriesOption";

export interface SeriesValueTableProps {
  series: ChartSeries[];
  reducer: Reducer;
  unit?: string;
  decimals?: number | null;
  thresholds?: readonly ThresholdStep[];
  /** Names the scrolling box (a focusable region, so the keyboard can scroll it). */
  label?: string;
}

/** A table panel with `reduce` set: one row per series with its reduced value. */
export function SeriesValueTable({
  series,
  reducer,
  unit,
  decimals,
  thresholds,
  label = "Values",
}: SeriesValueTableProps): ReactElement {
  const heading = REDUCERS.find((r) => r.value === reducer)?.label ?? reducer;
  const coloured = (thresholds?.length ?? 0) > 0;
  const scheme = useColorScheme();
  const background = useMemo(() => surfaceColor(scheme), [scheme]);
  // the threshold's colour, in a shade that reads as text on the card (4.5:1)
  const textColor = (v: number | undefined): string | undefined => {
    const c = thresholdColor(v, thresholds);
    return c ? readableColor(c, background) : undefined;
  };
  return (
    <div className="result-tables" role="region" aria-label={label} tabIndex={0}>
      <table className="data-table" data-testid="series-value-table">
        <thead>
          <tr>
            <th scope="col">Series</th>
            <th scope="col">{heading}</th>
          </tr>
        </thead>
        <tbody>
          {series.map((s, i) => {
            const v = reducePoints(s.points, reducer);
            return (
              <tr key={`${i}:${s.name}`}>
                <td>{s.name}</td>
                <td style={coloured ? { color: textColor(v) } : undefined}>{formatValue(v, unit, decimals)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
