import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MemoryRouter } from "react-router";
import type { Panel } from "@/api/dashboards";
import { client } from "@/client/client.gen";
import { PanelView } from "./PanelView";

const NOW = Date.now();

/** `M::cpu:(avg(usage_user)) … BY host` over the range: one value per host. */
const HOSTS: Record<string, number> = { alpha: 12.34, beta: 87.5, gamma: 45, delta: 3 };

const busiest: Panel = {
  id: "top-cpu",
  type: "toplist",
  title: "Busiest hosts",
  grid: { x: 0, y: 0, w: 24, h: 8 },
  queries: [{ ref_id: "A", query: "M::cpu:(avg(usage_user)) {cpu = 'cpu-total'} BY host" }],
  unit: "percent",
  decimals: 1,
  thresholds: [{ value: 80, color: "red" }],
  limit: 3,
};

type Sent = { queries: { query: string }[] };

/** A query API answering each query with one `cpu` series per host of HOSTS, its points from `values`. */
function serveHosts(sent: Sent[], values: (v: number) => [number, number | null][]) {
  return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const req = input instanceof Request ? input : new Request(input, init);
    const body = (await req.json()) as Sent;
    sent.push(body);
    const series = Object.entries(HOSTS).map(([host, v]) => ({
      name: "cpu",
      columns: ["time", "avg(usage_user)"],
      tags: { host },
      values: values(v),
    }));
    const content = body.queries.map(() => ({ series }));
    return new Response(JSON.stringify({ content }), { status: 200, headers: { "Content-Type": "application/json" } });
  };
}

describe("PanelView: top list", () => {
  const sent: Sent[] = [];
  beforeEach(() => {
    client.setConfig({ baseUrl: "http://vigil.test" });
    sent.length = 0;
    vi.stubGlobal("fetch", serveHosts(sent, (v) => [[NOW, v]]));
  });
  afterEach(() => {
    client.setConfig({ baseUrl: "" });
    vi.unstubAllGlobals();
  });

  it("gives its description to screen readers, and shows it behind the ⓘ button until Escape", async () => {
    const user = userEvent.setup({ delay: null });
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <PanelView
          workspaceId="w1"
          panel={{ ...busiest, description: "Average CPU user time.\nAbove 80 % is red." }}
          timeRange={{ from: "now-1h", to: "now" }}
          variables={{}}
        />
      </QueryClientProvider>,
    );
    const panel = screen.getByRole("region", { name: "Busiest hosts" });
    expect(panel).toHaveAccessibleDescription(/^Average CPU user time.\s+Above 80 % is red.$/);
    const about = within(panel).getByRole("button", { name: "About Busiest hosts" });
    expect(about).toHaveAttribute("aria-expanded", "false");
    await user.click(about);
    expect(about).toHaveAttribute("aria-expanded", "true");
    expect(document.getElementById(about.getAttribute("aria-controls")!)).toHaveTextContent("Above 80 % is red.");
    await user.keyboard("{Escape}");
    expect(about).toHaveAttribute("aria-expanded", "false");
    expect(about).toHaveFocus();
  });

  it("draws the series as bars ranked largest first, in the panel's unit and threshold colours, without a past", async () => {
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <PanelView workspaceId="w1" panel={busiest} timeRange={{ from: "now-1h", to: "now" }} variables={{}} compare="1d" />
      </QueryClientProvider>,
    );
    const list = await screen.findByRole("list", { name: "Busiest hosts ranking" });
    const rows = within(list).getAllByRole("listitem");
    expect(rows.map((r) => r.textContent)).toEqual(["beta87.5%", "gamma45.0%", "alpha12.3%"]);
    const bars = within(list).getAllByTestId("toplist-bar");
    expect(bars.map((b) => b.style.width)).toEqual(["100%", "51.43%", "14.1%"]);
    expect(bars.map((b) => b.dataset.color)).toEqual(["red", "#3ba272", "#3ba272"]);
    expect(screen.getByText("1 more series not shown")).toBeInTheDocument();
    expect(screen.queryByTestId("panel-chart")).not.toBeInTheDocument();
    // a comparison does not apply to a ranking: only the present range was asked for
    expect(sent).toHaveLength(1);
    expect(sent[0].queries).toHaveLength(1);
  });

  it("is a section named by its title under a level-2 heading; in the editor's preview, named apart at level 3", async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const props = { workspaceId: "w1", panel: busiest, timeRange: { from: "now-1h", to: "now" }, variables: {} };
    const { unmount } = render(
      <QueryClientProvider client={client}>
        <PanelView {...props} />
      </QueryClientProvider>,
    );
    const panel = screen.getByRole("region", { name: "Busiest hosts" });
    expect(within(panel).getByRole("heading", { level: 2, name: "Busiest hosts" })).toBeInTheDocument();
    await within(panel).findByRole("list", { name: "Busiest hosts ranking" });
    unmount();
    render(
      <QueryClientProvider client={client}>
        <PanelView {...props} preview />
      </QueryClientProvider>,
    );
    const preview = screen.getByRole("region", { name: "Preview of Busiest hosts" });
    expect(within(preview).getByRole("heading", { level: 3, name: "Busiest hosts" })).toBeInTheDocument();
    await within(preview).findByRole("list", { name: "Busiest hosts ranking" });
  });
});

class NoResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}

describe("PanelView: a refused query", () => {
  /** The storage's answer to a request whose query `n` (from 1) is `M::mem:(avgg(used))`. */
  const refusal = (n: number): Response =>
    new Response(
      JSON.stringify({
        detail: `query ${n}: line 1:8: unknown function avgg`,
        code: "dql.unknown_function",
        position: { start: 7, end: 11 },
      }),
      { status: 400, headers: { "Content-Type": "application/json" } },
    );
  /** A panel of a good query A and a bad query B. */
  const renderTwoQueries = (type: string, compare?: string): void => {
    const panel = {
      ...busiest,
      type,
      title: "CPU and memory",
      ...(type === "stat" ? { reduce: "last" } : {}),
      queries: [
        { ref_id: "A", query: "M::cpu:(avg(usage_user))" },
        { ref_id: "B", query: "M::mem:(avgg(used))" },
      ],
    } as Panel;
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <PanelView workspaceId="w1" panel={panel} timeRange={{ from: "now-1h", to: "now" }} variables={{}} compare={compare} />
        </MemoryRouter>
      </QueryClientProvider>,
    );
  };
  afterEach(() => {
    client.setConfig({ baseUrl: "" });
    vi.unstubAllGlobals();
  });

  it("draws the queries the storage takes and names the one it refuses above them", async () => {
    client.setConfig({ baseUrl: "http://vigil.test" });
    // as the storage does: a request with the bad query is refused, naming it; others answered
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = input instanceof Request ? input : new Request(input, init);
      const { queries } = (await req.json()) as Sent;
      const bad = queries.findIndex((q) => q.query.includes("avgg"));
      if (bad >= 0) return refusal(bad + 1);
      const content = queries.map(() => ({
        series: [{ name: "cpu", columns: ["time", "v"], tags: { host: "alpha" }, values: [[NOW, 12]] }],
      }));
      return new Response(JSON.stringify({ content }), { status: 200, headers: { "Content-Type": "application/json" } });
    });
    renderTwoQueries("stat");
    const refused = await screen.findByTestId("panel-refused");
    expect(refused).toHaveTextContent("Query B could not run: line 1, column 8: unknown function avgg");
    expect(screen.getAllByTestId("stat-item").map((i) => i.textContent)).toEqual(["alpha12.0%"]);
    expect(screen.queryByTestId("query-error")).not.toBeInTheDocument();
  });

  it("names the query the storage refused and places the error in that query's text", async () => {
    client.setConfig({ baseUrl: "http://vigil.test" });
    // every request refused, for its second query
    vi.stubGlobal("fetch", async () => refusal(2));
    renderTwoQueries("timeseries", "1d");
    const error = await screen.findByTestId("query-error");
    expect(error).toHaveTextContent(/^Query B could not run/);
    expect(error).toHaveTextContent("line 1, column 8: unknown function avgg");
    expect(error).not.toHaveTextContent("query 2");
  });
});

describe("PanelView: heatmap", () => {
  const sent: Sent[] = [];
  beforeEach(() => {
    client.setConfig({ baseUrl: "http://vigil.test" });
    sent.length = 0;
    vi.stubGlobal("ResizeObserver", NoResizeObserver);
    vi.stubGlobal(
      "fetch",
      serveHosts(sent, (v) => [
        [NOW - 120_000, v],
        [NOW - 60_000, null],
        [NOW, v / 2],
      ]),
    );
  });
  afterEach(() => {
    // unmount while the ResizeObserver stub is still there: the chart lets go of its observer
    cleanup();
    client.setConfig({ baseUrl: "" });
    vi.unstubAllGlobals();
  });

  it("draws a row per host, named for screen readers with the range of values, without a past", async () => {
    const heatmap: Panel = {
      id: "cpu-heat",
      type: "heatmap",
      title: "CPU by host",
      grid: { x: 0, y: 0, w: 24, h: 8 },
      queries: [{ ref_id: "A", query: "M::cpu:(avg(usage_user)) [1h::1m] BY host" }],
      unit: "percent",
      decimals: 1,
      color_scheme: "oranges",
    };
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <PanelView workspaceId="w1" panel={heatmap} timeRange={{ from: "now-1h", to: "now" }} variables={{}} compare="1d" />
      </QueryClientProvider>,
    );
    const chart = await screen.findByRole("img", { name: "CPU by host heatmap: 4 series, 1.5% to 87.5%" });
    expect(chart).toHaveAttribute("data-testid", "panel-chart");
    const wrapper = screen.getByTestId("heatmap");
    expect(wrapper).toHaveAttribute("data-row-count", "4");
    expect(Number(wrapper.dataset.columnCount)).toBeGreaterThanOrEqual(3);
    // a heatmap has no row for a past: only the present range was asked for
    expect(sent).toHaveLength(1);
    expect(sent[0].queries).toHaveLength(1);
  });
});

describe("PanelView: text", () => {
  const notes: Panel = {
    id: "notes",
    type: "text",
    title: "On call",
    grid: { x: 0, y: 0, w: 12, h: 4 },
    content: "## Hosts: $host\n\nSee [the runbook](https://wiki.example.com/oncall) <img src=x onerror=alert(1)>",
  };

  it("draws its Markdown with the variables' values, asks for no data, and its menu views and shares it", async () => {
    const fetch = vi.fn();
    vi.stubGlobal("fetch", fetch);
    const user = userEvent.setup({ delay: null });
    const onToggleView = vi.fn();
    render(
      <MemoryRouter>
        <QueryClientProvider client={new QueryClient()}>
          <PanelView
            workspaceId="w1"
            panel={notes}
            timeRange={{ from: "now-1h", to: "now" }}
            variables={{ host: ["web-1", "web-2"] }}
            onToggleView={onToggleView}
          />
        </QueryClientProvider>
      </MemoryRouter>,
    );
    const panel = screen.getByRole("region", { name: "On call" });
    expect(panel).toHaveAttribute("data-panel-type", "text");
    // under the panel's h2, the text's own heading is an h4 (## → level 2 + 2)
    expect(await within(panel).findByRole("heading", { level: 4, name: "Hosts: web-1, web-2" })).toBeInTheDocument();
    const link = within(panel).getByRole("link", { name: "the runbook" });
    expect(link).toHaveAttribute("target", "_blank");
    expect(panel.innerHTML).not.toContain("onerror");
    expect(fetch).not.toHaveBeenCalled();

    await user.click(within(panel).getByRole("button", { name: "Menu of On call" }));
    const items = screen.getAllByRole("menuitem").map((i) => i.textContent);
    expect(items).toEqual(["View", "Share"]);
    await user.click(screen.getByRole("menuitem", { name: "View" }));
    expect(onToggleView).toHaveBeenCalled();
    vi.unstubAllGlobals();
  });

  it("fills the variables in its title", () => {
    render(
      <MemoryRouter>
        <QueryClientProvider client={new QueryClient()}>
          <PanelView workspaceId="w1" panel={{ ...notes, title: "On call for $host" }} timeRange={{ from: "now-1h", to: "now" }} variables={{ host: ["web-1"] }} />
        </QueryClientProvider>
      </MemoryRouter>,
    );
    expect(screen.getByRole("region", { name: "On call for web-1" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { level: 2, name: "On call for web-1" })).toBeInTheDocument();
  });

  it("says what to do when it has no text yet", () => {
    render(
      <MemoryRouter>
        <QueryClientProvider client={new QueryClient()}>
          <PanelView workspaceId="w1" panel={{ ...notes, content: "  " }} timeRange={{ from: "now-1h", to: "now" }} variables={{}} />
        </QueryClientProvider>
      </MemoryRouter>,
    );
    expect(screen.getByRole("status")).toHaveTextContent("No textEdit the panel and write some Markdown.");
  });
});
