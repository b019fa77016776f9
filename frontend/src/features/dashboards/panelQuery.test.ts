import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { DashboardSpec, QueryPanel } from "@/api/dashboards";
import { client } from "@/client/client.gen";
import { PANEL_MAX_POINTS, seriesLegends } from "@/components/panels/panelData";
import { DEFAULT_TIME_RANGE } from "@/lib/time";
import { awaitsVariable, dashboardView, panelQuery, prefetchPanels, visibleQueries } from "./panelQuery";

function panel(id: string, query: string, extra: Partial<QueryPanel> = {}): QueryPanel {
  return {
    id,
    type: "timeseries",
    title: id,
    grid: { x: 0, y: 0, w: 6, h: 8 },
    queries: [{ ref_id: "A", query }],
    ...extra,
  } as QueryPanel;
}

const spec: DashboardSpec = {
  schema_version: 1,
  time: { from: "now-6h", to: "now" },
  time_shift: "1d",
  refresh: "30s",
  variables: [
    { name: "host", type: "query", query: "show_tag_value(from=['cpu'], keyin=['host'])", multi: true, default: ["h1"] },
    { name: "dc", type: "query", query: "show_tag_value(from=['cpu'], keyin=['dc'])" },
  ],
  panels: [
    panel("cpu", "M::cpu:(avg(usage)) { host = re'$host' } BY host"),
    panel("load", "M::system:(avg(load1)) { dc = re'$dc' }", { type: "stat" }),
    panel("hidden", "M::mem:(avg(used))", { queries: [{ ref_id: "A", query: "M::mem:(avg(used))", hidden: true }] }),
  ],
} as DashboardSpec;

describe("dashboardView", () => {
  it("takes the saved defaults when the URL names nothing", () => {
    expect(dashboardView(spec, new URLSearchParams())).toEqual({
      range: { from: "now-6h", to: "now" },
      compare: "1d",
      refresh: "30s",
      values: { host: ["h1"], dc: [] },
      // single-value without "All" and nothing chosen yet: waits for the picker's first value
      pending: ["dc"],
      viewPanel: "",
    });
  });

  it("lets the URL override the range, the variables and the comparison", () => {
    const params = new URLSearchParams(
      "from=now-15m&to=now-5m&var-host=a&var-host=b&var-dc=eu&compare=off&refresh=off&viewPanel=load",
    );
    expect(dashboardView(spec, params)).toEqual({
      range: { from: "now-15m", to: "now-5m" },
      compare: "",
      refresh: "",
      values: { host: ["a", "b"], dc: ["eu"] },
      pending: [],
      viewPanel: "load",
    });
  });

  it("takes another auto refresh from the URL", () => {
    expect(dashboardView(spec, new URLSearchParams("refresh=10s")).refresh).toBe("10s");
    expect(dashboardView({ ...spec, refresh: null }, new URLSearchParams()).refresh).toBe("");
  });

  it("falls back to the default range without a dashboard", () => {
    expect(dashboardView(undefined, new URLSearchParams()).range).toEqual(DEFAULT_TIME_RANGE);
  });
});

describe("prefetchPanels", () => {
  const bodies: { query: string; time_range: number[]; max_point: number }[][] = [];
  beforeEach(() => {
    client.setConfig({ baseUrl: "http://vigil.test" });
    bodies.length = 0;
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = input instanceof Request ? input : new Request(input, init);
      const body = (await req.json()) as { queries: { query: string; time_range: number[]; max_point: number }[] };
      bodies.push(body.queries);
      const content = body.queries.map((q) => ({ series: [{ name: q.query, columns: ["time", "v"], values: [] }] }));
      return new Response(JSON.stringify({ content }), { status: 200, headers: { "Content-Type": "application/json" } });
    });
  });
  afterEach(() => {
    client.setConfig({ baseUrl: "" });
    vi.unstubAllGlobals();
  });

  it("asks for every visible panel in one request, which the panels then read without asking again", async () => {
    const qc = new QueryClient();
    const params = new URLSearchParams("var-host=a&var-host=b&var-dc=eu");
    prefetchPanels(qc, "w1", spec, params);
    await vi.waitFor(() => expect(bodies).toHaveLength(1));

    // the chart asks for its range and the range a day earlier; the stat only for its range
    const queries = bodies[0].map((q) => q.query);
    expect(queries).toEqual([
      "M::cpu:(avg(usage)) { host = re'a|b' } BY host",
      "M::cpu:(avg(usage)) { host = re'a|b' } BY host",
      "M::system:(avg(load1)) { dc = re'eu' }",
    ]);
    const [now, dayBefore] = bodies[0];
    expect(now.time_range[1] - now.time_range[0]).toBe(6 * 3_600_000);
    expect(now.time_range[0] - dayBefore.time_range[0]).toBe(86_400_000);
    expect(now.max_point).toBe(PANEL_MAX_POINTS);

    // a panel mounting now finds its data under the same key, fresh
    const view = dashboardView(spec, params);
    const cpu = new QueryObserver(qc, panelQuery("w1", spec.panels![0] as QueryPanel, view.range, view.values, view.compare));
    const unsubscribe = cpu.subscribe(() => undefined);
    await vi.waitFor(() => expect(cpu.getCurrentResult().isSuccess).toBe(true));
    expect(cpu.getCurrentResult().data?.result.series.map((s) => s.name)).toEqual([
      "M::cpu:(avg(usage)) { host = re'a|b' } BY host",
    ]);
    expect(cpu.getCurrentResult().data?.compare?.shift).toBe("1d");
    expect(cpu.getCurrentResult().data?.perQuery).toEqual([1]);
    expect(cpu.getCurrentResult().data?.compare?.perQuery).toEqual([1]);
    unsubscribe();
    expect(bodies).toHaveLength(1);
  });

  it("asks for PromQL queries in the same request, with their step, variables and Grafana's built-ins filled in", async () => {
    const qc = new QueryClient();
    const promql = {
      ...spec,
      time_shift: null,
      variables: [{ name: "node", type: "query", language: "promql", query: "label_values(up, instance)" }],
      panels: [
        panel("p", "", {
          queries: [
            { ref_id: "A", language: "promql", query: 'rate(x{instance="$node"}[$__rate_interval])', min_step: "30s" },
            { ref_id: "B", query: "M::cpu:(avg(usage))" },
          ],
        }),
      ],
    } as DashboardSpec;
    prefetchPanels(qc, "w1", promql, new URLSearchParams("var-node=web-1:9100"));
    await vi.waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0][0]).toEqual({
      query: 'rate(x{instance="web-1:9100"}[60s])',
      qtype: "promql",
      step: "30s",
      max_point: PANEL_MAX_POINTS,
      time_range: bodies[0][0].time_range,
    });
    expect(bodies[0][1]).toEqual({ query: "M::cpu:(avg(usage))", max_point: PANEL_MAX_POINTS, time_range: bodies[0][1].time_range });
  });

  it("asks for a repeated panel once per value the link selects, and not for panels in collapsed rows", async () => {
    const withRows = {
      ...spec,
      time_shift: null,
      panels: [
        panel("cpu", "M::cpu:(avg(usage)) { host = '$host' }", { repeat: "host" }),
        panel("load", "M::system:(avg(load1)) { dc = re'$dc' }", { type: "stat", repeat: "dc" }),
        {
          id: "r",
          type: "row",
          title: "Memory",
          collapsed: true,
          grid: { x: 0, y: 8, w: 24, h: 1 },
          panels: [panel("mem", "M::mem:(avg(used))")],
        },
      ],
    } as DashboardSpec;
    prefetchPanels(new QueryClient(), "w1", withRows, new URLSearchParams("var-host=a&var-host=b"));
    await vi.waitFor(() => expect(bodies).toHaveLength(1));
    // `$dc` has no value in the link: its copies wait for the values the page lists
    expect(bodies[0].map((q) => q.query)).toEqual([
      "M::cpu:(avg(usage)) { host = 'a' }",
      "M::cpu:(avg(usage)) { host = 'b' }",
    ]);

    // a panel of a collapsed row, or a copy, alone
    prefetchPanels(new QueryClient(), "w1", withRows, new URLSearchParams("viewPanel=mem"));
    await vi.waitFor(() => expect(bodies).toHaveLength(2));
    expect(bodies[1].map((q) => q.query)).toEqual(["M::mem:(avg(used))"]);
    prefetchPanels(new QueryClient(), "w1", withRows, new URLSearchParams("var-host=a&var-host=b&viewPanel=cpu@b"));
    await vi.waitFor(() => expect(bodies).toHaveLength(3));
    expect(bodies[2].map((q) => q.query)).toEqual(["M::cpu:(avg(usage)) { host = 'b' }"]);
  });

  it("asks only for the panel a link shows alone, and for every panel when the link names none there is", async () => {
    const qc = new QueryClient();
    prefetchPanels(qc, "w1", spec, new URLSearchParams("var-dc=eu&viewPanel=load"));
    await vi.waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0].map((q) => q.query)).toEqual(["M::system:(avg(load1)) { dc = re'eu' }"]);

    prefetchPanels(new QueryClient(), "w1", spec, new URLSearchParams("var-dc=eu&viewPanel=gone"));
    await vi.waitFor(() => expect(bodies).toHaveLength(2));
    expect(bodies[1]).toHaveLength(3);
  });

  it("holds the panels that use a variable still waiting for its value, and only those", async () => {
    const qc = new QueryClient();
    prefetchPanels(qc, "w1", spec, new URLSearchParams("var-host=a"));
    await vi.waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0].map((q) => q.query)).toEqual([
      "M::cpu:(avg(usage)) { host = re'a' } BY host",
      "M::cpu:(avg(usage)) { host = re'a' } BY host",
    ]);
  });
});

describe("panelQuery with a comparison", () => {
  it("asks for the past of charts over time, not of a top list, a stat or a table", () => {
    const range = { from: "now-1h", to: "now" };
    const shiftOf = (type: QueryPanel["type"]) => panelQuery("w1", panel("p", "M::cpu:(avg(x))", { type }), range, {}, "1d").queryKey.at(-1);
    expect(shiftOf("timeseries")).toBe(86_400_000);
    expect(shiftOf("bar")).toBe(86_400_000);
    expect(shiftOf("toplist")).toBe(0);
    expect(shiftOf("stat")).toBe(0);
    expect(shiftOf("table")).toBe(0);
  });
});

describe("awaitsVariable", () => {
  it("is true for a visible query that uses a pending variable", () => {
    expect(awaitsVariable(panel("p", "M::cpu:(x) {host = '$host'}"), ["host"])).toBe(true);
    expect(awaitsVariable(panel("p", "M::cpu:(x) {host = '${host}'}"), ["host"])).toBe(true);
    expect(awaitsVariable(panel("p", "M::cpu:(x) {host = '$hostname'}"), ["host"])).toBe(false);
    expect(awaitsVariable(panel("p", "M::cpu:(x) {host = '$host'}"), [])).toBe(false);
    expect(awaitsVariable(panel("p", "M::cpu:(x) {host = '$host'}"), undefined)).toBe(false);
    const hidden = panel("p", "", { queries: [{ ref_id: "A", query: "M::cpu:(x) {host = '$host'}", hidden: true }] });
    expect(awaitsVariable(hidden, ["host"])).toBe(false);
  });
});

describe("visibleQueries and seriesLegends", () => {
  it("keeps each visible query's reference and legend, and gives each series its query's legend", () => {
    const p = panel("p", "", {
      queries: [
        { ref_id: "A", query: "M::cpu:(avg(x)) {host = '$host'} BY host", legend_format: "{{host}} " },
        { ref_id: "B", query: "M::mem:(avg(y))", hidden: true, legend_format: "mem" },
        { ref_id: "C", query: "M::disk:(max(z)) BY host" },
      ],
    });
    const visible = visibleQueries(p, { host: ["h1"] });
    expect(visible).toEqual([
      { refId: "A", query: "M::cpu:(avg(x)) {host = 'h1'} BY host", legend: "{{host}}" },
      { refId: "C", query: "M::disk:(max(z)) BY host", legend: undefined },
    ]);
    // A gave two series, C three
    expect(seriesLegends(visible, [2, 3])).toEqual(["{{host}}", "{{host}}", undefined, undefined, undefined]);
    expect(seriesLegends(visible, undefined)).toBeUndefined();
    expect(seriesLegends([visible[1]], [3])).toBeUndefined();
  });
});
