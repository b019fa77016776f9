import type { Completion, CompletionContext, CompletionResult, CompletionSource } from "@codemirror/autocomplete";
import { promqlCompletionContext } from "./promqlCompletionContext";
import { PROMQL_FUNCTIONS, PROMQL_KEYWORDS } from "./promqlLanguage";

/** The Prometheus label endpoints completion asks (`labels`, `label/<name>/values`). */
export interface LabelSource {
  /** Label names, of the series matching `match` when given. */
  labels: (match?: string) => Promise<string[]>;
  /** Values of `label` (`__name__`: the metric names), of the series matching `match` when given. */
  labelValues: (label: string, match?: string) => Promise<string[]>;
}

/**
 * Completion of metric names, label names and label values from the workspace's own series
 * (the Prometheus-compatible label endpoints), plus functions and keywords. Answers are
 * cached for a minute.
 */
export function promqlCompletionSource(source: LabelSource): CompletionSource {
  const cache = new Map<string, { at: number; values: Promise<string[]> }>();
  const cached = (key: string, ask: () => Promise<string[]>): Promise<string[]> => {
    const hit = cache.get(key);
    if (hit && Date.now() - hit.at < 60_000) return hit.values;
    const values = ask().catch(() => {
      cache.delete(key); // do not remember failures: the next keystroke asks again
      return [] as string[];
    });
    cache.set(key, { at: Date.now(), values });
    return values;
  };
  return async (ctx: CompletionContext): Promise<CompletionResult | null> => {
    const before = ctx.state.sliceDoc(0, ctx.pos);
    const c = promqlCompletionContext(before);
    const from = ctx.pos - c.prefix.length;
    if (c.kind === "none" || (c.kind === "metric" && c.prefix === "" && !ctx.explicit)) return null;
    let options: Completion[] = [];
    switch (c.kind) {
      case "metric":
        options = [
          ...(await cached("metrics", () => source.labelValues("__name__"))).map((m) => ({
            label: m,
            type: "class",
            detail: "metric",
          })),
          ...PROMQL_FUNCTIONS.map((f) => ({ label: f, type: "function", apply: `${f}(` })),
          ...PROMQL_KEYWORDS.map((k) => ({ label: k, type: "keyword" })),
        ];
        break;
      case "labelName": {
        const match = c.metric;
        options = (await cached(`labels ${match ?? ""}`, () => source.labels(match)))
          .filter((l) => l !== "__name__")
          .map((l) => ({ label: l, type: "variable", detail: "label" }));
        break;
      }
      case "labelValue": {
        const { label, metric } = c;
        options = (await cached(`values ${label} ${metric ?? ""}`, () => source.labelValues(label, metric))).map((v) => ({
          label: v,
          type: "text",
          detail: label,
          apply: v.replace(/\\/g, "\\\\").replace(/"/g, '\\"'),
        }));
        break;
      }
    }
    // Names asked of the workspace can arrive after the editor lost the focus: they would open
    // a list over whatever has it now, which nothing then closes.
    if (ctx.aborted || (ctx.view !== undefined && !ctx.view.hasFocus)) return null;
    return { from, options, validFor: /^[A-Za-z0-9_:.-]*$/ };
  };
}
