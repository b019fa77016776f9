import { everyPanel, isRow, isTextPanel, type DashboardItem, type DashboardVariable, type Panel } from "@/api/dashboards";
import { quoteList } from "@/components/query-editor/dqlCompletion";
import { variableRegex } from "./variableValues";

/**
 * The dashboard settings' variable form: what an editor fills in, how it becomes a
 * `DashboardVariable` of the spec and back, and what is wrong with it. The rules are the
 * backend's (`Variable` in backend/app/schemas/dashboard.py), so a form that passes here
 * saves.
 */

/** The backend's rule for a variable name. */
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
export const MAX_VARIABLE_LABEL = 100;
export const MAX_VARIABLE_VALUES = 1000;

/**
 * Where the values come from: the tag values of a measurement (built from measurement and tag
 * key), any DQL metadata query, a PromQL variable query (`label_values(…)` …), a fixed list,
 * or one constant value.
 */
export type VariableSource = "tags" | "query" | "promql" | "custom" | "constant";

export const VARIABLE_SOURCES: { value: VariableSource; label: string }[] = [
  { value: "tags", label: "Tag values" },
  { value: "query", label: "DQL query" },
  { value: "promql", label: "PromQL query" },
  { value: "custom", label: "Fixed list" },
  { value: "constant", label: "Constant" },
];

/** The backend's rule for a PromQL variable's query (`Variable` in the dashboard schema). */
export const PROMQL_VARIABLE_QUERY = /^\s*(label_values|label_names|metrics|query_result)\s*\([\s\S]*\)\s*$/;

export interface VariableForm {
  name: string;
  label: string;
  source: VariableSource;
  measurement: string;
  tagKey: string;
  /** The DQL of a `query` source, the PromQL of a `promql` one. */
  query: string;
  /** Of a `query` or `promql` source: keeps the values it matches (`/(.*):9100/`). */
  regex: string;
  /** The values of a `custom` source, comma-separated as typed. */
  options: string;
  multi: boolean;
  includeAll: boolean;
  /** Selected when the link does not say otherwise; for a constant, its value. */
  defaults: string[];
}

export type VariableField = "name" | "label" | "measurement" | "tagKey" | "query" | "regex" | "options";
export type VariableErrors = Partial<Record<VariableField, string>>;

/** `show_tag_value(from=['cpu'], keyin=['host'])`: the values of one tag key of a measurement. */
export function tagValuesQuery(measurement: string, tagKey: string): string {
  return `show_tag_value(from=${quoteList(measurement)}, keyin=${quoteList(tagKey)})`;
}

const QUOTED = String.raw`'((?:[^'\\]|\\.)*)'`;
const TAG_VALUES = new RegExp(String.raw`^\s*show_tag_value\(\s*from\s*=\s*\[\s*${QUOTED}\s*\]\s*,\s*keyin\s*=\s*\[\s*${QUOTED}\s*\]\s*\)\s*$`);

function unquote(s: string): string {
  return s.replace(/\\(.)/g, "$1");
}

/** Measurement and tag key of a query `tagValuesQuery` would write; undefined for any other query. */
export function parseTagValuesQuery(query: string): { measurement: string; tagKey: string } | undefined {
  const m = TAG_VALUES.exec(query);
  return m ? { measurement: unquote(m[1]), tagKey: unquote(m[2]) } : undefined;
}

/** `a, b,,a ` → `["a", "b"]`: the values of a fixed list, trimmed, without blanks or repeats. */
export function splitOptions(text: string): string[] {
  return [...new Set(text.split(",").map((s) => s.trim()).filter(Boolean))];
}

export function emptyVariableForm(): VariableForm {
  return {
    name: "",
    label: "",
    source: "tags",
    measurement: "",
    tagKey: "",
    query: "",
    regex: "",
    options: "",
    multi: false,
    includeAll: false,
    defaults: [],
  };
}

/** The form showing `v`; a query the tag-values builder wrote opens in the builder. */
export function variableToForm(v: DashboardVariable): VariableForm {
  const form: VariableForm = {
    ...emptyVariableForm(),
    name: v.name,
    label: v.label ?? "",
    multi: v.multi ?? false,
    includeAll: v.include_all ?? false,
    defaults: v.default ?? [],
    options: (v.options ?? []).join(", "),
    regex: v.regex ?? "",
  };
  if (v.type === "query" && v.language === "promql") return { ...form, source: "promql", query: v.query ?? "" };
  if (v.type === "query") {
    const tags = parseTagValuesQuery(v.query ?? "");
    return tags ? { ...form, source: "tags", ...tags, query: v.query ?? "" } : { ...form, source: "query", query: v.query ?? "" };
  }
  return { ...form, source: v.type };
}

/** The query a `tags`, `query` or `promql` form runs for its values; undefined when it has none yet. */
export function formQuery(form: VariableForm): string | undefined {
  if (form.source === "tags") {
    const m = form.measurement.trim();
    const k = form.tagKey.trim();
    return m && k ? tagValuesQuery(m, k) : undefined;
  }
  if (form.source === "query" || form.source === "promql") return form.query.trim() || undefined;
  return undefined;
}

/** Whether the form's values come from a query with a regex of its own (not the tag builder's). */
export function hasRegex(source: VariableSource): boolean {
  return source === "query" || source === "promql";
}

/**
 * The spec's variable for a form (check `variableErrors` first), with every field spelled out
 * as the backend returns it, so applying an unchanged form leaves the dashboard unchanged.
 */
export function formToVariable(form: VariableForm): DashboardVariable {
  const base = {
    name: form.name.trim(),
    label: form.label.trim(),
    language: "dql" as const,
    query: null,
    regex: null,
    options: [] as string[],
  };
  if (form.source === "constant") {
    const value = form.defaults[0] ?? "";
    return { ...base, type: "constant", default: value ? [value] : [], multi: false, include_all: false };
  }
  let defaults = form.defaults.filter(Boolean);
  const options = form.source === "custom" ? splitOptions(form.options) : [];
  if (form.source === "custom") defaults = defaults.filter((d) => options.includes(d));
  if (!form.multi) defaults = defaults.slice(0, 1);
  const common = { ...base, default: defaults, multi: form.multi, include_all: form.includeAll };
  if (form.source === "custom") return { ...common, type: "custom", options };
  const regex = hasRegex(form.source) ? form.regex.trim() || null : null;
  const language = form.source === "promql" ? "promql" : "dql";
  return { ...common, type: "query", language, query: formQuery(form) ?? "", regex };
}

/** What is wrong with the form, by field; `others` are the names of the dashboard's other variables. */
export function variableErrors(form: VariableForm, others: readonly string[]): VariableErrors {
  const errors: VariableErrors = {};
  const name = form.name.trim();
  if (!name) errors.name = "Give the variable a name; panels refer to it as $name.";
  else if (!VARIABLE_NAME.test(name))
    errors.name = "A name starts with a letter or _ and has only letters, digits and _ (at most 64).";
  else if (others.includes(name)) errors.name = `Another variable is already called ${name}.`;
  if (form.label.trim().length > MAX_VARIABLE_LABEL) errors.label = `A label has at most ${MAX_VARIABLE_LABEL} characters.`;
  if (form.source === "tags") {
    if (!form.measurement.trim()) errors.measurement = "Choose the measurement whose tag values to offer.";
    if (!form.tagKey.trim()) errors.tagKey = "Choose the tag key whose values to offer.";
  } else if (form.source === "query" && !form.query.trim()) {
    errors.query = "Enter a metadata query such as show_tag_value(from=['cpu'], keyin=['host']).";
  } else if (form.source === "promql" && !PROMQL_VARIABLE_QUERY.test(form.query)) {
    errors.query = "Enter label_values(metric, label), label_values(label), label_names(), metrics(regex) or query_result(query).";
  }
  if (hasRegex(form.source) && form.regex.trim()) {
    if (form.regex.trim().length > 1000) errors.regex = "A regex has at most 1000 characters.";
    else if (!variableRegex(form.regex)) errors.regex = "This is not a regular expression (write /…/ or the expression alone).";
  }
  if (form.source === "custom") {
    const n = splitOptions(form.options).length;
    if (n === 0) errors.options = "Enter at least one value (comma-separated).";
    else if (n > MAX_VARIABLE_VALUES) errors.options = `A list has at most ${MAX_VARIABLE_VALUES} values.`;
  }
  return errors;
}

/** The list with the item at `index` moved by `delta` places; unchanged at either end. */
export function moveItem<T>(list: readonly T[], index: number, delta: number): T[] {
  const to = index + delta;
  if (index < 0 || index >= list.length || to < 0 || to >= list.length) return [...list];
  const out = [...list];
  const [item] = out.splice(index, 1);
  out.splice(to, 0, item);
  return out;
}

/** `$name` or `${name}` in a query (`$names` is another variable). */
function reference(name: string, flags = ""): RegExp {
  return new RegExp(String.raw`\$(?:\{${name}\}|${name}(?![A-Za-z0-9_]))`, flags);
}

/** What of a panel may name a variable: its queries, or a text panel's text. */
function panelTexts(panel: Panel): string[] {
  return isTextPanel(panel) ? [panel.content ?? ""] : panel.queries.map((q) => q.query);
}

/**
 * The titles of the panels (those in collapsed rows too) whose queries (or text) refer to
 * `$name` or `${name}`, or that are repeated for it.
 */
export function panelsUsingVariable(items: readonly DashboardItem[], name: string): string[] {
  if (!VARIABLE_NAME.test(name)) return [];
  const ref = reference(name);
  return everyPanel(items)
    .filter((p) => p.repeat === name || panelTexts(p).some((t) => ref.test(t)))
    .map((p) => p.title || "Untitled panel");
}

/** The panels (those in collapsed rows too) repeated for `name` drawn once instead: the variable is going away. */
export function stopRepeating(items: readonly DashboardItem[], name: string): DashboardItem[] {
  const once = (p: Panel): Panel => (p.repeat === name ? { ...p, repeat: null } : p);
  return items.map((i) => {
    if (!isRow(i)) return once(i);
    return i.panels?.some((p) => p.repeat === name) ? { ...i, panels: i.panels.map(once) } : i;
  });
}

/**
 * The panels (those in collapsed rows too) with `$from` (and `${from}`) renamed to `$to` in
 * their queries, a text panel's text and what they are repeated for; untouched panels are
 * kept as they are.
 */
export function renameVariableInPanels(items: readonly DashboardItem[], from: string, to: string): DashboardItem[] {
  if (from === to || !VARIABLE_NAME.test(from) || !VARIABLE_NAME.test(to)) return [...items];
  const ref = reference(from, "g");
  const rename = (text: string): string => text.replace(ref, (m) => (m.startsWith("${") ? `\${${to}}` : `$${to}`));
  const renamePanel = (panel: Panel): Panel => {
    const p = panel.repeat === from ? { ...panel, repeat: to } : panel;
    if (!panelTexts(p).some((t) => reference(from).test(t))) return p;
    if (isTextPanel(p)) return { ...p, content: rename(p.content ?? "") };
    return { ...p, queries: p.queries.map((q) => ({ ...q, query: rename(q.query) })) };
  };
  return items.map((i) => (isRow(i) ? (i.panels?.length ? { ...i, panels: i.panels.map(renamePanel) } : i) : renamePanel(i)));
}
