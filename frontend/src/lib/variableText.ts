/** How a dashboard variable's selected values read in text: `web-1, web-2`, or `All` for none. */
export function variableText(values: readonly string[]): string {
  return values.length === 0 ? "All" : values.join(", ");
}
