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

/** Saves `doc` as a file through the browser's download. */
export function downloadJson(doc: unknown, fileName: string): void {
  const blob = new Blob([`${JSON.stringify(doc, null, 2)}\n`], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 0);
}
