/**
 * Thresholds colour a value by the highest step it reached, Grafana style: below every
 * step the value has the base colour; from a step's value up it has that step's colour.
 */

export interface ThresholdStep {
  value: number;
  color: string;
}

/** Colour of values below the first step. */
export const BASE_COLOR = "#3ba272";

/** Steps in ascending order of value (the schema does not require an order). */
export function sortThresholds(steps: readonly ThresholdStep[] | undefined): ThresholdStep[] {
  return [...(steps ?? [])].sort((a, b) => a.value - b.value);
}

/** The colour `value` takes; `undefined` for a missing value. */
export function thresholdColor(
  value: number | null | undefined,
  steps: readonly ThresholdStep[] | undefined,
  base: string = BASE_COLOR,
): string | undefined {
  if (value === null || value === undefined || Number.isNaN(value)) return undefined;
  let color = base;
  for (const s of sortThresholds(steps)) {
    if (value >= s.value) color = s.color;
    else break;
  }
  return color;
}

/**
 * The bands thresholds draw on a chart: from each step's value to the next step's (the last
 * band reaches `top`, the chart's highest value, when that is above it).
 */
export function thresholdBands(
  steps: readonly ThresholdStep[] | undefined,
  top: number,
): { from: number; to: number; color: string }[] {
  const sorted = sortThresholds(steps);
  return sorted.flatMap((s, i) => {
    const to = i + 1 < sorted.length ? sorted[i + 1].value : Math.max(top, s.value);
    return to > s.value ? [{ from: s.value, to, color: s.color }] : [];
  });
}
