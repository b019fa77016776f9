import { resolveTimeRange, type TimeRangeSpec } from "@/lib/time";
import type { AuditEvent, AuditQuery } from "./api";
import auditActions from "./auditActions.json";

/** One family of audit actions (`member.*` filters a family) and the actions in it. */
export interface AuditActionFamily {
  family: string;
  label: string;
  actions: string[];
}

/**
 * Actions the backend records for a workspace, grouped by family. The list lives in
 * `auditActions.json`, which the backend's tests compare with every action it writes.
 */
export const AUDIT_ACTIONS: AuditActionFamily[] = auditActions.families;

export const AUDIT_TARGET_TYPES: readonly string[] = auditActions.targetTypes;

export const AUDIT_PAGE_SIZE = 50;

/** The audit filters as the URL carries them; empty strings mean "any". */
export interface AuditFilters {
  action: string;
  actor: string;
  targetType: string;
  targetId: string;
  /** Time range (`now-7d`…`now`, or epoch ms), like every other page. */
  from: string;
  to: string;
  page: number;
}

export const DEFAULT_AUDIT_RANGE: TimeRangeSpec = { from: "now-7d", to: "now" };

export function readAuditFilters(params: URLSearchParams): AuditFilters {
  const page = Number(params.get("page"));
  return {
    action: params.get("action") ?? "",
    actor: params.get("actor") ?? "",
    targetType: params.get("target_type") ?? "",
    targetId: params.get("target_id") ?? "",
    from: params.get("from") ?? DEFAULT_AUDIT_RANGE.from,
    to: params.get("to") ?? DEFAULT_AUDIT_RANGE.to,
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
}

/** Search parameters for `filters`, leaving defaults out so links stay short. */
export function writeAuditFilters(filters: AuditFilters): URLSearchParams {
  const p = new URLSearchParams();
  if (filters.action) p.set("action", filters.action);
  if (filters.actor.trim()) p.set("actor", filters.actor.trim());
  if (filters.targetType) p.set("target_type", filters.targetType);
  if (filters.targetId.trim()) p.set("target_id", filters.targetId.trim());
  if (filters.from !== DEFAULT_AUDIT_RANGE.from || filters.to !== DEFAULT_AUDIT_RANGE.to) {
    p.set("from", filters.from);
    p.set("to", filters.to);
  }
  if (filters.page > 1) p.set("page", String(filters.page));
  return p;
}

/**
 * The API query for `filters` at `now`: the range becomes `since`/`until` (a range ending at
 * `now` is left open so events that just happened show up), the page an offset.
 * Throws `TimeRangeError` naming the end of the range that is not understood.
 */
export function toAuditQuery(filters: AuditFilters, now: number = Date.now()): AuditQuery {
  const [start, end] = resolveTimeRange({ from: filters.from, to: filters.to }, now);
  const q: AuditQuery = {
    since: new Date(start).toISOString(),
    limit: AUDIT_PAGE_SIZE,
    offset: (filters.page - 1) * AUDIT_PAGE_SIZE,
  };
  if (filters.to !== "now") q.until = new Date(end).toISOString();
  if (filters.action) q.action = filters.action;
  if (filters.actor.trim()) q.actor = filters.actor.trim();
  if (filters.targetType) q.target_type = filters.targetType;
  if (filters.targetId.trim()) q.target_id = filters.targetId.trim();
  return q;
}

/** `Showing 51–100 of 130`, or nothing to show. */
export function pageSummary(page: number, count: number, pageSize: number = AUDIT_PAGE_SIZE): string {
  if (count === 0) return "No events";
  const first = (page - 1) * pageSize + 1;
  const last = Math.min(page * pageSize, count);
  if (first > count) return `Page ${page} is past the last event (${count} in all)`;
  return `Showing ${first}–${last} of ${count}`;
}

export function pageCount(count: number, pageSize: number = AUDIT_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(count / pageSize));
}

/** True when `page` lies past the last page of `count` events (an edited or stale link). */
export function isPastLastPage(page: number, count: number, pageSize: number = AUDIT_PAGE_SIZE): boolean {
  return page > pageCount(count, pageSize);
}

function show(v: unknown): string {
  if (v === null || v === undefined) return "–";
  if (typeof v === "object") {
    const r = v as Record<string, unknown>;
    if ("from" in r && "to" in r) return `${show(r.from)} → ${show(r.to)}`;
    return JSON.stringify(v);
  }
  return String(v);
}

/**
 * The event's details as `key: value` pairs; a change reads `from → to`, whether it is the
 * whole event (`{from, to}`, first) or one field (`{retention_days: {from, to}}`).
 */
export function describeDetails(details: AuditEvent["details"]): string {
  const { from, to, ...rest } = details;
  const parts = Object.keys(rest)
    .sort()
    .map((k) => `${k}: ${show(rest[k])}`);
  if ("from" in details && "to" in details) parts.unshift(show({ from, to }));
  else {
    if ("from" in details) parts.unshift(`from: ${show(from)}`);
    if ("to" in details) parts.push(`to: ${show(to)}`);
  }
  return parts.join(", ");
}

/** What the event acted on, named with a member's email when the target is a known user. */
export function describeTarget(event: AuditEvent, emailsById: Map<string, string>): string {
  if (!event.target_type) return "–";
  if (event.target_type === "user" && event.target_id) {
    return `user ${emailsById.get(event.target_id) ?? event.target_id}`;
  }
  if (event.target_type === "invitation" && typeof event.details.email === "string") {
    return `invitation for ${event.details.email}`;
  }
  if (event.target_type === "workspace") return "workspace";
  return `${event.target_type} ${event.target_id ?? ""}`.trim();
}
