import { formatDuration, parseDuration } from "@/lib/time";
import type { Language, Monitor, MonitorCreate, MonitorUpdate, PreviewRequest, Reducer, Severity } from "./api";
import { checkConditions, conditionDrafts, defaultConditionDrafts, type ConditionDraft } from "./conditions";
import { SEVERITIES } from "./severity";

/*
 * The monitor editor's form: what is typed (durations as `5m`, thresholds as text), checked
 * field by field as the backend would, and turned into the API's request. Field keys are the
 * API's (`interval_seconds`, `no_data.after_seconds`), so a 422 from the server lands on the
 * same field as a check made here.
 */

export type NoDataAction = "keep" | "alert" | "resolve";
export type ChangeMode = "percent" | "absolute";

export interface MonitorDraft {
  name: string;
  description: string;
  enabled: boolean;
  language: Language;
  query: string;
  interval: string;
  window: string;
  reducer: Reducer;
  conditions: ConditionDraft[];
  changeOn: boolean;
  changeCompare: string;
  changeMode: ChangeMode;
  forDuration: string;
  groupGrace: string;
  newGroupDelay: string;
  noDataAction: NoDataAction;
  noDataAfter: string;
  noDataSeverity: Severity;
  routes: Record<Severity, string[]>;
  /** "" = never tell again while firing. */
  renotify: string;
  notifyResolved: boolean;
  title: string;
  message: string;
  runbookUrl: string;
}

/** The backend's templates when none is given (app/alerting/templates.py). */
export const DEFAULT_TITLE = "[{{severity}}] {{monitor}} is {{status}}";
export const DEFAULT_MESSAGE = "{{monitor}} is {{status}} for {{tags}}: the value is {{value}} ({{condition}}).";

/** What a template may use besides the group's own tags (`{{host}}`). */
export const TEMPLATE_VARIABLES: readonly { name: string; description: string }[] = [
  { name: "monitor", description: "the monitor's name" },
  { name: "status", description: "firing, resolved or nodata" },
  { name: "severity", description: "critical, error, warning or info" },
  { name: "value", description: "the value that caused it" },
  { name: "condition", description: "the condition that holds, e.g. > 90" },
  { name: "query", description: "the monitor's query" },
  { name: "time", description: "when, in ISO 8601 (UTC)" },
  { name: "tags", description: "the group's tags: host=web-1, region=eu" },
  { name: "url", description: "the alert's page in Vigil" },
];

const DAY = 86_400;
const emptyRoutes = (): Record<Severity, string[]> => ({ critical: [], error: [], warning: [], info: [] });

/** `300` → `5m`, `0` → `0s`. */
export function secondsText(seconds: number): string {
  return seconds === 0 ? "0s" : formatDuration(seconds * 1000);
}

/** A new monitor: the backend's defaults, critical above 90, the query given (from Explore). */
export function newMonitorDraft(query = "", language: Language = "dql"): MonitorDraft {
  return {
    name: "",
    description: "",
    enabled: true,
    language,
    query,
    interval: "1m",
    window: "5m",
    reducer: "last",
    conditions: defaultConditionDrafts(),
    changeOn: false,
    changeCompare: "1d",
    changeMode: "percent",
    forDuration: "0s",
    groupGrace: "5m",
    newGroupDelay: "0s",
    noDataAction: "keep",
    noDataAfter: "10m",
    noDataSeverity: "warning",
    routes: emptyRoutes(),
    renotify: "",
    notifyResolved: true,
    title: DEFAULT_TITLE,
    message: DEFAULT_MESSAGE,
    runbookUrl: "",
  };
}

/** A saved monitor in the editor. */
export function monitorDraft(m: Monitor): MonitorDraft {
  const routes = emptyRoutes();
  for (const s of SEVERITIES) routes[s] = [...(m.routes?.[s] ?? [])];
  return {
    name: m.name,
    description: m.description ?? "",
    enabled: m.enabled ?? true,
    language: m.language ?? "dql",
    query: m.query,
    interval: secondsText(m.interval_seconds ?? 60),
    window: secondsText(m.window_seconds ?? 300),
    reducer: m.reducer ?? "last",
    conditions: conditionDrafts(m.conditions),
    changeOn: Boolean(m.change),
    changeCompare: secondsText(m.change?.compare_to_seconds ?? DAY),
    changeMode: m.change?.mode ?? "percent",
    forDuration: secondsText(m.for_seconds ?? 0),
    groupGrace: secondsText(m.group_grace_seconds ?? 300),
    newGroupDelay: secondsText(m.new_group_delay_seconds ?? 0),
    noDataAction: m.no_data?.action ?? "keep",
    noDataAfter: secondsText(m.no_data?.after_seconds ?? 600),
    noDataSeverity: m.no_data?.severity ?? "warning",
    routes,
    renotify: m.renotify_minutes ? secondsText(m.renotify_minutes * 60) : "",
    notifyResolved: m.notify_resolved ?? true,
    title: m.title ?? DEFAULT_TITLE,
    message: m.message ?? "",
    runbookUrl: m.runbook_url ?? "",
  };
}

export type MonitorErrors = Partial<Record<string, string>>;

interface DurationRule {
  label: string;
  min: number;
  max: number;
  /** Whole minutes only (renotify). */
  minutes?: boolean;
}

/** Whole seconds of a duration such as `90s`, `5m`, `1h30m`, or an error naming `rule`'s bounds. */
export function readDuration(text: string, rule: DurationRule): { seconds?: number; error?: string } {
  const t = text.trim();
  const ms = parseDuration(t);
  if (t === "" || ms === undefined) {
    return { error: `${rule.label}: write a duration such as 30s, 5m, 1h or 1d.` };
  }
  if (ms % 1000 !== 0) return { error: `${rule.label}: use whole seconds.` };
  const seconds = ms / 1000;
  if (rule.minutes && seconds % 60 !== 0) return { error: `${rule.label}: use whole minutes.` };
  if (seconds < rule.min || seconds > rule.max) {
    const low = rule.min === 0 ? "0s" : secondsText(rule.min);
    return { error: `${rule.label} must be between ${low} and ${secondsText(rule.max)}.` };
  }
  return { seconds };
}

export interface MonitorCheck {
  /** The request to send when nothing is wrong. */
  body?: MonitorCreate;
  errors: MonitorErrors;
  /** Severities a worse condition always overrides (said in the editor, not an error). */
  unreachable: Partial<Record<Severity, string>>;
  /** The whole set of conditions is wrong (none on). */
  conditionsError?: string;
}

export interface CheckOptions {
  /** The workspace's shortest evaluation interval (its limit). */
  minIntervalSeconds?: number;
}

/** Checks every field as the backend would and builds the create request. */
export function checkMonitor(draft: MonitorDraft, { minIntervalSeconds = 1 }: CheckOptions = {}): MonitorCheck {
  const errors: MonitorErrors = {};
  const duration = (key: string, text: string, rule: DurationRule): number => {
    const r = readDuration(text, rule);
    if (r.error) errors[key] = r.error;
    return r.seconds ?? 0;
  };

  const name = draft.name.trim();
  if (name === "") errors.name = "Give the monitor a name.";
  else if (name.length > 200) errors.name = "The name must be at most 200 characters.";
  if (draft.description.length > 4000) errors.description = "The description must be at most 4,000 characters.";
  if (draft.query.trim() === "") errors.query = "Write the query the monitor runs.";

  const minInterval = Math.max(1, minIntervalSeconds);
  const interval = duration("interval_seconds", draft.interval, { label: "Interval", min: 1, max: DAY });
  if (!errors.interval_seconds && interval < minInterval) {
    errors.interval_seconds = `Interval must be at least ${secondsText(minInterval)} (this workspace's limit).`;
  }
  const window = duration("window_seconds", draft.window, { label: "Window", min: 1, max: 7 * DAY });
  const forSeconds = duration("for_seconds", draft.forDuration, { label: "For", min: 0, max: 7 * DAY });
  const grace = duration("group_grace_seconds", draft.groupGrace, { label: "Group grace", min: 0, max: 7 * DAY });
  const delay = duration("new_group_delay_seconds", draft.newGroupDelay, { label: "New group delay", min: 0, max: DAY });
  const noDataAfter = duration("no_data.after_seconds", draft.noDataAfter, { label: "No data after", min: 1, max: 7 * DAY });
  const compare = draft.changeOn
    ? duration("change.compare_to_seconds", draft.changeCompare, { label: "Compare with", min: 60, max: 30 * DAY })
    : DAY;
  const renotify =
    draft.renotify.trim() === ""
      ? null
      : duration("renotify_minutes", draft.renotify, { label: "Renotify", min: 60, max: 7 * DAY, minutes: true }) / 60;

  const title = draft.title.trim();
  if (title === "") errors.title = "The title cannot be empty: it is the notification's subject.";
  else if (title.length > 300) errors.title = "The title must be at most 300 characters.";
  if (draft.message.length > 4000) errors.message = "The message must be at most 4,000 characters.";
  const runbook = draft.runbookUrl.trim();
  if (runbook !== "" && !/^https?:\/\/\S+$/.test(runbook)) errors.runbook_url = "The runbook link must start with http:// or https://.";
  for (const s of SEVERITIES) {
    if (draft.routes[s].length > 10) errors[`routes.${s}`] = "At most 10 channels per severity.";
  }

  const conditions = checkConditions(draft.conditions);
  for (const [severity, message] of Object.entries(conditions.errors)) errors[`conditions.${severity}`] = message;
  if (conditions.formError) errors.conditions = conditions.formError;

  const routes: Record<string, string[]> = {};
  for (const s of SEVERITIES) if (draft.routes[s].length > 0) routes[s] = draft.routes[s];

  const result: MonitorCheck = {
    errors,
    unreachable: conditions.unreachable,
    conditionsError: conditions.formError,
  };
  if (Object.keys(errors).length > 0) return result;
  result.body = {
    name,
    description: draft.description,
    enabled: draft.enabled,
    language: draft.language,
    query: draft.query,
    interval_seconds: interval,
    window_seconds: window,
    reducer: draft.reducer,
    conditions: conditions.conditions,
    change: draft.changeOn ? { compare_to_seconds: compare, mode: draft.changeMode } : null,
    for_seconds: forSeconds,
    group_grace_seconds: grace,
    new_group_delay_seconds: delay,
    no_data: { action: draft.noDataAction, after_seconds: noDataAfter, severity: draft.noDataSeverity },
    routes,
    renotify_minutes: renotify,
    notify_resolved: draft.notifyResolved,
    title,
    message: draft.message,
    runbook_url: runbook === "" ? null : runbook,
  };
  return result;
}

/** The fields a preview evaluates (the query, its timing and its conditions), from a checked request. */
export function previewRequest(body: MonitorCreate, hours = 24): PreviewRequest {
  return {
    language: body.language,
    query: body.query,
    interval_seconds: body.interval_seconds,
    window_seconds: body.window_seconds,
    reducer: body.reducer,
    conditions: body.conditions,
    change: body.change,
    for_seconds: body.for_seconds,
    group_grace_seconds: body.group_grace_seconds,
    new_group_delay_seconds: body.new_group_delay_seconds,
    no_data: body.no_data,
    hours,
  };
}

/**
 * What a preview can run while the form is being filled in: the query, its timing and its
 * conditions when those are valid, whatever the other fields say (a missing name does not
 * stop the chart). Undefined when the preview cannot run yet.
 */
export function draftPreview(draft: MonitorDraft, options: CheckOptions = {}, hours = 24): PreviewRequest | undefined {
  const filled: MonitorDraft = {
    ...draft,
    name: "preview",
    description: "",
    title: DEFAULT_TITLE,
    message: "",
    runbookUrl: "",
    renotify: "",
    routes: emptyRoutes(),
  };
  const { body } = checkMonitor(filled, options);
  return body ? previewRequest(body, hours) : undefined;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * The PATCH for a saved monitor: only the fields `body` changes (a changed query is checked by
 * storage again; untouched fields keep what someone else may have changed meanwhile).
 */
export function monitorChanges(saved: Monitor, body: MonitorCreate): MonitorUpdate {
  // the saved monitor as the editor would send it: what was not touched compares equal
  const before = (checkMonitor(monitorDraft(saved)).body ?? {}) as Record<string, unknown>;
  const after = body as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(after)) {
    if (!same(before[key], after[key])) out[key] = after[key];
  }
  // routes replace the whole map: a severity left out has no channels
  if ("routes" in out) out.routes = { critical: [], error: [], warning: [], info: [], ...(out.routes as object) };
  return out as MonitorUpdate;
}
