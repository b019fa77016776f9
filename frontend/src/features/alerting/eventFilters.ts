import { resolveTimeRange, type TimeRangeSpec } from "@/lib/time";
import type { EventKind, EventsQuery, Severity } from "./api";
import { EVENT_KINDS, SEVERITIES } from "./severity";

/**
 * The alert events timeline's filters as the URL carries them:
 *
 *   ?monitor=<id>&kind=firing&kind=resolved&severity=critical&tag=host=web-1&from=now-24h&to=now&page=2
 *
 * Repeated parameters are alternatives (any of these kinds); tags must all match.
 */
export interface EventFilters {
  monitor: string;
  kinds: EventKind[];
  severities: Severity[];
  /** `name=value`, each one required. */
  tags: string[];
  from: string;
  to: string;
  page: number;
}

export const DEFAULT_EVENTS_RANGE: TimeRangeSpec = { from: "now-24h", to: "now" };
export const EVENTS_PAGE_SIZE = 50;

export const NO_EVENT_FILTERS: EventFilters = {
  monitor: "",
  kinds: [],
  severities: [],
  tags: [],
  ...DEFAULT_EVENTS_RANGE,
  page: 1,
};

const oneOf = <T extends string>(values: readonly T[], allowed: readonly T[]): T[] =>
  allowed.filter((a) => values.includes(a));

/** Whether `tag` reads `name=value` with a name. */
export function isTagFilter(tag: string): boolean {
  const i = tag.indexOf("=");
  return i > 0;
}

export function readEventFilters(params: URLSearchParams): EventFilters {
  const page = Number(params.get("page"));
  return {
    monitor: params.get("monitor") ?? "",
    kinds: oneOf(params.getAll("kind") as EventKind[], EVENT_KINDS),
    severities: oneOf(params.getAll("severity") as Severity[], SEVERITIES),
    tags: params.getAll("tag").filter(isTagFilter),
    from: params.get("from") ?? DEFAULT_EVENTS_RANGE.from,
    to: params.get("to") ?? DEFAULT_EVENTS_RANGE.to,
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
}

/** Search parameters for `filters`, defaults left out so links stay short. */
export function writeEventFilters(filters: EventFilters): URLSearchParams {
  const p = new URLSearchParams();
  if (filters.monitor) p.set("monitor", filters.monitor);
  for (const k of oneOf(filters.kinds, EVENT_KINDS)) p.append("kind", k);
  for (const s of oneOf(filters.severities, SEVERITIES)) p.append("severity", s);
  for (const t of filters.tags) if (isTagFilter(t)) p.append("tag", t);
  if (filters.from !== DEFAULT_EVENTS_RANGE.from || filters.to !== DEFAULT_EVENTS_RANGE.to) {
    p.set("from", filters.from);
    p.set("to", filters.to);
  }
  if (filters.page > 1) p.set("page", String(filters.page));
  return p;
}

/**
 * The API query for `filters` at `now`; a range ending now is left open so that events that
 * just happened show up. Throws `TimeRangeError` for a range it cannot read.
 */
export function toEventsQuery(filters: EventFilters, now: number = Date.now()): EventsQuery {
  const [start, end] = resolveTimeRange({ from: filters.from, to: filters.to }, now);
  const q: EventsQuery = {
    since: new Date(start).toISOString(),
    limit: EVENTS_PAGE_SIZE,
    offset: (filters.page - 1) * EVENTS_PAGE_SIZE,
  };
  if (filters.to !== "now") q.until = new Date(end).toISOString();
  if (filters.monitor) q.monitor_id = filters.monitor;
  if (filters.kinds.length > 0) q.kind = filters.kinds;
  if (filters.severities.length > 0) q.severity = filters.severities;
  if (filters.tags.length > 0) q.tag = filters.tags;
  return q;
}

/** Whether anything narrows the events beyond the time range. */
export function isFilteringEvents(filters: EventFilters): boolean {
  return Boolean(filters.monitor || filters.kinds.length || filters.severities.length || filters.tags.length);
}

/** `host=web-1, region=eu` typed in one field → the tag filters (`name=value` each). */
export function parseTagInput(text: string): { tags: string[]; error?: string } {
  const parts = text
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "");
  const bad = parts.find((p) => !isTagFilter(p));
  if (bad) return { tags: [], error: `"${bad}" is not name=value.` };
  return { tags: parts.map((p) => p.replace(/\s*=\s*/, "=")) };
}
