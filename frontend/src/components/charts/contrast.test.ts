import { describe, expect, it } from "vitest";
import { contrastRatio, parseColor, readableColor } from "./contrast";

describe("readableColor", () => {
  it("reads hex and rgb colours", () => {
    expect(parseColor("#fade2a")).toEqual([250, 222, 42]);
    expect(parseColor("#fff")).toEqual([255, 255, 255]);
    expect(parseColor("#3ba272cc")).toEqual([59, 162, 114]);
    expect(parseColor("rgb(26, 29, 36)")).toEqual([26, 29, 36]);
    expect(parseColor("url(x)")).toBeUndefined();
  });

  it("keeps a colour that reads well, and darkens or lightens one that does not, keeping its hue", () => {
    expect(readableColor("#c62f2f", "#ffffff")).toBe("#c62f2f");
    // Grafana's yellow on white: 1.4:1 → a dark yellow of at least 4.5:1
    const onWhite = readableColor("#fade2a", "#ffffff");
    expect(contrastRatio(parseColor(onWhite)!, [255, 255, 255])).toBeGreaterThanOrEqual(4.5);
    const [r, g, b] = parseColor(onWhite)!;
    expect(r).toBeGreaterThan(b);
    expect(g).toBeGreaterThan(b);
    // large text needs less: 3:1
    const large = readableColor("#fade2a", "#ffffff", 3);
    expect(contrastRatio(parseColor(large)!, [255, 255, 255])).toBeGreaterThanOrEqual(3);
    expect(contrastRatio(parseColor(large)!, [255, 255, 255])).toBeLessThan(4.5);
    // a dark blue on the dark theme's cards is lightened
    const onDark = readableColor("#1f3a93", "#1a1d24");
    expect(contrastRatio(parseColor(onDark)!, [26, 29, 36])).toBeGreaterThanOrEqual(4.5);
    // what cannot be read is left as it is
    expect(readableColor("not-a-colour!", "#ffffff")).toBe("not-a-colour!");
  });
});
