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
