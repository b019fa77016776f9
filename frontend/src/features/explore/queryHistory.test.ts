import { describe, expect, it } from "vitest";
import { pushHistory, readHistory } from "./queryHistory";

describe("query history", () => {
  it("keeps newest first, without duplicates, per workspace", () => {
    pushHistory("ws1", "M::cpu");
    pushHistory("ws1", "M::mem");
    expect(pushHistory("ws1", "  M::cpu ")).toEqual(["M::cpu", "M::mem"]);
    expect(readHistory("ws2")).toEqual([]);
  });

  it("caps the list at 30 and ignores blank queries", () => {
    for (let i = 0; i < 40; i++) pushHistory("ws", `q${i}`);
    const h = pushHistory("ws", "   ");
    expect(h).toHaveLength(30);
    expect(h[0]).toBe("q39");
  });

  it("survives corrupt storage", () => {
    window.localStorage.setItem("vigil.queryHistory.bad", "{not json");
    expect(readHistory("bad")).toEqual([]);
  });
});
