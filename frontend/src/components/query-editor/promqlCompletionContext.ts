/**
 * What the cursor is positioned to type in a PromQL query, from the text before it: a metric
 * name, a label name (in a selector's braces, or in `by (…)`), or a label's value. Pure, so the
 * rules are tested without an editor.
 */
export type PromqlCompletionKind =
  | { kind: "metric"; prefix: string }
  | { kind: "labelName"; metric?: string; prefix: string }
  | { kind: "labelValue"; metric?: string; label: string; prefix: string }
  | { kind: "none"; prefix: string };

const NAME = /[A-Za-z_:][A-Za-z0-9_:.]*$/;

/** The metric a selector whose braces open at `brace` is about: the name written before them. */
function metricBefore(text: string, brace: number): string | undefined {
  const m = NAME.exec(text.slice(0, brace).trimEnd());
  return m?.[0];
}

export function promqlCompletionContext(before: string): PromqlCompletionKind {
  // inside a string: only a label's value, after label= / != / =~ / !~
  const open = before.lastIndexOf("{");
  const inBraces = open > before.lastIndexOf("}");
  const quoted = /([A-Za-z_][A-Za-z0-9_]*)\s*(?:=~|!~|!=|=)\s*"((?:[^"\\]|\\.)*)$/.exec(before);
  if (quoted && inBraces && quoted.index > open) {
    return { kind: "labelValue", metric: metricBefore(before, open), label: quoted[1], prefix: quoted[2] };
  }
  const quotes = (before.match(/"/g) ?? []).length;
  if (quotes % 2 === 1) return { kind: "none", prefix: "" };
  const word = /[A-Za-z0-9_:.]*$/.exec(before)?.[0] ?? "";
  const head = before.slice(0, before.length - word.length);
  if (inBraces && /[{,]\s*$/.test(head)) return { kind: "labelName", metric: metricBefore(before, open), prefix: word };
  if (inBraces) return { kind: "none", prefix: word };
  // sum by (a, …) / without ( / on ( / ignoring ( / group_left (
  if (/\b(?:by|without|on|ignoring|group_left|group_right)\s*\(\s*(?:[A-Za-z0-9_]+\s*,\s*)*$/i.test(head)) {
    return { kind: "labelName", prefix: word };
  }
  // inside a range or a duration: [5m
  if (before.lastIndexOf("[") > before.lastIndexOf("]")) return { kind: "none", prefix: word };
  if (/^[0-9]/.test(word)) return { kind: "none", prefix: word };
  return { kind: "metric", prefix: word };
}
