import { useMemo, type CSSProperties, type ReactElement } from "react";
import { useColorScheme } from "@/lib/useColorScheme";
import { readableColor, surfaceColor } from "./contrast";
import "./StatChart.css";
import { sparklinePath } from "./statReduce";
import { BASE_COLOR, thresholdColor, type ThresholdStep } from "./thresholds";
import { formatValue } from "./units";

export interface StatItem {
  name: string;
  /** The reduced value; undefined when the series had no values. */
  value: number | undefined;
  /** The series the value came from, for the sparkline. */
  points: readonly (readonly [number, number | null])[];
}

export interface StatChartProps {
  items: StatItem[];
  unit?: string;
  decimals?: number | null;
  thresholds?: readonly ThresholdStep[];
  sparkline?: boolean;
  /** Accessible name of the group of values. */
  label: string;
  testId?: string;
  /** Size of the area; the numbers scale with it. Fills its parent by default. */
  style?: CSSProperties;
}

const SPARK_W = 160;
const SPARK_H = 36;

/**
 * Big numbers, one tile per series: the value in its unit, coloured by the thresholds,
 * with an optional sparkline of the series underneath.
 */
export function StatChart({
  items,
  unit = "none",
  decimals,
  thresholds,
  sparkline = true,
  label,
  testId = "stat",
  style,
}: StatChartProps): ReactElement {
  const hasThresholds = (thresholds?.length ?? 0) > 0;
  const scheme = useColorScheme();
  const background = useMemo(() => surfaceColor(scheme), [scheme]);
  return (
    <div className="stat-values" role="group" aria-label={label} data-testid={testId} style={style}>
      {items.map((item, i) => {
        const text = formatValue(item.value, unit, decimals);
        const color = hasThresholds ? (thresholdColor(item.value, thresholds) ?? BASE_COLOR) : undefined;
        const path = sparkline ? sparklinePath(item.points, SPARK_W, SPARK_H) : "";
        return (
          // The series' name comes first, so it is read before its value ("web-01 95%"); the
          // stylesheet shows the value above it. Two series can share a name (a legend format
          // that leaves them alike): the key tells them apart by their place.
          <div key={`${i}:${item.name}`} className="stat" data-testid="stat-item">
            {item.name ? <span className="muted small stat-name">{item.name}</span> : null}
            {/* the threshold's colour in a shade that reads on the card (3:1, large text) */}
            <span
              className="stat-value"
              style={color ? { color: readableColor(color, background, 3) } : undefined}
              data-color={color ?? ""}
            >
              {text}
            </span>
            {path ? (
              <svg
                className="stat-sparkline"
                viewBox={`0 0 ${SPARK_W} ${SPARK_H}`}
                preserveAspectRatio="none"
                aria-hidden="true"
                data-testid="stat-sparkline"
              >
                <path
                  d={path}
                  fill="none"
                  stroke={color ?? "var(--accent)"}
                  strokeWidth={1.5}
                  vectorEffect="non-scaling-stroke"
                />
              </svg>
            ) : null}
          </div>
        );
      })}
    </div>
  );
}
