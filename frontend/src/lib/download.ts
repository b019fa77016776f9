/** Saves `text` as a file through the browser's download. */
export function downloadText(text: string, fileName: string, type: string): void {
  const blob = new Blob([text], { type });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Saves `doc` as an indented JSON file through the browser's download. */
export function downloadJson(doc: unknown, fileName: string): void {
  downloadText(`${JSON.stringify(doc, null, 2)}\n`, fileName, "application/json");
}

/** `Host overview · CPU` → `host-overview-cpu`: a title as part of a file name (`fallback` when nothing is left). */
export function fileSlug(title: string, fallback: string, maxLength = 80): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, maxLength)
    .replace(/-+$/, "");
  return slug || fallback;
}
