import type { DashboardExport } from "./api";

/** `Host overview` → `host-overview.dashboard.json`. */
export function exportFileName(title: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80);
  return `${slug || "dashboard"}.dashboard.json`;
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
