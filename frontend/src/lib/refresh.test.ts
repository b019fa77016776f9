import { describe, expect, it } from "vitest";
import { effectiveRefresh, parseRefresh, refreshChoices, refreshParam, REFRESH_PRESETS } from "./refresh";

describe("parseRefresh", () => {
  it("reads the schema's intervals and raises very short ones to 5 s", () => {
    expect(parseRefresh("30s")).toBe(30_000);
    expect(parseRefresh("15m")).toBe(900_000);
    expect(parseRefresh("1h")).toBe(3_600_000);
    expect(parseRefresh("1s")).toBe(5_000);
    for (const bad of [undefined, null, "", "off", "0s", "1d", "1h30m", "abc", "500ms"]) expect(parseRefresh(bad)).toBeUndefined();
  });
});

describe("effectiveRefresh", () => {
  it("takes the URL's interval, `off`, or else the saved default", () => {
    expect(effectiveRefresh(null, "30s")).toBe("30s");
    expect(effectiveRefresh("10s", "30s")).toBe("10s");
    expect(effectiveRefresh("off", "30s")).toBe("");
    expect(effectiveRefresh("nonsense", "30s")).toBe("30s");
    expect(effectiveRefresh(null, null)).toBe("");
    expect(effectiveRefresh(null, undefined)).toBe("");
  });

  it("reads the milliseconds of Explore's older links as the interval they meant", () => {
    expect(effectiveRefresh("10000", null)).toBe("10s");
    expect(effectiveRefresh("300000", null)).toBe("5m");
    expect(effectiveRefresh("3600000", null)).toBe("1h");
    expect(effectiveRefresh("1500", null)).toBe("");
    expect(effectiveRefresh("0", "30s")).toBe("30s");
  });
});

describe("refreshParam", () => {
  it("leaves the URL without `refresh` when the saved default gives the choice", () => {
    expect(refreshParam("30s", "30s")).toBeNull();
    expect(refreshParam("", null)).toBeNull();
    expect(refreshParam("10s", "30s")).toBe("10s");
    expect(refreshParam("", "30s")).toBe("off");
    expect(refreshParam("1m", null)).toBe("1m");
  });
});

describe("refreshChoices", () => {
  it("offers Grafana's intervals, plus another saved one in its place", () => {
    expect(REFRESH_PRESETS.map((p) => p.value)).toEqual(["5s", "10s", "30s", "1m", "5m", "15m", "30m", "1h"]);
    expect(refreshChoices("30s")).toBe(REFRESH_PRESETS);
    expect(refreshChoices("").length).toBe(8);
    expect(refreshChoices("2m").map((c) => c.value)).toEqual(["5s", "10s", "30s", "1m", "2m", "5m", "15m", "30m", "1h"]);
  });
});
