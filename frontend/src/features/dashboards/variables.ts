import { variableText } from "@/lib/variableText";

/**
 * Dashboard variables in queries: `$name` or `${name}` is replaced by the selected value.
 * Several selected values (multi-select) are joined with `|`, for use in a regex filter:
 * `{host = re'$host'}` matches any selected host. A variable with nothing selected means
 * "all" and becomes `.*`; a name that is not a variable of the dashboard is left as is.
 */
export function interpolateVariables(query: string, values: Record<string, string[]>): string {
  return replaceVariables(query, values, (v) => {
    if (v.length === 0) return ".*";
    return v.length === 1 ? v[0] : v.map(escapeRegex).join("|");
  });
}

/**
 * Variables in a text panel's text, for people to read: several values are listed
 * (`web-1, web-2`), nothing selected reads `All`.
 */
export function interpolateText(text: string, values: Record<string, string[]>): string {
  return replaceVariables(text, values, variableText);
}

/** A panel's title as shown: `CPU on $host` reads `CPU on web-1`; "Untitled panel" when it has none. */
export function panelTitle(title: string | undefined, values: Record<string, string[]>): string {
  return title ? interpolateText(title, values) : "Untitled panel";
}

function replaceVariables(text: string, values: Record<string, string[]>, format: (v: string[]) => string): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (whole, braced, bare) => {
    const v = values[(braced ?? bare) as string];
    return v ? format(v) : whole;
  });
}

/** Names of the variables `query` refers to (`$name` or `${name}`). */
export function referencedVariables(query: string): Set<string> {
  const out = new Set<string>();
  for (const m of query.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g)) out.add(m[1] ?? m[2]);
  return out;
}

function escapeRegex(v: string): string {
  return v.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Reads `var-<name>` search parameters (repeated for multi-select), Grafana style. */
export function variablesFromSearch(params: URLSearchParams): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of params) {
    if (!k.startsWith("var-")) continue;
    (out[k.slice(4)] ??= []).push(v);
  }
  return out;
}
