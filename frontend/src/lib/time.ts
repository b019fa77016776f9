/**
 * Time ranges as the URL carries them: `from`/`to` are either `now`, `now-<duration>` or an
 * epoch in milliseconds. Durations use DQL units (`s m h d w`), e.g. `now-15m`, `now-7d`.
 */

export interface TimeRangeSpec {
  from: string;
  to: string;
}

const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
};

/** Parses `90s`, `15m`, `1h30m`, `7d` into milliseconds; undefined when malformed. */
export function parseDuration(text: string): number | undefined {
  const re = /(\d+)(ms|s|m|h|d|w)/gy;
  let total = 0;
  let matched = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    total += Number(m[1]) * UNIT_MS[m[2]];
    matched = re.lastIndex;
  }
  if (matched === 0 || matched !== text.length) return undefined;
  return total;
}

/** Resolves one end of a range to epoch ms; undefined when it is not understood. */
export function resolveTimePoint(value: string, now: number): number | undefined {
  const v = value.trim();
  if (v === "now") return now;
  if (v.startsWith("now-")) {
    const d = parseDuration(v.slice(4));
    return d === undefined ? undefined : now - d;
  }
  if (/^\d{10,14}$/.test(v)) return Number(v);
  return undefined;
}

export class TimeRangeError extends Error {}

/** Resolves a range to `[start, end]` epoch ms, refusing inverted or unreadable ranges. */
export function resolveTimeRange(spec: TimeRangeSpec, now: number = Date.now()): [number, number] {
  const start = resolveTimePoint(spec.from, now);
  const end = resolveTimePoint(spec.to, now);
  if (start === undefined) throw new TimeRangeError(`Start time "${spec.from}" is not understood.`);
  if (end === undefined) throw new TimeRangeError(`End time "${spec.to}" is not understood.`);
  if (start >= end) throw new TimeRangeError("The start of the time range must be before its end.");
  return [start, end];
}

export const RELATIVE_RANGES: { label: string; from: string }[] = [
  { label: "Last 5 minutes", from: "now-5m" },
  { label: "Last 15 minutes", from: "now-15m" },
  { label: "Last 30 minutes", from: "now-30m" },
  { label: "Last 1 hour", from: "now-1h" },
  { label: "Last 3 hours", from: "now-3h" },
  { label: "Last 6 hours", from: "now-6h" },
  { label: "Last 12 hours", from: "now-12h" },
  { label: "Last 24 hours", from: "now-24h" },
  { label: "Last 2 days", from: "now-2d" },
  { label: "Last 7 days", from: "now-7d" },
  { label: "Last 30 days", from: "now-30d" },
];

export const DEFAULT_TIME_RANGE: TimeRangeSpec = { from: "now-15m", to: "now" };

/** `2h`, `90m`, `45s`: `ms` in the largest of `d h m s` that divides it exactly (else `ms`). */
export function formatDuration(ms: number): string {
  for (const unit of ["d", "h", "m", "s"] as const) {
    if (ms >= UNIT_MS[unit] && ms % UNIT_MS[unit] === 0) return `${ms / UNIT_MS[unit]}${unit}`;
  }
  return `${Math.round(ms)}ms`;
}

/** A range over `[start, end]` ms: `now-<length>` → `now` when it ends now, epoch ms otherwise. */
function rangeOf(start: number, end: number, now: number): TimeRangeSpec {
  if (end >= now) return { from: `now-${formatDuration(now - start)}`, to: "now" };
  return { from: String(Math.round(start)), to: String(Math.round(end)) };
}

/**
 * The range moved by half its length, earlier (`-1`) or later (`1`). A later one stops at now
 * and then follows it again (`now-1h` → `now`); undefined when it already ends now (or later).
 */
export function shiftTimeRange(spec: TimeRangeSpec, direction: -1 | 1, now: number = Date.now()): TimeRangeSpec | undefined {
  const [start, end] = resolveTimeRange(spec, now);
  const length = end - start;
  if (direction === -1) return { from: String(Math.round(start - length / 2)), to: String(Math.round(end - length / 2)) };
  if (end >= now) return undefined;
  // within a twentieth of the range of now (Earlier, then Later a moment after) is now
  let later = end + length / 2;
  if (later >= now - Math.max(1_000, length / 20)) later = now;
  return rangeOf(later - length, later, now);
}

/**
 * The range twice as long around its middle. One that would then reach past now ends now,
 * still twice as long (`now-1h` → `now` becomes `now-2h` → `now`).
 */
export function zoomOutTimeRange(spec: TimeRangeSpec, now: number = Date.now()): TimeRangeSpec {
  const [start, end] = resolveTimeRange(spec, now);
  const length = end - start;
  if (end + length / 2 >= now) return rangeOf(now - 2 * length, now, now);
  return rangeOf(start - length / 2, end + length / 2, now);
}

// The first Intl date formatter a page creates costs 30–50 ms (ICU's data and pattern set-up),
// on the way to every chart's first frame. Times in the browser's own zone, which is what charts
// and pickers show, are formatted from Date's local fields instead; Intl is used for other zones.
let cachedZone: string | undefined;

interface TemporalNow {
  Now: { timeZoneId(): string };
}

/** The browser's IANA zone, e.g. `Europe/Paris` (`UTC` when unknown). */
export function localTimeZone(): string {
  if (cachedZone === undefined) {
    const temporal = (globalThis as { Temporal?: TemporalNow }).Temporal;
    cachedZone = temporal?.Now.timeZoneId() || Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  }
  return cachedZone;
}

// Intl.DateTimeFormat construction is slow (tens of µs); one formatter per zone and precision.
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

function dateTimeFormat(timeZone: string, withSeconds: boolean): Intl.DateTimeFormat {
  const key = `${timeZone}|${withSeconds ? "s" : "m"}`;
  let f = dateTimeFormats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: withSeconds ? "2-digit" : undefined,
      hourCycle: "h23",
    });
    dateTimeFormats.set(key, f);
  }
  return f;
}

const pad2 = (n: number): string => String(n).padStart(2, "0");

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** `UTC+01:00` style offset of `timeZone` at `at`. */
export function utcOffsetLabel(timeZone: string, at: number = Date.now()): string {
  if (timeZone === localTimeZone()) {
    const east = -new Date(at).getTimezoneOffset();
    const abs = Math.abs(east);
    return `UTC${east < 0 ? "-" : "+"}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`;
  }
  let f = offsetFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" });
    offsetFormats.set(timeZone, f);
  }
  const parts = f.formatToParts(at);
  const name = parts.find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  const offset = name.replace(/^GMT/, "");
  return `UTC${offset === "" ? "+00:00" : offset}`;
}

/** `Europe/Paris (UTC+01:00)` — what the UI shows next to every time axis. */
export function timeZoneLabel(timeZone: string = localTimeZone(), at: number = Date.now()): string {
  return `${timeZone} (${utcOffsetLabel(timeZone, at)})`;
}

/** A human label for a range spec: the preset name, or both ends formatted in `timeZone`. */
export function describeTimeRange(spec: TimeRangeSpec, timeZone: string = localTimeZone()): string {
  if (spec.to === "now") {
    const preset = RELATIVE_RANGES.find((r) => r.from === spec.from);
    if (preset) return preset.label;
    if (spec.from.startsWith("now-")) return `Last ${spec.from.slice(4)}`;
  }
  const fmt = (v: string): string => {
    const t = resolveTimePoint(v, Date.now());
    return t === undefined ? v : formatDateTime(t, timeZone);
  };
  return `${fmt(spec.from)} → ${fmt(spec.to)}`;
}

/** `2026-11-21 06:05:00` in `timeZone`. */
export function formatDateTime(ms: number, timeZone: string = localTimeZone(), withSeconds = true): string {
  if (timeZone === localTimeZone()) {
    const d = new Date(ms);
    const time = `${pad2(d.getHours())}:${pad2(d.getMinutes())}${withSeconds ? `:${pad2(d.getSeconds())}` : ""}`;
    return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${time}`;
  }
  const parts = dateTimeFormat(timeZone, withSeconds).formatToParts(ms);
  const get = (t: string): string => parts.find((p) => p.type === t)?.value ?? "";
  const time = `${get("hour")}:${get("minute")}${withSeconds ? `:${get("second")}` : ""}`;
  return `${get("year")}-${get("month")}-${get("day")} ${time}`;
}

/** Formats an axis tick: time only within a day, date and time for longer spans. */
export function formatAxisTime(ms: number, spanMs: number, timeZone: string = localTimeZone()): string {
  const full = formatDateTime(ms, timeZone, spanMs < 10 * 60_000);
  return spanMs <= 86_400_000 ? full.slice(11) : full.slice(5, 16);
}

/** Offset of `timeZone` from UTC at `t`, in ms (what to add to `t` to read its wall clock as UTC). */
export function zoneOffsetMs(t: number, timeZone: string): number {
  const s = formatDateTime(t, timeZone, true);
  const wall = Date.UTC(+s.slice(0, 4), +s.slice(5, 7) - 1, +s.slice(8, 10), +s.slice(11, 13), +s.slice(14, 16), +s.slice(17, 19));
  return wall - (t - (((t % 1000) + 1000) % 1000));
}

/** `2026-11-21T06:00` (a datetime-local field's value) for `ms` in `timeZone`. */
export function toZoneInput(ms: number, timeZone: string = localTimeZone()): string {
  return formatDateTime(ms, timeZone, false).replace(" ", "T");
}

/** A datetime-local field's `2026-11-21T06:00`, read as a wall clock in `timeZone` → epoch ms. */
export function fromZoneInput(value: string, timeZone: string = localTimeZone()): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!m) return undefined;
  const wall = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +(m[6] ?? 0));
  // the offset at the wall clock read as UTC, then again at the instant found (a change of
  // offset, such as summer time, between the two)
  let t = wall - zoneOffsetMs(wall, timeZone);
  t = wall - zoneOffsetMs(t, timeZone);
  return Number.isFinite(t) ? t : undefined;
}

