import type { Language, RecordingRule, RecordingRuleCreate, RecordingRuleUpdate } from "./api";
import { readDuration, secondsText } from "./monitorForm";

/** A recording rule as typed: a query written back as a measurement every interval. */
export interface RecordingRuleDraft {
  name: string;
  language: Language;
  query: string;
  interval: string;
  window: string;
  measurement: string;
  /** "" = each value column's name (DQL), `value` (PromQL). */
  field: string;
  enabled: boolean;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,199}$/;

export function newRecordingRuleDraft(): RecordingRuleDraft {
  return { name: "", language: "dql", query: "", interval: "1m", window: "1m", measurement: "", field: "", enabled: true };
}

export function recordingRuleDraft(r: RecordingRule): RecordingRuleDraft {
  return {
    name: r.name,
    language: r.language ?? "dql",
    query: r.query,
    interval: secondsText(r.interval_seconds ?? 60),
    window: secondsText(r.window_seconds ?? 60),
    measurement: r.measurement,
    field: r.field ?? "",
    enabled: r.enabled ?? true,
  };
}

export type RecordingRuleErrors = Partial<Record<string, string>>;

/** Checks the form; a new rule becomes a create request, an existing one its changed fields. */
export function toRecordingRuleRequest(
  draft: RecordingRuleDraft,
  existing?: RecordingRule,
  minIntervalSeconds = 1,
): { create?: RecordingRuleCreate; update?: RecordingRuleUpdate; errors: RecordingRuleErrors } {
  const errors: RecordingRuleErrors = {};
  const name = draft.name.trim();
  if (name === "") errors.name = "Name the rule.";
  if (draft.query.trim() === "") errors.query = "Write the query whose result is recorded.";
  const interval = readDuration(draft.interval, { label: "Interval", min: 1, max: 86_400 });
  if (interval.error) errors.interval_seconds = interval.error;
  else if ((interval.seconds ?? 0) < minIntervalSeconds) {
    errors.interval_seconds = `Interval must be at least ${secondsText(minIntervalSeconds)} (this workspace's limit).`;
  }
  const window = readDuration(draft.window, { label: "Window", min: 1, max: 7 * 86_400 });
  if (window.error) errors.window_seconds = window.error;
  const measurement = draft.measurement.trim();
  if (!NAME.test(measurement)) {
    errors.measurement = "A measurement name starts with a letter or _ and has letters, digits, _ . or - (at most 200).";
  }
  const field = draft.field.trim();
  if (field !== "" && !NAME.test(field)) errors.field = "A field name starts with a letter or _ and has letters, digits, _ . or -.";
  if (Object.keys(errors).length > 0) return { errors };
  const body: RecordingRuleCreate = {
    name,
    language: draft.language,
    query: draft.query,
    interval_seconds: interval.seconds,
    window_seconds: window.seconds,
    measurement,
    field: field === "" ? null : field,
    enabled: draft.enabled,
  };
  if (!existing) return { create: body, errors };
  const update: RecordingRuleUpdate = {};
  for (const key of Object.keys(body) as (keyof RecordingRuleCreate)[]) {
    const before = key === "field" ? (existing.field ?? null) : existing[key];
    if (before !== body[key]) (update as Record<string, unknown>)[key] = body[key];
  }
  return { update, errors };
}
