import type { AlertEvent } from "./api";

/** How much of the time before an event Explore shows, and after it. */
export const EXPLORE_BEFORE_MS = 60 * 60_000;
export const EXPLORE_AFTER_MS = 15 * 60_000;

/**
 * Explore at the time of an event: the event's query (`q`, with `lang=promql` for PromQL) from
 * an hour before to a quarter of an hour after it (`from`/`to` in epoch ms, what a zoom
 * writes), never past now.
 */
export function exploreLink(workspaceId: string, event: Pick<AlertEvent, "query" | "language" | "at">, now = Date.now()): string | undefined {
  const at = Date.parse(event.at);
  if (!Number.isFinite(at)) return undefined;
  const from = at - EXPLORE_BEFORE_MS;
  const to = Math.max(Math.min(at + EXPLORE_AFTER_MS, now), at + 60_000);
  const params = new URLSearchParams({ q: event.query, from: String(from), to: String(to) });
  if (event.language === "promql") params.set("lang", "promql");
  return `/w/${workspaceId}/explore?${params.toString()}`;
}

/** The monitor editor prefilled with a query from Explore (`q`, `lang`). */
export function newMonitorLink(workspaceId: string, query: string, language: "dql" | "promql" = "dql"): string {
  const params = new URLSearchParams({ q: query, lang: language });
  return `/w/${workspaceId}/alerts/monitors/new?${params.toString()}`;
}
