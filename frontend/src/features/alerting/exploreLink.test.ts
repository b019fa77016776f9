import { describe, expect, it } from "vitest";
import { exploreLink, newMonitorLink } from "./exploreLink";
import { queriesFromSearch } from "@/lib/dql/queriesInUrl";

const AT = Date.UTC(2026, 10, 28, 10, 0);

describe("links to and from Explore", () => {
  it("opens an event's query in Explore from an hour before to 15 minutes after it", () => {
    const link = exploreLink("w1", { query: "M::cpu:(avg(usage_user)) BY host", language: "dql", at: new Date(AT).toISOString() }, AT + 3_600_000);
    const url = new URL(link ?? "", "http://x");
    expect(url.pathname).toBe("/w/w1/explore");
    expect(url.searchParams.get("from")).toBe(String(AT - 3_600_000));
    expect(url.searchParams.get("to")).toBe(String(AT + 15 * 60_000));
    // Explore reads its query A from `q`
    expect(queriesFromSearch(url.searchParams)).toEqual([{ ref_id: "A", query: "M::cpu:(avg(usage_user)) BY host" }]);
  });

  it("never ends past now, and opens a PromQL query as PromQL", () => {
    const link = exploreLink("w1", { query: "q", language: "dql", at: new Date(AT).toISOString() }, AT + 5 * 60_000);
    expect(new URL(link ?? "", "http://x").searchParams.get("to")).toBe(String(AT + 5 * 60_000));
    const promql = exploreLink("w1", { query: "up", language: "promql", at: new Date(AT).toISOString() });
    expect(queriesFromSearch(new URL(promql ?? "", "http://x").searchParams)).toEqual([
      { ref_id: "A", query: "up", language: "promql" },
    ]);
  });

  it("opens the monitor editor with the query and its language", () => {
    expect(newMonitorLink("w1", "M::cpu:(avg(usage_user)) [15m::1m] BY host")).toBe(
      "/w/w1/alerts/monitors/new?q=M%3A%3Acpu%3A%28avg%28usage_user%29%29+%5B15m%3A%3A1m%5D+BY+host&lang=dql",
    );
  });
});
