import type { Monitor, MonitorStatus } from "./api";
import { STATUS_ORDER } from "./severity";

/** The monitors list's filter, kept in the URL (`q`, `status`, repeated). */
export interface MonitorFilter {
  search: string;
  statuses: MonitorStatus[];
  /** Only monitors a silence mutes (`muted=1`). */
  muted: boolean;
}

export const NO_MONITOR_FILTER: MonitorFilter = { search: "", statuses: [], muted: false };

export function readMonitorFilter(params: URLSearchParams): MonitorFilter {
  const statuses = params.getAll("status");
  return {
    search: params.get("q") ?? "",
    statuses: STATUS_ORDER.filter((s) => statuses.includes(s)),
    muted: params.get("muted") === "1",
  };
}

/** `params` with the filter written over it (other parameters kept, defaults left out). */
export function writeMonitorFilter(params: URLSearchParams, filter: MonitorFilter): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete("q");
  next.delete("status");
  next.delete("muted");
  if (filter.search.trim()) next.set("q", filter.search);
  for (const s of STATUS_ORDER) if (filter.statuses.includes(s)) next.append("status", s);
  if (filter.muted) next.set("muted", "1");
  return next;
}

export function isFilteringMonitors(filter: MonitorFilter): boolean {
  return filter.search.trim() !== "" || filter.statuses.length > 0 || filter.muted;
}

/**
 * The monitors that match, worst status first, then by name. The search looks at the name,
 * the description and the query (every word must appear, in any case).
 */
export function filterMonitors(monitors: readonly Monitor[], filter: MonitorFilter): Monitor[] {
  const words = filter.search.toLowerCase().split(/\s+/).filter(Boolean);
  return monitors
    .filter((m) => filter.statuses.length === 0 || filter.statuses.includes(m.status))
    .filter((m) => !filter.muted || m.muted)
    .filter((m) => {
      if (words.length === 0) return true;
      const text = `${m.name}\n${m.description ?? ""}\n${m.query}`.toLowerCase();
      return words.every((w) => text.includes(w));
    })
    .sort((a, b) => STATUS_ORDER.indexOf(a.status) - STATUS_ORDER.indexOf(b.status) || a.name.localeCompare(b.name));
}

/** How many monitors are in each status (the filter's counts). */
export function statusCounts(monitors: readonly Monitor[]): Record<MonitorStatus, number> {
  const out = Object.fromEntries(STATUS_ORDER.map((s) => [s, 0])) as Record<MonitorStatus, number>;
  for (const m of monitors) out[m.status] += 1;
  return out;
}
