import { CompletionContext } from "@codemirror/autocomplete";
import { EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import { describe, expect, it } from "vitest";
import type { DqlResult } from "@/lib/dql/dql";
import { columnValues } from "@/lib/dql/dql";
import { dqlCompletionSource } from "./dqlCompletion";

const meta: Record<string, DqlResult> = {
  "show_measurement()": { series: [{ name: "measurements", columns: ["name"], values: [["cpu"], ["mem"], ["my-metric"]] }] },
  "show_tag_key(from=['cpu'])": { series: [{ name: "cpu", columns: ["tagKey"], values: [["host"], ["region"]] }] },
  "show_tag_value(from=['cpu'], keyin=['host'])": {
    series: [{ name: "cpu", columns: ["key", "value"], values: [["host", "web-01"], ["host", "web-02"]] }],
  },
};

async function complete(doc: string): Promise<{ from: number; labels: string[]; asked: string[] }> {
  const asked: string[] = [];
  const source = dqlCompletionSource(async (q) => {
    asked.push(q);
    const r = meta[q];
    if (!r) throw new Error(`unexpected ${q}`);
    return r;
  });
  const state = EditorState.create({ doc });
  const res = await source(new CompletionContext(state, doc.length, true));
  return { from: res?.from ?? -1, labels: res?.options.map((o) => o.label) ?? [], asked };
}

describe("dqlCompletionSource", () => {
  it("offers the workspace's measurements after M::, backticking odd names", async () => {
    const r = await complete("M::c");
    expect(r.asked).toEqual(["show_measurement()"]);
    expect(r.labels).toEqual(["cpu", "mem", "`my-metric`"]);
    expect(r.from).toBe(3);
  });

  it("offers tag keys in a filter and tag values after key = '", async () => {
    expect((await complete("M::cpu:(avg(x)) {")).labels).toEqual(["host", "region"]);
    const v = await complete("M::cpu:(avg(x)) {host='web");
    expect(v.labels).toEqual(["web-01", "web-02"]);
    expect(v.from).toBe("M::cpu:(avg(x)) {host='".length);
  });
});

describe("dqlCompletionSource after the editor lost the focus", () => {
  it("offers nothing when the workspace's names arrive once the focus is elsewhere", async () => {
    const parent = document.body.appendChild(document.createElement("div"));
    const view = new EditorView({ doc: "M::c", parent });
    const other = document.body.appendChild(document.createElement("input"));
    try {
      let answer: (r: DqlResult) => void = () => undefined;
      const source = dqlCompletionSource(() => new Promise((r) => (answer = r)));
      view.focus();
      const pending = source(new CompletionContext(view.state, 4, true, view));
      other.focus();
      answer(meta["show_measurement()"]);
      expect(await pending).toBeNull();
      // with the focus still there, the same names are offered
      view.focus();
      const again = source(new CompletionContext(view.state, 4, true, view));
      answer(meta["show_measurement()"]);
      expect((await again)?.options.map((o) => o.label)).toEqual(["cpu", "mem", "`my-metric`"]);
    } finally {
      view.destroy();
      parent.remove();
      other.remove();
    }
  });
});

describe("columnValues", () => {
  it("collects one column across series, unique and sorted", () => {
    const r: DqlResult = {
      series: [
        { name: "a", columns: ["key", "value"], values: [["host", "b"], ["host", "a"]] },
        { name: "b", columns: ["key", "value"], values: [["host", "a"], ["host", null]] },
      ],
    };
    expect(columnValues(r, "value")).toEqual(["a", "b"]);
    expect(columnValues(r, "missing")).toEqual([]);
  });
});
