import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, Outlet, RouterProvider } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Workspace } from "@/api/workspaces";
import { client } from "@/client/client.gen";
import { REFRESH_PRESETS } from "@/lib/refresh";
import { captureDownloads } from "@/test/downloads";
import { ExplorePage } from "./ExplorePage";

const WORKSPACE = { id: "w1", name: "Acme", role: "editor" } as Workspace;

class NoResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}

function open(search = ""): ReturnType<typeof createMemoryRouter> {
  const router = createMemoryRouter(
    [
      {
        path: "/w/:workspaceId",
        element: <Outlet context={WORKSPACE} />,
        children: [{ path: "explore", element: <ExplorePage /> }],
      },
    ],
    { initialEntries: [`/w/w1/explore${search}`] },
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

describe("ExplorePage", () => {
  const user = userEvent.setup({ delay: null });
  beforeEach(() => {
    client.setConfig({ baseUrl: "http://vigil.test" });
    vi.stubGlobal("ResizeObserver", NoResizeObserver);
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = input instanceof Request ? input : new Request(input, init);
      const body = req.method === "POST" ? { content: [{ series: [] }] } : { data: [], count: 0 };
      return new Response(JSON.stringify(body), { status: 200, headers: { "Content-Type": "application/json" } });
    });
  });
  afterEach(() => {
    client.setConfig({ baseUrl: "" });
    vi.unstubAllGlobals();
  });

  it("titles the window after the page and the workspace", () => {
    open();
    expect(document.title).toBe("Explore · Acme · Vigil");
  });

  it("offers the dashboards' auto refresh menu, kept in the URL the same way", async () => {
    const router = open("?refresh=10s");
    const menu = screen.getByLabelText("Auto refresh");
    expect(menu).toHaveAttribute("data-testid", "auto-refresh");
    expect(menu).toHaveValue("10s");
    expect(within(menu).getAllByRole("option").map((o) => o.textContent)).toEqual([
      "Off",
      ...REFRESH_PRESETS.map((p) => p.label),
    ]);
    await user.selectOptions(menu, "1m");
    expect(new URLSearchParams(router.state.location.search).get("refresh")).toBe("1m");
    // off is the default here (Explore saves none): no parameter at all
    await user.selectOptions(menu, "Off");
    expect(new URLSearchParams(router.state.location.search).has("refresh")).toBe(false);
    expect(menu).toHaveValue("");
  });

  it("ignores a malformed auto refresh in the link", () => {
    open("?refresh=banana");
    expect(screen.getByLabelText("Auto refresh")).toHaveValue("");
  });

  it("switches the visualisation with the arrow keys, into the URL (replacing the history entry)", async () => {
    const router = open("?view=bar");
    const group = screen.getByRole("radiogroup", { name: "Visualisation" });
    const bar = within(group).getByRole("radio", { name: "Bar" });
    expect(bar).toHaveAttribute("aria-checked", "true");
    expect(bar.tabIndex).toBe(0);
    bar.focus();
    await user.keyboard("{ArrowRight}");
    expect(within(group).getByRole("radio", { name: "Stat" })).toHaveFocus();
    expect(new URLSearchParams(router.state.location.search).get("view")).toBe("stat");
    // stepping through the choices does not leave a history entry per key press
    expect(router.state.historyAction).toBe("REPLACE");
    await user.keyboard("{End}");
    expect(new URLSearchParams(router.state.location.search).get("view")).toBe("table");
    await user.keyboard("{Home}");
    expect(within(group).getByRole("radio", { name: "Line" })).toHaveAttribute("aria-checked", "true");
    expect(new URLSearchParams(router.state.location.search).has("view")).toBe(false);
  });

  it("downloads the result as CSV once there is one", async () => {
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = input instanceof Request ? input : new Request(input, init);
      const series = [{ name: "cpu", tags: { host: "a" }, columns: ["time", "avg(usage)"], values: [[0, 1.5]] }];
      const body = req.method === "POST" ? { content: [{ series }] } : { data: [], count: 0 };
      return new Response(JSON.stringify(body), { status: 200, headers: { "Content-Type": "application/json" } });
    });
    const blobs = captureDownloads();
    open("?view=table");
    await user.click(await screen.findByRole("button", { name: "Download CSV" }));
    expect(await blobs[0].text()).toBe("series,host,time,avg(usage)\ncpu,a,1970-01-01T00:00:00.000Z,1.5\n");
  });

  it("names the series by a legend format kept in the link", async () => {
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = input instanceof Request ? input : new Request(input, init);
      const series = ["a", "b"].map((host) => ({ name: "cpu", tags: { host }, columns: ["time", "avg(usage)"], values: [[Date.now(), 1.5]] }));
      const body = req.method === "POST" ? { content: [{ series }] } : { data: [], count: 0 };
      return new Response(JSON.stringify(body), { status: 200, headers: { "Content-Type": "application/json" } });
    });
    const router = open("?view=stat");
    const values = await screen.findByRole("group", { name: /^Last values of / });
    expect(within(values).getAllByTestId("stat-item").map((i) => i.textContent)).toEqual(["a1.5", "b1.5"]);
    await user.type(screen.getByLabelText("Legend"), "host {{{{host}}");
    expect(within(values).getAllByTestId("stat-item").map((i) => i.textContent)).toEqual(["host a1.5", "host b1.5"]);
    expect(new URLSearchParams(router.state.location.search).get("legend")).toBe("host {{host}}");
  });

  describe("several queries", () => {
    const CPU = "M::cpu:(avg(usage)) BY host";
    const MEM = "M::mem:(avg(used)) BY host";
    const sent: string[][] = [];
    const requests: Record<string, unknown>[][] = [];
    const search = (...pairs: [string, string][]): string => `?${new URLSearchParams(pairs).toString()}`;
    beforeEach(() => {
      sent.length = 0;
      requests.length = 0;
      // vigil-storage: all of a request's queries or none; a `}` is a syntax error, named by
      // `query N: ` when the request holds several
      vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
        const req = input instanceof Request ? input : new Request(input, init);
        if (req.method !== "POST") return new Response(JSON.stringify({ data: [], count: 0 }), { status: 200, headers: { "Content-Type": "application/json" } });
        const { queries } = (await req.json()) as { queries: { query: string }[] };
        sent.push(queries.map((q) => q.query));
        requests.push(queries);
        const bad = queries.findIndex((q) => q.query.includes("}"));
        if (bad >= 0) {
          const at = queries[bad].query.indexOf("}");
          const doc = {
            error_code: "dql.parse_error",
            message: `${queries.length > 1 ? `query ${bad + 1}: ` : ""}line 1:${at + 1}: unexpected '}'`,
            position: { line: 1, column: at + 1, start: at, end: at + 1 },
          };
          return new Response(JSON.stringify(doc), { status: 400, headers: { "Content-Type": "application/json" } });
        }
        const content = queries.map((q) => ({
          series: ["a", "b"].map((host) => ({
            name: q.query.includes("mem") ? "mem" : "cpu",
            tags: { host },
            columns: ["time", "v"],
            values: [[Date.now(), q.query.includes("mem") ? 2 : 1]],
          })),
        }));
        return new Response(JSON.stringify({ content }), { status: 200, headers: { "Content-Type": "application/json" } });
      });
    });
    const statItems = async () =>
      within(await screen.findByRole("group", { name: /^Last values of / }))
        .getAllByTestId("stat-item")
        .map((i) => i.textContent);

    it("runs the visible queries in one request, names each one's series by its legend, and hides one on request", async () => {
      const router = open(
        search(["view", "stat"], ["q", CPU], ["legend", "cpu {{host}}"], ["q.B", MEM], ["legend.B", "mem {{host}}"]),
      );
      await vi.waitFor(async () => expect(await statItems()).toEqual(["cpu a1", "cpu b1", "mem a2", "mem b2"]));
      expect(sent).toEqual([[CPU, MEM]]);
      expect(screen.getByRole("group", { name: "Last values of queries A, B" })).toBeInTheDocument();
      expect(screen.getByLabelText("Query A")).toHaveTextContent(CPU);
      expect(screen.getByLabelText("Legend of query B")).toHaveValue("mem {{host}}");

      await user.click(screen.getByLabelText("Hide query B"));
      expect(new URLSearchParams(router.state.location.search).getAll("hide")).toEqual(["B"]);
      await vi.waitFor(async () => expect(await statItems()).toEqual(["cpu a1", "cpu b1"]));
      expect(sent.at(-1)).toEqual([CPU]);
      // hidden, not gone: its text and legend stay, and showing it again runs it
      expect(screen.getByLabelText("Query B")).toHaveTextContent(MEM);
      await user.click(screen.getByLabelText("Hide query B"));
      await vi.waitFor(async () => expect(await statItems()).toHaveLength(4));
    });

    it("switches a query to PromQL: sent as PromQL when the queries run, and kept in the link", async () => {
      const PROMQL = "sum(rate(mem_used[$__rate_interval]))";
      const router = open(search(["view", "stat"], ["from", "now-1h"], ["q", CPU], ["q.B", PROMQL]));
      const params = () => new URLSearchParams(router.state.location.search);
      await vi.waitFor(async () => expect(await statItems()).toHaveLength(4));
      expect(requests.at(-1)?.[1]).not.toHaveProperty("qtype");
      const language = screen.getByLabelText("Language of query B");
      expect(language).toHaveValue("dql");
      await user.selectOptions(language, "promql");
      // like typed text, the language waits for the queries to run
      expect(params().has("lang.B")).toBe(false);
      expect(requests).toHaveLength(1);
      await user.click(screen.getByRole("button", { name: "Run queries" }));
      expect(params().get("lang.B")).toBe("promql");
      await vi.waitFor(() => expect(requests).toHaveLength(2));
      expect(requests[1][0]).not.toHaveProperty("qtype");
      expect(requests[1][1]).toMatchObject({ qtype: "promql", step: "5s", query: "sum(rate(mem_used[60s]))", max_point: 720 });
      expect(screen.getByLabelText("Language of query B")).toHaveValue("promql");
      // a legend change keeps the language the query ran with
      await user.type(screen.getByLabelText("Legend of query B"), "used");
      await vi.waitFor(() => expect(params().get("legend.B")).toBe("used"));
      expect(params().get("lang.B")).toBe("promql");
    });

    it("adds a query with the focus in its editor, runs it with the others, and removes one", async () => {
      const router = open(search(["view", "stat"], ["q", CPU]));
      await vi.waitFor(async () => expect(await statItems()).toEqual(["a1", "b1"]));
      await user.click(screen.getByRole("button", { name: "Add query" }));
      await vi.waitFor(() => expect(screen.getByLabelText("Query B")).toHaveFocus());
      expect(screen.getByLabelText("Query A")).toBeInTheDocument();
      // nothing runs for an empty query
      expect(sent).toEqual([[CPU]]);
      await user.paste(MEM);
      await user.type(screen.getByLabelText("Legend of query B"), "mem {{{{host}}");
      await user.click(screen.getByRole("button", { name: "Run queries" }));
      const params = () => new URLSearchParams(router.state.location.search);
      expect(params().get("q")).toBe(CPU);
      expect(params().get("q.B")).toBe(MEM);
      expect(params().get("legend.B")).toBe("mem {{host}}");
      await vi.waitFor(async () => expect(await statItems()).toEqual(["a1", "b1", "mem a2", "mem b2"]));
      expect(sent.at(-1)).toEqual([CPU, MEM]);

      // Remove A: the focus goes to the query that took its place, which is alone again
      await user.click(screen.getByRole("button", { name: "Remove query A" }));
      await vi.waitFor(() => expect(screen.getByLabelText("DQL query")).toHaveFocus());
      expect(screen.queryByRole("button", { name: /^Remove query/ })).not.toBeInTheDocument();
      expect(params().has("q")).toBe(false);
      expect(params().get("q.B")).toBe(MEM);
      await vi.waitFor(async () => expect(await statItems()).toEqual(["mem a2", "mem b2"]));
    });

    it("shows a DQL error under the query that caused it, and the other query's series", async () => {
      open(search(["view", "stat"], ["q", CPU], ["q.B", `${MEM} }`]));
      const rowB = () => screen.getAllByTestId("query-row").find((r) => r.dataset.ref === "B")!;
      const error = await within(rowB()).findByTestId("query-error");
      expect(error).toHaveTextContent("Query B could not run");
      expect(within(error).getByTestId("query-error-position")).toHaveTextContent(`line 1, column ${MEM.length + 2}`);
      expect(error).not.toHaveTextContent("query 2:");
      await vi.waitFor(async () => expect(await statItems()).toEqual(["a1", "b1"]));
      // the batch, then query A again on its own
      expect(sent).toEqual([[CPU, `${MEM} }`], [CPU]]);
      const rowA = screen.getAllByTestId("query-row").find((r) => r.dataset.ref === "A")!;
      expect(within(rowA).queryByTestId("query-error")).not.toBeInTheDocument();
    });

    it("checks each query against its own LIMIT and SLIMIT, naming the query that was cut", async () => {
      open(search(["q", CPU], ["q.B", `${MEM} SLIMIT 2`]));
      const notice = await screen.findByTestId("result-limit-notice");
      expect(notice).toHaveTextContent("Not everything of query B is shown");
      expect(notice).toHaveTextContent("SLIMIT 2");
      expect(screen.getAllByTestId("result-limit-notice")).toHaveLength(1);
    });

    it("runs nothing while every query is hidden, and says so", async () => {
      open(search(["q", CPU], ["q.B", MEM], ["hide", "A"], ["hide", "B"]));
      expect(await screen.findByText("Every query is hidden")).toBeInTheDocument();
      expect(screen.getByRole("checkbox", { name: "Hide query A" })).toBeChecked();
      expect(sent).toEqual([]);
    });

    it("downloads every query's series as CSV, each row saying its query", async () => {
      const blobs = captureDownloads();
      open(search(["view", "table"], ["q", CPU], ["q.B", MEM]));
      const table = await screen.findByTestId("result-table");
      await vi.waitFor(() => expect(within(table).getAllByRole("table")).toHaveLength(4));
      expect(within(table).getAllByRole("table").map((t) => t.querySelector("caption")?.textContent)).toEqual([
        "A · cpu · host=a",
        "A · cpu · host=b",
        "B · mem · host=a",
        "B · mem · host=b",
      ]);
      await user.click(screen.getByRole("button", { name: "Download CSV" }));
      const lines = (await blobs[0].text()).trim().split("\n");
      expect(lines[0]).toBe("query,series,host,time,v");
      expect(lines.slice(1).map((l) => l.split(",").slice(0, 3).join(","))).toEqual(["A,cpu,a", "A,cpu,b", "B,mem,a", "B,mem,b"]);
    });
  });
});
