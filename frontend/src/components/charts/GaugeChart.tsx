import { useMemo, type CSSProperties, type ReactElement } from "react";
import { useColorScheme } from "@/lib/useColorScheme";
import { readableColor, surfaceColor } from "./contrast";
import { arcPath, dialBands, dialFraction, gaugeRange } from "./gauge";
import "./GaugeChart.css";
import { BASE_COLOR, thresholdColor, type ThresholdStep } from "./thresholds";
import { formatValue } from "./units";

export interface GaugeItem {
  name: string;
  /** The reduced value; undefined when the series had no values. */
  value: number | undefined;
}

export interface GaugeChartProps {
  items: readonly GaugeItem[];
  unit?: string;
  decimals?: number | null;
  thresholds?: readonly ThresholdStep[];
  /** The dial's start (0 by default) and end (by the unit, else the largest value rounded up). */
  min?: number | null;
  max?: number | null;
  /** Accessible name of the group of dials. */
  label: string;
  testId?: string;
  style?: CSSProperties;
}

// the dial in a 100 × 84 box: centre (50, 50), the value's arc at radius 36, thresholds outside
const CX = 50;
const CY = 50;
const R = 36;
const BAND_R = 45;

/**
 * One dial per series: the value's arc from the start of the range, in its threshold's
 * colour, over the thresholds drawn as bands around the dial; the value in the middle and
 * the series' name under it. Each dial is a `meter` for assistive technology.
 */
export function GaugeChart({
  items,
  unit = "none",
  decimals,
  thresholds,
  min,
  max,
  label,
  testId = "gauge",
  style,
}: GaugeChartProps): ReactElement {
  const range = useMemo(() => gaugeRange(items.map((i) => i.value), unit, min, max), [items, unit, min, max]);
  const hasThresholds = (thresholds?.length ?? 0) > 0;
  const bands = useMemo(
    () => (hasThresholds ? dialBands(thresholds, range.min, range.max) : []),
    [hasThresholds, thresholds, range],
  );
  const scheme = useColorScheme();
  const background = useMemo(() => surfaceColor(scheme), [scheme]);
  const ends = `${formatValue(range.min, unit, decimals)} to ${formatValue(range.max, unit, decimals)}`;
  return (
    <div
      className="gauge-values"
      role="group"
      aria-label={label}
      data-testid={testId}
      data-min={range.min}
      data-max={range.max}
      style={style}
    >
      {items.map((item, i) => {
        const text = formatValue(item.value, unit, decimals);
        const color = hasThresholds ? (thresholdColor(item.value, thresholds) ?? BASE_COLOR) : undefined;
        const known = item.value !== undefined && Number.isFinite(item.value);
        const fraction = known ? dialFraction(item.value as number, range.min, range.max) : 0;
        const name = item.name || "value";
        return (
          // Two series can share a name (a legend format that leaves them alike): the key
          // tells them apart by their place.
          <div
            key={`${i}:${item.name}`}
            className="gauge"
            data-testid="gauge-item"
            data-color={color ?? ""}
            {...(known
              ? {
                  role: "meter",
                  "aria-label": name,
                  "aria-valuemin": range.min,
                  "aria-valuemax": range.max,
                  "aria-valuenow": item.value,
                  "aria-valuetext": `${text} (${ends})`,
                }
              : { role: "img", "aria-label": `${name}: no value` })}
          >
            <svg className="gauge-dial" viewBox="0 0 100 84" aria-hidden="true">
              {bands.map((b) => (
                <path key={`${b.from}-${b.color}`} d={arcPath(CX, CY, BAND_R, b.from, b.to)} stroke={b.color} className="gauge-band" />
              ))}
              <path d={arcPath(CX, CY, R, 0, 1)} className="gauge-track" />
              {fraction > 0 ? (
                <path
                  d={arcPath(CX, CY, R, 0, fraction)}
                  className="gauge-value-arc"
                  stroke={color ?? "var(--accent)"}
                  data-testid="gauge-arc"
                />
              ) : null}
              {/* the threshold's colour in a shade that reads on the card (3:1, large text) */}
              <text
                x={CX}
                y={CY + 4}
                className="gauge-text"
                fill={color ? readableColor(color, background, 3) : "currentColor"}
                textLength={text.length > 7 ? 56 : undefined}
                lengthAdjust="spacingAndGlyphs"
              >
                {text}
              </text>
            </svg>
            <span className="muted small gauge-name">{item.name}</span>
          </div>
        );
      })}
    </div>
  );
}
