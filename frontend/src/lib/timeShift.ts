import { parseDuration } from "./time";

/**
 * Compare with the past: a dashboard's panels can also draw each series as it was `shift`
 * ago (`1d`, `1w`, …), moved forward onto the current time axis. A dashboard may save a
 * default shift (`spec.time_shift`); the URL's `compare` overrides it (`compare=1d`, or
 * `compare=off` for none) so a shared link shows the same comparison.
 */

export const TIME_SHIFT_PRESETS: { value: string; label: string }[] = [
  { value: "1h", label: "vs 1 hour ago" },
  { value: "1d", label: "vs 1 day ago" },
  { value: "1w", label: "vs 1 week ago" },
  { value: "4w", label: "vs 4 weeks ago" },
];

/** The longest shift accepted: a year. */
export const MAX_TIME_SHIFT_MS = 365 * 86_400_000;

/** `1d` → 86 400 000; undefined for an empty, malformed, zero or over-a-year shift. */
export function parseTimeShift(text: string | null | undefined): number | undefined {
  if (!text) return undefined;
  const ms = parseDuration(text.trim());
  if (ms === undefined || ms <= 0 || ms > MAX_TIME_SHIFT_MS) return undefined;
  return ms;
}

/** The `compare` value that switches a dashboard's saved default comparison off. */
export const NO_TIME_SHIFT = "off";

function validShift(text: string | null | undefined): string {
  return text && parseTimeShift(text) !== undefined ? text.trim() : "";
}

/**
 * The comparison in effect ("" = none): the URL's `compare` when it is `off` or a valid
 * shift, else the dashboard's saved default. A malformed `compare` is ignored.
 */
export function effectiveTimeShift(param: string | null, saved: string | null | undefined): string {
  if (param !== null && param.trim() === NO_TIME_SHIFT) return "";
  return validShift(param) || validShift(saved);
}

/**
 * The `compare` parameter that shows `shift` ("" = none) on a dashboard whose saved default
 * is `saved`: null (no parameter) when the default already gives it, `off` to switch a
 * default off, else the shift itself.
 */
export function timeShiftParam(shift: string, saved: string | null | undefined): string | null {
  const wanted = validShift(shift);
  if (wanted === validShift(saved)) return null;
  return wanted || NO_TIME_SHIFT;
}

/** Why a custom shift is refused, or undefined when it is fine. */
export function timeShiftError(text: string): string | undefined {
  if (!text.trim()) return "Enter a duration such as 2d or 12h.";
  const ms = parseDuration(text.trim());
  if (ms === undefined) return `"${text}" is not a duration; use a number and a unit (s, m, h, d, w), e.g. 2d.`;
  if (ms <= 0) return "The shift must be longer than zero.";
  if (ms > MAX_TIME_SHIFT_MS) return "The shift can be at most a year (365d).";
  return undefined;
}

/** The range to query for the past series: both ends moved back by `shiftMs`. */
export function shiftRange(range: readonly [number, number], shiftMs: number): [number, number] {
  return [range[0] - shiftMs, range[1] - shiftMs];
}

/** Moves past points forward by `shiftMs` so they line up with the current range. */
export function shiftPoints<T extends readonly [number, ...unknown[]]>(points: readonly T[], shiftMs: number): T[] {
  return points.map((p) => [p[0] + shiftMs, ...p.slice(1)] as unknown as T);
}

/** The legend suffix of past series: `1d ago`. */
export function timeShiftSuffix(shift: string): string {
  return `${shift.trim()} ago`;
}

/** The label of a shift in the picker: the preset's, or `vs 36h ago` for a custom one. */
export function timeShiftLabel(shift: string): string {
  return TIME_SHIFT_PRESETS.find((p) => p.value === shift)?.label ?? `vs ${timeShiftSuffix(shift)}`;
}
