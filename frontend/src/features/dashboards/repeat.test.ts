import { describe, expect, it } from "vitest";
import type { DashboardItem, Panel } from "./api";
import { expandRepeats, firstCopies, repeatValues, sourcePanelId } from "./repeat";

function panel(id: string, x: number, y: number, w = 12, h = 8, extra: Partial<Panel> = {}): Panel {
  return {
    id,
    type: "timeseries",
    title: `CPU on $host`,
    grid: { x, y, w, h },
    queries: [{ query: "M::cpu:(avg(usage_user)) { host = '$host' }" }],
    ...extra,
  } as Panel;
}

const grids = (items: readonly DashboardItem[]): Record<string, number[]> =>
  Object.fromEntries(items.map((i) => [i.id, [i.grid.x, i.grid.y, i.grid.w, i.grid.h]]));

describe("expandRepeats", () => {
  it("draws a panel once per selected value, side by side, each with its own value", () => {
    const items = [panel("cpu", 0, 0, 12, 8, { repeat: "host", max_per_row: 4 }), panel("below", 0, 8)];
    const { items: out, scope, waiting } = expandRepeats(items, { host: ["a", "b", "c"] }, {});
    expect(grids(out)).toEqual({
      cpu: [0, 0, 8, 8],
      "cpu@b": [8, 0, 8, 8],
      "cpu@c": [16, 0, 8, 8],
      below: [0, 8, 12, 8],
    });
    expect(scope.get("cpu")).toEqual({ host: ["a"] });
    expect(scope.get("cpu@c")).toEqual({ host: ["c"] });
    expect(waiting.size).toBe(0);
  });

  it("wraps after max_per_row and moves what is below down by the added lines", () => {
    const items = [panel("cpu", 0, 0, 12, 4, { repeat: "host", max_per_row: 2 }), panel("beside", 12, 0), panel("below", 0, 8)];
    const { items: out } = expandRepeats(items, { host: ["a", "b", "c"] }, {});
    expect(grids(out)).toEqual({
      cpu: [0, 0, 12, 4],
      "cpu@b": [12, 0, 12, 4],
      "cpu@c": [0, 4, 12, 4],
      // it was where the copies now are: under them
      beside: [12, 8, 12, 8],
      below: [0, 12, 12, 8],
    });
  });

  it("stacks the copies one under another when asked, keeping the panel's width", () => {
    const items = [panel("cpu", 6, 2, 12, 5, { repeat: "host", repeat_direction: "v" }), panel("below", 0, 7)];
    const { items: out } = expandRepeats(items, { host: ["a", "b"] }, {});
    expect(grids(out)).toEqual({ cpu: [6, 2, 12, 5], "cpu@b": [6, 7, 12, 5], below: [0, 12, 12, 8] });
  });

  it("uses every value when none is selected, and waits while they are unknown", () => {
    const items = [panel("cpu", 0, 0, 24, 8, { repeat: "host" })];
    const all = expandRepeats(items, { host: [] }, { host: ["x", "y"] });
    expect(all.items.map((i) => i.id)).toEqual(["cpu", "cpu@y"]);
    const unknown = expandRepeats(items, { host: [] }, {});
    expect(unknown.items).toEqual(items);
    expect(unknown.waiting.get("cpu")).toBe("host");
  });

  it("leaves a panel with no values, and panels that do not repeat, as they are", () => {
    const items = [panel("cpu", 0, 0, 24, 8, { repeat: "host" }), panel("plain", 0, 8)];
    expect(expandRepeats(items, { host: [] }, { host: [] }).items).toEqual(items);
    expect(expandRepeats(items, { host: ["only"] }, {}).items.map((i) => i.id)).toEqual(["cpu", "plain"]);
  });

  it("knows a copy's source, and a value listed twice makes one copy", () => {
    expect(sourcePanelId("cpu@web-1")).toBe("cpu");
    expect(sourcePanelId("cpu")).toBe("cpu");
    expect(repeatValues(["a", "a", "b"], undefined)).toEqual(["a", "b"]);
    expect(repeatValues([], ["z"])).toEqual(["z"]);
    expect(repeatValues(undefined, undefined)).toBeUndefined();
  });
});

describe("firstCopies", () => {
  it("draws each repeated panel once, as its first copy, while the layout is edited", () => {
    const items = [panel("cpu", 0, 0, 12, 8, { repeat: "host" }), panel("mem", 12, 0, 12, 8, { repeat: "dc" }), panel("plain", 0, 8)];
    const { items: out, scope, waiting } = firstCopies(items, { host: [] }, { host: ["x", "y"] });
    expect(out).toEqual(items);
    expect(scope.get("cpu")).toEqual({ host: ["x"] });
    expect(scope.has("plain")).toBe(false);
    expect(waiting.get("mem")).toBe("dc");
  });
});
