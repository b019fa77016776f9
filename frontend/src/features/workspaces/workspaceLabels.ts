/** Names compare as people read them: surrounding spaces and letter case do not tell workspaces apart. */
function sameNameKey(name: string): string {
  return name.trim().toLocaleLowerCase();
}

const SHORT_ID = 8;

/**
 * A short id for each workspace whose name is shared with another of `workspaces` (the first 8
 * characters of its id, more when two of them start alike), so that two "Production"s can be
 * told apart in the picker. Workspaces with a name of their own get none.
 */
export function disambiguators(workspaces: readonly { id: string; name: string }[]): Map<string, string> {
  const byName = new Map<string, string[]>();
  for (const w of workspaces) {
    const key = sameNameKey(w.name);
    byName.set(key, [...(byName.get(key) ?? []), w.id]);
  }
  const out = new Map<string, string>();
  for (const ids of byName.values()) {
    const distinct = [...new Set(ids)];
    if (distinct.length < 2) continue;
    let length = SHORT_ID;
    const longest = Math.max(...distinct.map((id) => id.length));
    while (length < longest && new Set(distinct.map((id) => id.slice(0, length))).size < distinct.length) length += 1;
    for (const id of distinct) out.set(id, id.slice(0, length));
  }
  return out;
}
