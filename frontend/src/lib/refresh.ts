import { parseDuration } from "./time";

/**
 * Auto refresh, the same in Explore and on dashboards: the page runs its queries again every
 * `refresh` (`30s`, `5m` …), the relative time range moving forward each time. The URL's
 * `refresh` parameter holds it (`refresh=10s`) so a shared link refreshes the same way. A
 * dashboard may save a default (`spec.refresh`), which the URL overrides (`refresh=off` for
 * none); Explore has no default, so there no parameter means off.
 */

export const REFRESH_PRESETS: { value: string; label: string }[] = [
  { value: "5s", label: "5s" },
  { value: "10s", label: "10s" },
  { value: "30s", label: "30s" },
  { value: "1m", label: "1m" },
  { value: "5m", label: "5m" },
  { value: "15m", label: "15m" },
  { value: "30m", label: "30m" },
  { value: "1h", label: "1h" },
];

/** The `refresh` value that switches a dashboard's saved auto refresh off. */
export const NO_REFRESH = "off";

/** Panels are not asked more often than this, whatever a link or a saved dashboard says. */
export const MIN_REFRESH_MS = 5_000;

/** What the schema accepts for `spec.refresh`: a whole number of seconds, minutes or hours. */
const REFRESH_FORMAT = /^[0-9]+(s|m|h)$/;

/** `30s` → 30 000; undefined for an empty, malformed or zero interval. Short ones are raised to 5 s. */
export function parseRefresh(text: string | null | undefined): number | undefined {
  const v = text?.trim();
  if (!v || !REFRESH_FORMAT.test(v)) return undefined;
  const ms = parseDuration(v);
  if (ms === undefined || ms <= 0) return undefined;
  return Math.max(ms, MIN_REFRESH_MS);
}

function validRefresh(text: string | null | undefined): string {
  return parseRefresh(text) !== undefined ? (text ?? "").trim() : "";
}

/**
 * The auto refresh in effect ("" = off): the URL's `refresh` when it is `off` or a valid
 * interval, else the dashboard's saved default. A malformed `refresh` is ignored.
 */
export function effectiveRefresh(param: string | null, saved: string | null | undefined): string {
  if (param !== null && param.trim() === NO_REFRESH) return "";
  return validRefresh(fromMilliseconds(param)) || validRefresh(saved);
}

/**
 * Explore's links used to give the interval in milliseconds (`refresh=10000`): such a value is
 * read as the interval it meant (`10s`), so that those links keep refreshing.
 */
function fromMilliseconds(param: string | null): string | null {
  const v = param?.trim();
  if (!v || !/^[0-9]+$/.test(v)) return param;
  const ms = Number(v);
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  return ms % 1000 === 0 ? `${ms / 1000}s` : param;
}

/**
 * The `refresh` parameter that gives `refresh` ("" = off) on a dashboard whose saved default
 * is `saved`: null (no parameter) when the default already gives it, `off` to switch a default
 * off, else the interval itself.
 */
export function refreshParam(refresh: string, saved: string | null | undefined): string | null {
  const wanted = validRefresh(refresh);
  if (wanted === validRefresh(saved)) return null;
  return wanted || NO_REFRESH;
}

/** The choices of a refresh menu showing `current`: the presets, plus `current` when it is another interval. */
export function refreshChoices(current: string): { value: string; label: string }[] {
  const v = validRefresh(current);
  if (!v || REFRESH_PRESETS.some((p) => p.value === v)) return REFRESH_PRESETS;
  return [...REFRESH_PRESETS, { value: v, label: v }].sort((a, b) => (parseRefresh(a.value) ?? 0) - (parseRefresh(b.value) ?? 0));
}
