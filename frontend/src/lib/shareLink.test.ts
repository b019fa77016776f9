import { describe, expect, it } from "vitest";
import { isRelativeRange, shareLink } from "./shareLink";

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const PAGE = "https://vigil.example.com/w/ws1/dashboards/d1?var-host=a&var-host=b&compare=1d&viewPanel=cpu#top";

describe("shareLink", () => {
  it("keeps the page's state and writes the range out, relative or locked to what it shows now", () => {
    const relative = new URL(shareLink(PAGE, { range: { from: "now-1h", to: "now" }, lockTime: false, now: NOW }));
    expect(relative.searchParams.getAll("var-host")).toEqual(["a", "b"]);
    expect(relative.searchParams.get("compare")).toBe("1d");
    expect([relative.searchParams.get("from"), relative.searchParams.get("to")]).toEqual(["now-1h", "now"]);
    expect(relative.hash).toBe("");

    const locked = new URL(shareLink(PAGE, { range: { from: "now-1h", to: "now" }, lockTime: true, now: NOW }));
    expect([locked.searchParams.get("from"), locked.searchParams.get("to")]).toEqual([String(NOW - 3_600_000), String(NOW)]);
    expect(locked.pathname).toBe("/w/ws1/dashboards/d1");
  });

  it("shows one panel alone, the whole dashboard, or leaves the link's choice", () => {
    const range = { from: "1700000000000", to: "1700003600000" };
    const one = new URL(shareLink(PAGE, { range, lockTime: true, viewPanel: "mem", now: NOW }));
    expect(one.searchParams.get("viewPanel")).toBe("mem");
    expect(one.searchParams.get("from")).toBe("1700000000000");
    expect(new URL(shareLink(PAGE, { range, lockTime: false, viewPanel: "", now: NOW })).searchParams.has("viewPanel")).toBe(false);
    expect(new URL(shareLink(PAGE, { range, lockTime: false, now: NOW })).searchParams.get("viewPanel")).toBe("cpu");
  });

  it("knows a range that moves with time", () => {
    expect(isRelativeRange({ from: "now-1h", to: "now" })).toBe(true);
    expect(isRelativeRange({ from: "1700000000000", to: "now" })).toBe(true);
    expect(isRelativeRange({ from: "1700000000000", to: "1700003600000" })).toBe(false);
  });
});
