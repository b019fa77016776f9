import { CompletionContext } from "@codemirror/autocomplete";
import { EditorState } from "@codemirror/state";
import { describe, expect, it } from "vitest";
import { promqlCompletionSource, type LabelSource } from "./promqlCompletion";

async function complete(doc: string, explicit = true): Promise<{ from: number; labels: string[]; asked: string[] } | null> {
  const asked: string[] = [];
  const source: LabelSource = {
    labels: async (match) => {
      asked.push(`labels ${match ?? ""}`);
      return ["__name__", "cpu", "instance", "mode"];
    },
    labelValues: async (label, match) => {
      asked.push(`values ${label} ${match ?? ""}`);
      if (label === "__name__") return ["node_cpu_seconds_total", "node_load1"];
      if (label === "mode") return ["idle", "user"];
      throw new Error("down");
    },
  };
  const state = EditorState.create({ doc });
  const res = await promqlCompletionSource(source)(new CompletionContext(state, doc.length, explicit));
  return res ? { from: res.from, labels: res.options.map((o) => o.label), asked } : null;
}

describe("promqlCompletionSource", () => {
  it("offers the workspace's metric names, then functions and keywords", async () => {
    const r = await complete("sum(node_");
    expect(r?.asked).toEqual(["values __name__ "]);
    expect(r?.labels.slice(0, 3)).toEqual(["node_cpu_seconds_total", "node_load1", "sum"]);
    expect(r?.from).toBe(4);
  });

  it("offers the labels of the selector's metric, without __name__", async () => {
    const r = await complete("node_cpu_seconds_total{");
    expect(r?.asked).toEqual(["labels node_cpu_seconds_total"]);
    expect(r?.labels).toEqual(["cpu", "instance", "mode"]);
  });

  it("offers a label's values for the selector's metric", async () => {
    const r = await complete('node_cpu_seconds_total{mode="i');
    expect(r?.asked).toEqual(["values mode node_cpu_seconds_total"]);
    expect(r?.labels).toEqual(["idle", "user"]);
    expect(r?.from).toBe('node_cpu_seconds_total{mode="'.length);
  });

  it("offers nothing when the names cannot be listed, and waits for a prefix unless asked", async () => {
    expect((await complete('up{job="'))?.labels).toEqual([]);
    expect(await complete("a / ", false)).toBeNull();
    expect(await complete("rate(x[5")).toBeNull();
  });
});
