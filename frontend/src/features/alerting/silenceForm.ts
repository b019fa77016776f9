import { formatDateTime, fromZoneInput, localTimeZone, toZoneInput } from "@/lib/time";
import type { Matcher, Silence, SilenceCreate } from "./api";
import { readDuration, secondsText } from "./monitorForm";

/*
 * The silence form: a monitor and/or tag matchers, and when — once (start and end, read in a
 * chosen time zone) or every week (weekdays, a start time, a duration, in a time zone).
 */

export type MatcherOp = Matcher["op"] & string;
export const MATCHER_OPS: readonly { value: MatcherOp; label: string }[] = [
  { value: "=", label: "= equals" },
  { value: "!=", label: "!= differs" },
  { value: "=~", label: "=~ matches regex" },
  { value: "!~", label: "!~ does not match" },
];

/** Monday first, as the API numbers them (0 = Monday). */
export const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"] as const;

export interface MatcherDraft {
  label: string;
  op: MatcherOp;
  value: string;
}

export interface SilenceDraft {
  comment: string;
  /** "" = every monitor (then a matcher is needed). */
  monitorId: string;
  matchers: MatcherDraft[];
  mode: "once" | "weekly";
  /** datetime-local values read in `timeZone`; an empty start is now. */
  startsAt: string;
  endsAt: string;
  timeZone: string;
  weekdays: number[];
  /** HH:MM */
  startTime: string;
  duration: string;
  /** Weekly: the last moment it applies (datetime-local, optional). */
  until: string;
}

export interface SilencePrefill {
  monitorId?: string;
  tags?: Record<string, string>;
  now?: number;
  timeZone?: string;
}

/** A new silence: from now for 2 hours, or prefilled with a monitor and a group's tags. */
export function newSilenceDraft({ monitorId = "", tags = {}, now = Date.now(), timeZone = localTimeZone() }: SilencePrefill = {}): SilenceDraft {
  return {
    comment: "",
    monitorId,
    matchers: Object.keys(tags)
      .filter((k) => !k.startsWith("__"))
      .sort()
      .map((label) => ({ label, op: "=", value: tags[label] })),
    mode: "once",
    startsAt: "",
    endsAt: toZoneInput(now + 2 * 3_600_000, timeZone),
    timeZone,
    weekdays: [5],
    startTime: "02:00",
    duration: "2h",
    until: "",
  };
}

/** Whether `pattern` compiles as a regular expression (the server's check is the last word). */
export function regexError(pattern: string): string | undefined {
  try {
    new RegExp(pattern);
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : "invalid";
  }
}

/** Every IANA zone the browser knows, UTC first. */
export function timeZones(): string[] {
  const all = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return ["UTC", ...all.filter((z) => z !== "UTC")];
}

export type SilenceErrors = Partial<Record<string, string>>;

/** Checks the form and builds the request; times are sent in UTC with their zone resolved. */
export function toSilenceRequest(draft: SilenceDraft, now: number = Date.now()): { body?: SilenceCreate; errors: SilenceErrors } {
  const errors: SilenceErrors = {};
  const comment = draft.comment.trim();
  if (comment === "") errors.comment = "Say why (a comment is required): the people who see the silence read it.";
  else if (comment.length > 500) errors.comment = "The comment must be at most 500 characters.";

  const matchers: Matcher[] = [];
  draft.matchers.forEach((m, i) => {
    const label = m.label.trim();
    if (label === "" && m.value === "") return; // an empty row is left out
    if (label === "") errors[`matchers.${i}.label`] = "Name the tag.";
    if ((m.op === "=~" || m.op === "!~") && regexError(m.value)) {
      errors[`matchers.${i}.value`] = `Not a regular expression: ${regexError(m.value)}`;
    }
    matchers.push({ label, op: m.op, value: m.value });
  });
  if (!draft.monitorId && matchers.length === 0) {
    errors.matchers = "Choose a monitor or add a tag matcher: a silence of everything is not allowed.";
  }
  if (draft.timeZone.trim() === "") errors.timezone = "Choose a time zone.";

  const body: SilenceCreate = { comment, monitor_id: draft.monitorId || null, matchers };
  if (draft.mode === "once") {
    const start = draft.startsAt === "" ? now : fromZoneInput(draft.startsAt, draft.timeZone);
    const end = fromZoneInput(draft.endsAt, draft.timeZone);
    if (start === undefined) errors.starts_at = "Pick when it starts, or leave it empty for now.";
    if (end === undefined) errors.ends_at = "Pick when it ends.";
    else if (end <= now) errors.ends_at = "It must end in the future.";
    else if (start !== undefined && end <= start) errors.ends_at = "It must end after it starts.";
    if (start !== undefined && draft.startsAt !== "") body.starts_at = new Date(start).toISOString();
    if (end !== undefined) body.ends_at = new Date(end).toISOString();
  } else {
    if (draft.weekdays.length === 0) errors.weekdays = "Pick at least one day.";
    if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(draft.startTime)) errors.start = "Write the start time as HH:MM (24 h).";
    const d = readDuration(draft.duration, { label: "Duration", min: 60, max: 7 * 86_400, minutes: true });
    if (d.error) errors.duration = d.error;
    body.recurrence = {
      weekdays: [...new Set(draft.weekdays)].sort((a, b) => a - b),
      start: draft.startTime,
      duration_minutes: (d.seconds ?? 0) / 60,
      timezone: draft.timeZone,
    };
    if (draft.until !== "") {
      const until = fromZoneInput(draft.until, draft.timeZone);
      if (until === undefined || until <= now) errors.until = "Pick a moment in the future, or leave it empty for no end.";
      else body.ends_at = new Date(until).toISOString();
    }
  }
  return Object.keys(errors).length > 0 ? { errors } : { body, errors };
}

/** `host = web-1, env =~ prod.*` */
export function describeMatchers(matchers: readonly Matcher[]): string {
  return matchers.map((m) => `${m.label} ${m.op ?? "="} ${m.value}`).join(", ");
}

/** When a silence applies, for the list: once (from → to) or weekly (days, time, length, zone). */
export function describeSchedule(s: Pick<Silence, "starts_at" | "ends_at" | "recurrence">, timeZone = localTimeZone()): string {
  if (s.recurrence) {
    const r = s.recurrence;
    const days = r.weekdays.map((d) => WEEKDAYS[d] ?? String(d)).join(", ");
    const until = s.ends_at ? `, until ${formatDateTime(Date.parse(s.ends_at), timeZone, false)}` : "";
    return `Every ${days} at ${r.start} for ${secondsText(r.duration_minutes * 60)} (${r.timezone ?? "UTC"})${until}`;
  }
  const from = formatDateTime(Date.parse(s.starts_at), timeZone, false);
  const to = s.ends_at ? formatDateTime(Date.parse(s.ends_at), timeZone, false) : "no end";
  return `${from} → ${to}`;
}
