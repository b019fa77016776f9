import type { EChartsOption } from "echarts";
import { describe, expect, it } from "vitest";
import { keepLegendSelection } from "./EChart";

const option = (names: string[], legend: EChartsOption["legend"] = { data: names }): EChartsOption => ({
  legend,
  series: names.map((name) => ({ type: "line", name, data: [[1, 2]] })),
});

describe("keepLegendSelection", () => {
  it("keeps series the user switched off switched off in new data for the same series", () => {
    const next = keepLegendSelection(option(["a", "b", "c"]), { a: true, b: false, c: true });
    expect((next.legend as { selected: Record<string, boolean> }).selected).toEqual({ b: false });
    expect(next.series).toEqual(option(["a", "b", "c"]).series);
  });

  it("drops names the new data no longer has", () => {
    const next = keepLegendSelection(option(["a", "c"]), { b: false });
    expect(next).toEqual(option(["a", "c"]));
  });

  it("leaves an option that sets its own selection, and one without a legend", () => {
    const own = option(["a", "b"], { data: ["a", "b"], selected: {} });
    expect(keepLegendSelection(own, { a: false })).toBe(own);
    const none: EChartsOption = { series: [{ type: "line", name: "a", data: [] }] };
    expect(keepLegendSelection(none, { a: false })).toBe(none);
  });
});
