import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, Outlet, RouterProvider } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Dashboard } from "@/api/dashboards";
import type { Workspace } from "@/api/workspaces";
import { client } from "@/client/client.gen";
import { DashboardPage } from "./DashboardPage";

const WORKSPACE = { id: "w1", name: "Ops", role: "editor" } as Workspace;

const DASHBOARD: Dashboard = {
  id: "d1",
  workspace_id: "w1",
  title: "Fleet",
  description: "",
  tags: [],
  version: 1,
  created_at: "2026-11-21T10:00:00Z",
  updated_at: "2026-11-21T10:00:00Z",
  created_by: null,
  updated_by: null,
  spec: {
    schema_version: 1,
    time: { from: "now-1h", to: "now" },
    refresh: "30s",
    panels: [
      {
        id: "p1",
        type: "timeseries",
        title: "CPU",
        grid: { x: 0, y: 0, w: 12, h: 8 },
        queries: [{ ref_id: "A", query: "M::cpu:(avg(usage_user)) [::1m] BY host" }],
      },
    ],
  },
};

class NoResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}

describe("DashboardPage", () => {
  const queries: string[][] = [];
  let served: Dashboard = DASHBOARD;
  const user = userEvent.setup({ delay: null });
  beforeEach(() => {
    client.setConfig({ baseUrl: "http://vigil.test" });
    queries.length = 0;
    served = DASHBOARD;
    vi.stubGlobal("ResizeObserver", NoResizeObserver);
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = input instanceof Request ? input : new Request(input, init);
      const json = (body: unknown): Response =>
        new Response(JSON.stringify(body), { status: 200, headers: { "Content-Type": "application/json" } });
      if (req.method === "GET") return json(served);
      const body = (await req.json()) as { queries: { query: string }[] };
      queries.push(body.queries.map((q) => q.query));
      return json({ content: body.queries.map(() => ({ series: [] })) });
    });
  });
  afterEach(() => {
    client.setConfig({ baseUrl: "" });
    vi.unstubAllGlobals();
  });

  const open = async (search = "") => {
    const router = createMemoryRouter(
      [
        {
          path: "/w/:workspaceId",
          element: <Outlet context={WORKSPACE} />,
          children: [{ path: "dashboards/:dashboardId", element: <DashboardPage /> }],
        },
      ],
      { initialEntries: [`/w/w1/dashboards/d1${search}`] },
    );
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    await screen.findByRole("heading", { name: "Fleet" });
    // the grid lays its panels out once it has measured its width, a moment later
    await waitFor(() =>
      expect(document.querySelector('[data-testid="grid-cell"], [data-testid="panel-view"], [role="alert"]')).not.toBeNull(),
    );
    return router;
  };
  const gridPanels = (): string[] =>
    within(screen.getByTestId("dashboard-grid"))
      .getAllByTestId("panel")
      .map((p) => p.getAttribute("aria-label") ?? "");

  it("adds a new panel only when the editor applies it: Discard leaves the dashboard as it was", async () => {
    await open();
    await user.click(screen.getByRole("button", { name: "Edit" }));
    await user.click(screen.getByRole("button", { name: "Add panel" }));
    const editor = await screen.findByRole("dialog", { name: "Edit panel" }, { timeout: 10_000 });
    expect(gridPanels()).toEqual(["CPU"]);
    expect(screen.getByTestId("save-state")).toHaveTextContent("Saved · v1");

    await user.click(within(editor).getByRole("button", { name: "Discard" }));
    expect(screen.queryByRole("dialog", { name: "Edit panel" })).not.toBeInTheDocument();
    expect(gridPanels()).toEqual(["CPU"]);
    expect(screen.getByTestId("save-state")).toHaveTextContent("Saved · v1");
    expect(screen.getByRole("button", { name: "Add panel" })).toHaveFocus();

    await user.click(screen.getByRole("button", { name: "Add panel" }));
    const again = await screen.findByRole("dialog", { name: "Edit panel" });
    await user.click(within(again).getByRole("button", { name: "Apply" }));
    expect(gridPanels()).toEqual(["CPU", "New panel"]);
    expect(screen.getByTestId("save-state")).toHaveTextContent("Unsaved changes");
  }, 20_000);

  it("titles the window after the dashboard, the section and the workspace", async () => {
    await open();
    expect(document.title).toBe("Fleet · Dashboards · Ops · Vigil");
  });

  it("draws the duplicate icon instead of a character fonts may lack, under the same name", async () => {
    await open();
    await user.click(screen.getByRole("button", { name: "Edit" }));
    const duplicate = screen.getByRole("button", { name: "Duplicate CPU" });
    expect(duplicate.textContent).toBe("");
    expect(duplicate.querySelector("svg[aria-hidden='true']")).not.toBeNull();
    await user.click(duplicate);
    expect(gridPanels()).toEqual(["CPU", "CPU (copy)"]);
  });

  it("keeps the auto refresh in the URL over the saved one, and refreshes every panel on demand", async () => {
    const router = await open();
    const picker = screen.getByLabelText("Auto refresh");
    expect(picker).toHaveValue("30s");
    expect(within(picker).getAllByRole("option").map((o) => o.textContent)).toEqual([
      "Off",
      "5s",
      "10s",
      "30s",
      "1m",
      "5m",
      "15m",
      "30m",
      "1h",
    ]);
    await user.selectOptions(picker, "10s");
    expect(router.state.location.search).toBe("?refresh=10s");
    await user.selectOptions(picker, "Off");
    expect(router.state.location.search).toBe("?refresh=off");
    expect(picker).toHaveValue("");
    await user.selectOptions(picker, "30s");
    expect(router.state.location.search).toBe("");

    await waitFor(() => expect(queries).toHaveLength(1));
    await user.click(screen.getByRole("button", { name: "Refresh" }));
    await waitFor(() => expect(queries).toHaveLength(2));
    expect(queries[1]).toEqual(["M::cpu:(avg(usage_user)) [::1m] BY host"]);
  });

  it("opens with the link's auto refresh", async () => {
    await open("?refresh=off");
    expect(screen.getByLabelText("Auto refresh")).toHaveValue("");
  });

  it("shows one panel alone from its menu, in the link, until Back or Escape", async () => {
    const router = await open("?from=now-6h&to=now");
    await user.click(screen.getByRole("button", { name: "Menu of CPU" }));
    const menu = screen.getByRole("menu", { name: "Menu of CPU" });
    expect(within(menu).getAllByRole("menuitem").map((i) => i.textContent)).toEqual([
      "View",
      "Share",
      "Explore",
      "Inspect data",
      "Download CSV",
    ]);
    expect(within(menu).getByRole("menuitem", { name: "View" })).toHaveFocus();
    const explore = within(menu).getByRole("menuitem", { name: "Explore" });
    expect(new URL(explore.getAttribute("href")!, "http://x").searchParams.toString()).toBe(
      new URLSearchParams({
        q: "M::cpu:(avg(usage_user)) [::1m] BY host",
        from: "now-6h",
        to: "now",
        view: "line",
      }).toString(),
    );

    await user.keyboard("{Enter}");
    expect(router.state.location.search).toBe("?from=now-6h&to=now&viewPanel=p1");
    expect(screen.getByTestId("panel-view")).toBeInTheDocument();
    expect(screen.queryByTestId("dashboard-grid")).not.toBeInTheDocument();
    expect(document.title).toBe("CPU · Fleet · Dashboards · Ops · Vigil");
    expect(screen.getByRole("button", { name: "Back to the dashboard" })).toHaveFocus();

    await user.keyboard("{Enter}");
    expect(router.state.location.search).toBe("?from=now-6h&to=now");
    expect(screen.getByTestId("dashboard-grid")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole("button", { name: "Menu of CPU" })).toHaveFocus());

    await router.navigate("/w/w1/dashboards/d1?viewPanel=p1");
    await screen.findByTestId("panel-view");
    // focus moves in the same commit's effects as the Escape listener arrives
    await waitFor(() => expect(screen.getByRole("button", { name: "Back to the dashboard" })).toHaveFocus());
    await user.keyboard("{Escape}");
    expect(router.state.location.search).toBe("");
  });

  it("shows the panel with the focus alone on v, and the dashboard again on a second v", async () => {
    const router = await open();
    screen.getByRole("button", { name: "Menu of CPU" }).focus();
    await user.keyboard("v");
    expect(router.state.location.search).toBe("?viewPanel=p1");
    await user.keyboard("v");
    expect(router.state.location.search).toBe("");
    // not while the layout is edited
    await user.click(screen.getByRole("button", { name: "Edit" }));
    screen.getByRole("button", { name: "Menu of CPU" }).focus();
    await user.keyboard("v");
    expect(router.state.location.search).toBe("");
  });

  it("opens the panel with the focus, or the one shown alone, in the editor on e", async () => {
    const router = await open("?viewPanel=p1");
    await screen.findByTestId("panel-view");
    await user.keyboard("e");
    const editor = await screen.findByRole("dialog", { name: "Edit panel" });
    expect(within(editor).getByLabelText("Title")).toHaveValue("CPU");
    expect(router.state.location.search).toBe("");
    expect(screen.getByRole("toolbar", { name: "Dashboard editing" })).toBeInTheDocument();
    // not while the editor is open (e is a letter of a title)
    await user.click(within(editor).getByRole("button", { name: "Discard" }));
    screen.getByRole("button", { name: "Menu of CPU" }).focus();
    await user.keyboard("e");
    expect(await screen.findByRole("dialog", { name: "Edit panel" })).toBeInTheDocument();
  });

  it("says when the panel a link shows alone is not on the dashboard, and edits the whole layout", async () => {
    const router = await open("?viewPanel=p9");
    expect(screen.getByRole("heading", { name: "This panel is not on the dashboard" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Show the whole dashboard" }));
    expect(router.state.location.search).toBe("");

    await router.navigate("/w/w1/dashboards/d1?viewPanel=p1");
    await screen.findByTestId("panel-view");
    await user.click(screen.getByRole("button", { name: "Edit" }));
    expect(router.state.location.search).toBe("");
    expect(gridPanels()).toEqual(["CPU"]);
  });

  it("folds a row's panels away (not asked for) and back; while editing, rows are added and folding is a change", async () => {
    served = {
      ...DASHBOARD,
      spec: {
        ...DASHBOARD.spec,
        panels: [
          { id: "r1", type: "row", title: "Storage", grid: { x: 0, y: 0, w: 24, h: 1 } },
          { ...DASHBOARD.spec.panels![0], grid: { x: 0, y: 1, w: 12, h: 8 } },
          {
            id: "r2",
            type: "row",
            title: "Network",
            collapsed: true,
            grid: { x: 0, y: 9, w: 24, h: 1 },
            panels: [
              {
                id: "net",
                type: "timeseries",
                title: "Traffic",
                grid: { x: 0, y: 10, w: 24, h: 6 },
                queries: [{ query: "M::net:(avg(bytes_recv))" }],
              },
            ],
          },
        ],
      },
    };
    await open();
    const storage = screen.getByRole("button", { name: "Storage" });
    const network = screen.getByRole("button", { name: "Network" });
    expect(storage).toHaveAttribute("aria-expanded", "true");
    expect(network).toHaveAttribute("aria-expanded", "false");
    expect(screen.getByText("(1 panel)")).toBeInTheDocument();
    expect(gridPanels()).toEqual(["CPU"]);
    await waitFor(() => expect(queries.flat()).toEqual(["M::cpu:(avg(usage_user)) [::1m] BY host"]));

    await user.click(network);
    expect(gridPanels()).toEqual(["CPU", "Traffic"]);
    await waitFor(() => expect(queries.flat()).toContain("M::net:(avg(bytes_recv))"));
    await user.click(storage);
    expect(gridPanels()).toEqual(["Traffic"]);
    // looking is not editing
    expect(screen.getByTestId("save-state")).toHaveTextContent("Saved · v1");

    // the layout is edited as it is shown, which differs from what was saved
    await user.click(screen.getByRole("button", { name: "Edit" }));
    expect(screen.getByTestId("save-state")).toHaveTextContent("Unsaved changes");
    expect(gridPanels()).toEqual(["Traffic"]);
    await user.click(screen.getByRole("button", { name: "Add row" }));
    const titles = screen.getAllByRole("textbox", { name: "Row title" });
    expect(titles.map((t) => (t as HTMLInputElement).value)).toEqual(["Row title", "Storage", "Network"]);
    await user.clear(titles[0]);
    await user.type(titles[0], "Disks on $host");
    expect(screen.getByRole("button", { name: "Remove the row Disks on $host" })).toBeInTheDocument();
  }, 20_000);

  it("draws a repeated panel once per selected value, each asking for its own", async () => {
    served = {
      ...DASHBOARD,
      spec: {
        ...DASHBOARD.spec,
        variables: [{ name: "host", type: "custom", options: ["a", "b", "c"], multi: true }],
        panels: [
          {
            id: "p1",
            type: "timeseries",
            title: "CPU on $host",
            grid: { x: 0, y: 0, w: 12, h: 8 },
            repeat: "host",
            queries: [{ query: "M::cpu:(avg(usage_user)) { host = '$host' }" }],
          },
        ],
      },
    };
    await open("?var-host=a&var-host=c");
    expect(gridPanels()).toEqual(["CPU on a", "CPU on c"]);
    await waitFor(() =>
      expect(queries.flat().sort()).toEqual([
        "M::cpu:(avg(usage_user)) { host = 'a' }",
        "M::cpu:(avg(usage_user)) { host = 'c' }",
      ]),
    );
    // every value when none is selected
    await user.deselectOptions(screen.getByTestId("variable-host"), ["a", "c"]);
    expect(gridPanels()).toEqual(["CPU on a", "CPU on b", "CPU on c"]);
    // edited as one panel, its first copy, which says what it repeats for
    await user.click(screen.getByRole("button", { name: "Edit" }));
    expect(gridPanels()).toEqual(["CPU on a"]);
    expect(screen.getByText("repeats for $host")).toBeInTheDocument();
  });

  it("draws a repeated row once per value, its panels asking for that value; the row's repeat is set in edit mode", async () => {
    served = {
      ...DASHBOARD,
      spec: {
        ...DASHBOARD.spec,
        variables: [{ name: "dc", type: "custom", options: ["east", "west"], multi: true }],
        panels: [
          { id: "r", type: "row", title: "Data centre $dc", repeat: "dc", grid: { x: 0, y: 0, w: 24, h: 1 } },
          {
            id: "p1",
            type: "timeseries",
            title: "Load in $dc",
            grid: { x: 0, y: 1, w: 12, h: 8 },
            queries: [{ query: "M::system:(avg(load1)) { dc = '$dc' }" }],
          },
        ],
      },
    };
    await open();
    expect(screen.getAllByTestId("dashboard-row").map((r) => r.textContent)).toEqual(["▾Data centre east", "▾Data centre west"]);
    expect(gridPanels()).toEqual(["Load in east", "Load in west"]);
    await waitFor(() =>
      expect(queries.flat().sort()).toEqual(["M::system:(avg(load1)) { dc = 'east' }", "M::system:(avg(load1)) { dc = 'west' }"]),
    );
    // each copy folds on its own
    await user.click(screen.getByRole("button", { name: "Data centre west" }));
    expect(gridPanels()).toEqual(["Load in east"]);

    await user.click(screen.getByRole("button", { name: "Edit" }));
    expect(screen.getAllByTestId("dashboard-row")).toHaveLength(1);
    const repeat = screen.getByRole("combobox", { name: "Repeat for" });
    expect(repeat).toHaveValue("dc");
    await user.selectOptions(repeat, "");
    await user.click(screen.getByRole("button", { name: "Done editing" }));
    expect(screen.getAllByTestId("dashboard-row")).toHaveLength(1);
    expect(screen.getByTestId("save-state")).toHaveTextContent("Unsaved changes");
  });
});
