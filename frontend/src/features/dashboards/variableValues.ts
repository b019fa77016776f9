import type { DqlResult } from "@/lib/dql/dql";

/*
 * The values of a query variable, as Grafana's Prometheus data source lists them: a PromQL
 * variable's query is one of `label_values(label)`, `label_values(selector, label)`,
 * `label_names()`, `metrics(regex)` or `query_result(query)`; any variable may have a `regex`
 * that keeps the values it matches (its first capture group, or the group named `value`,
 * being the value). Pure: what is asked and what is made of the answer.
 */

/** What a PromQL variable's query asks of the Prometheus API. */
export type PromqlVariableRequest =
  | { kind: "labelValues"; label: string; match?: string }
  | { kind: "labelNames"; match?: string }
  | { kind: "metrics"; regex: string }
  | { kind: "queryResult"; query: string };

/** Splits `a, b` at its last comma outside brackets, quotes and braces. */
function lastTopLevelComma(text: string): number {
  let depth = 0;
  let quote = "";
  let at = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = "";
    } else if (c === '"' || c === "'" || c === "`") quote = c;
    else if ("([{".includes(c)) depth++;
    else if (")]}".includes(c)) depth--;
    else if (c === "," && depth === 0) at = i;
  }
  return at;
}

/** The request a PromQL variable's query makes; undefined when it is none of the forms. */
export function parsePromqlVariable(query: string): PromqlVariableRequest | undefined {
  const m = /^\s*(label_values|label_names|metrics|query_result)\s*\(([\s\S]*)\)\s*$/.exec(query);
  if (!m) return undefined;
  const args = m[2].trim();
  switch (m[1]) {
    case "label_values": {
      const comma = lastTopLevelComma(args);
      const label = (comma < 0 ? args : args.slice(comma + 1)).trim();
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(label)) return undefined;
      const match = comma < 0 ? "" : args.slice(0, comma).trim();
      return match ? { kind: "labelValues", label, match } : { kind: "labelValues", label };
    }
    case "label_names":
      return args ? { kind: "labelNames", match: args } : { kind: "labelNames" };
    case "metrics":
      return { kind: "metrics", regex: args };
    default:
      return args ? { kind: "queryResult", query: args } : undefined;
  }
}

/** `/a(.*)/i` → a RegExp; a bare `a.*` too; undefined when it is not a valid expression. */
export function variableRegex(text: string | null | undefined): RegExp | undefined {
  const t = (text ?? "").trim();
  if (!t) return undefined;
  const m = /^\/([\s\S]*)\/([gimsuy]*)$/.exec(t);
  try {
    return m ? new RegExp(m[1], m[2].replace("g", "")) : new RegExp(t);
  } catch {
    return undefined;
  }
}

/**
 * The values `regex` keeps, as Grafana keeps them: those it matches, each replaced by its
 * group named `value`, or else its first group when it has one (else kept whole); in order,
 * without repeats.
 */
export function applyVariableRegex(values: readonly string[], regex: string | null | undefined): string[] {
  const re = variableRegex(regex);
  if (!re) return [...new Set(values)];
  const out: string[] = [];
  for (const v of values) {
    const m = re.exec(v);
    if (!m) continue;
    const kept = m.groups?.value ?? (m.length > 1 ? m[1] : v);
    if (kept !== undefined && kept !== "") out.push(kept);
  }
  return [...new Set(out)];
}

/** `metrics(node_.*)`: the metric names the regex matches (anywhere, as Grafana does). */
export function matchingMetrics(names: readonly string[], regex: string): string[] {
  const re = variableRegex(regex);
  return re ? names.filter((n) => re.test(n)) : [...names];
}

function seriesText(name: string, tags: Record<string, string>): string {
  const labels = Object.keys(tags)
    .filter((k) => !k.startsWith("__"))
    .sort()
    .map((k) => `${k}="${tags[k]}"`)
    .join(", ");
  return `${name}{${labels}}`;
}

/**
 * A `query_result(…)`'s values as Grafana writes them, one per series: `name{a="x", b="y"}
 * value timestamp` (the series' last value, the timestamp in seconds), for `regex` to pick from.
 */
export function queryResultTexts(result: DqlResult): string[] {
  const out: string[] = [];
  for (const s of result.series) {
    const rows = s.values.filter((r) => typeof r[1] === "number");
    const last = rows[rows.length - 1];
    if (!last) continue;
    out.push(`${seriesText(s.name, s.tags ?? {})} ${String(last[1])} ${Math.round(Number(last[0]) / 1000)}`);
  }
  return out;
}
