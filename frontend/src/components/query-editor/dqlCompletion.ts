import type { Completion, CompletionContext, CompletionResult, CompletionSource } from "@codemirror/autocomplete";
import { columnValues, type DqlResult } from "@/lib/dql/dql";
import { completionContext } from "./completionContext";
import { DQL_FUNCTIONS, DQL_KEYWORDS } from "./dqlLanguage";

/** Runs a metadata statement (`show_*`) and returns its result. */
export type MetadataRunner = (query: string) => Promise<DqlResult>;

/** `cpu` → `['cpu']`: one quoted string in a list, as the `show_*` functions take their arguments. */
export function quoteList(v: string): string {
  return `['${v.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}']`;
}

function ident(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !DQL_KEYWORDS.includes(name.toUpperCase()) ? name : `\`${name}\``;
}

/**
 * Completion of measurements, fields, tag keys and tag values from the workspace's own
 * metadata (`show_measurement`, `show_field_key`, `show_tag_key`, `show_tag_value`),
 * plus keywords and functions. Answers are cached for a minute.
 */
export function dqlCompletionSource(run: MetadataRunner): CompletionSource {
  const cache = new Map<string, { at: number; values: Promise<string[]> }>();
  const cached = (query: string, column?: string): Promise<string[]> => {
    const hit = cache.get(query);
    if (hit && Date.now() - hit.at < 60_000) return hit.values;
    const values = run(query).then(
      (r) => columnValues(r, column),
      () => {
        cache.delete(query); // do not remember failures: the next keystroke asks again
        return [] as string[];
      },
    );
    cache.set(query, { at: Date.now(), values });
    return values;
  };

  return async (ctx: CompletionContext): Promise<CompletionResult | null> => {
    const before = ctx.state.sliceDoc(0, ctx.pos);
    const c = completionContext(before);
    const from = ctx.pos - c.prefix.length;
    if (c.kind === "keyword" && c.prefix === "" && !ctx.explicit) return null;
    let options: Completion[] = [];
    switch (c.kind) {
      case "measurement":
        options = (await cached("show_measurement()")).map((m) => ({ label: ident(m), type: "class", detail: "measurement" }));
        break;
      case "field":
        options = [
          ...(await cached(`show_field_key(from=${quoteList(c.measurement)})`, "fieldKey")).map((f) => ({
            label: ident(f),
            type: "property",
            detail: "field",
          })),
          ...DQL_FUNCTIONS.slice(0, 20).map((f) => ({ label: f, type: "function", apply: `${f}(` })),
        ];
        break;
      case "tagKey":
        options = (await cached(`show_tag_key(from=${quoteList(c.measurement)})`, "tagKey")).map((k) => ({
          label: ident(k),
          type: "variable",
          detail: "tag",
        }));
        break;
      case "tagValue":
        options = (
          await cached(`show_tag_value(from=${quoteList(c.measurement)}, keyin=${quoteList(c.key)})`, "value")
        ).map((v) => ({ label: v, type: "text", detail: c.key }));
        break;
      case "keyword":
        options = [
          ...DQL_KEYWORDS.map((k) => ({ label: k, type: "keyword" })),
          ...DQL_FUNCTIONS.map((f) => ({ label: f, type: "function", apply: `${f}(` })),
        ];
        break;
    }
    // Names asked of the workspace can arrive after the editor lost the focus: they would open
    // a list over whatever has it now, which nothing then closes.
    if (ctx.aborted || (ctx.view !== undefined && !ctx.view.hasFocus)) return null;
    return { from, options, validFor: /^[A-Za-z0-9_.-]*$/ };
  };
}
