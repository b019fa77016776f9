/**
 * Decides what the cursor is positioned to type in a DQL statement, from the text before it.
 * Pure, so the rules are tested without an editor.
 */
export type CompletionKind =
  | { kind: "measurement"; prefix: string }
  | { kind: "field"; measurement: string; prefix: string }
  | { kind: "tagKey"; measurement: string; prefix: string }
  | { kind: "tagValue"; measurement: string; key: string; prefix: string; quote: string }
  | { kind: "keyword"; prefix: string };

function measurementOf(text: string): string | undefined {
  const m = /(?:^|[\s(])(?:M|metric)?\s*::\s*(`[^`]+`|[A-Za-z_][A-Za-z0-9_]*)/i.exec(text);
  if (!m) return undefined;
  return m[1].startsWith("`") ? m[1].slice(1, -1) : m[1];
}

export function completionContext(before: string): CompletionKind {
  const word = /[A-Za-z0-9_]*$/.exec(before)?.[0] ?? "";
  const head = before.slice(0, before.length - word.length);

  // M::<measurement>
  if (/(?:^|[\s(])(?:M|metric)?\s*::\s*$/i.test(head)) return { kind: "measurement", prefix: word };

  const measurement = measurementOf(before);
  if (!measurement) return { kind: "keyword", prefix: word };

  // key = 'val  |  key != "val  |  key IN ['a', 'b
  const tv = /([A-Za-z_][A-Za-z0-9_]*|`[^`]+`)\s*(?:!=|=|(?:NOT\s+)?IN\s*\[(?:[^\]]*,)?)\s*(['"])([^'"]*)$/i.exec(before);
  if (tv) {
    const key = tv[1].startsWith("`") ? tv[1].slice(1, -1) : tv[1];
    return { kind: "tagValue", measurement, key, prefix: tv[3], quote: tv[2] };
  }

  const opens = (ch: string, close: string): boolean => before.lastIndexOf(ch) > before.lastIndexOf(close);
  // Inside the filter braces, at the start of a condition
  if (opens("{", "}") && /(?:\{|,|&&|\|\||\(|\bAND|\bOR)\s*$/i.test(head)) {
    return { kind: "tagKey", measurement, prefix: word };
  }
  // BY host, <tag>
  if (/\bBY\s+(?:[A-Za-z0-9_`]+\s*,\s*)*$/i.test(head)) return { kind: "tagKey", measurement, prefix: word };
  // Inside the target list :( … ), directly or as a function argument
  const targets = before.indexOf(":(", before.indexOf(measurement));
  if (targets >= 0 && !/[{[]/.test(before.slice(targets)) && /(?:\(|,)\s*$/.test(head)) {
    return { kind: "field", measurement, prefix: word };
  }
  return { kind: "keyword", prefix: word };
}
