import type { DashboardExport } from "@/api/dashboards";
import { fileSlug } from "@/lib/download";

/** `Host overview` → `host-overview.dashboard.json`. */
export function exportFileName(title: string): string {
  return `${fileSlug(title, "dashboard")}.dashboard.json`;
}

/**
 * Reads a pasted or uploaded export document. Only JSON syntax and the top-level shape are
 * checked here; the backend validates the dashboard itself and names what is wrong.
 */
export function parseExportDocument(text: string): { doc: DashboardExport } | { error: string } {
  if (!text.trim()) return { error: "Paste an exported dashboard or choose a .json file." };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { error: `This is not valid JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { error: "The document must be a JSON object, as exported from a dashboard." };
  }
  return { doc: value as DashboardExport };
}

/**
 * Whether a parsed document is a Grafana dashboard (as Grafana exports it, or in its API's
 * `{"dashboard": …}` envelope) rather than one of Vigil's own exports.
 */
export function isGrafanaDashboard(doc: Record<string, unknown>): boolean {
  if (doc.format === "vigil.dashboard" || "spec" in doc) return false;
  const inner = doc.dashboard;
  const wrapped = typeof inner === "object" && inner !== null && !Array.isArray(inner) && "panels" in inner;
  return Array.isArray(doc.panels) || Array.isArray(doc.rows) || wrapped || "__inputs" in doc || "schemaVersion" in doc;
}

/** A Grafana document's own title (the envelope's dashboard's); "" when it has none. */
export function grafanaTitle(doc: Record<string, unknown>): string {
  const inner = doc.dashboard;
  const dashboard = typeof inner === "object" && inner !== null && !Array.isArray(inner) && !("panels" in doc) ? inner : doc;
  const title = (dashboard as { title?: unknown }).title;
  return typeof title === "string" ? title.trim() : "";
}

/** Titles compared the way people read them: case and surrounding spaces do not count. */
export function sameTitle(a: string, b: string): boolean {
  return a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();
}

const MAX_TITLE = 200;

/**
 * The title an imported dashboard gets: its own, or when the workspace already has a dashboard
 * by that name (as Grafana does) `<title> (imported)`, then `(imported 2)`, … until it is free.
 */
export function importTitle(title: string, existing: readonly string[]): string {
  const base = title.trim();
  const taken = (t: string): boolean => existing.some((e) => sameTitle(e, t));
  if (base && !taken(base)) return base;
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? " (imported)" : ` (imported ${n})`;
    const candidate = `${base.slice(0, MAX_TITLE - suffix.length)}${suffix}`.trim();
    if (!taken(candidate)) return candidate;
  }
}
