import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, Outlet, RouterProvider } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Dashboard, DashboardSummary } from "@/api/dashboards";
import type { Workspace } from "@/api/workspaces";
import { client } from "@/client/client.gen";
import { DashboardsPage } from "./DashboardsPage";

const EDITOR = { id: "w1", name: "Ops", role: "editor" } as Workspace;
const VIEWER = { id: "w1", name: "Ops", role: "viewer" } as Workspace;

function summary(id: string, title: string, tags: string[]): DashboardSummary {
  return {
    id,
    workspace_id: "w1",
    title,
    description: "",
    tags,
    version: 1,
    created_at: "2026-11-21T10:00:00Z",
    updated_at: "2026-11-21T10:00:00Z",
  };
}

const SHIPPED: DashboardSummary[] = [
  summary("d1", "Checkout latency", ["prod", "payments"]),
  summary("d2", "CPU by host", ["hosts", "prod"]),
  summary("d3", "Host overview", ["hosts", "vigil-agent"]),
  summary("d4", "Scratch", []),
];

describe("DashboardsPage", () => {
  const user = userEvent.setup({ delay: null });
  let dashboards: DashboardSummary[];
  const requests: string[] = [];

  beforeEach(() => {
    client.setConfig({ baseUrl: "http://vigil.test" });
    dashboards = [...SHIPPED];
    requests.length = 0;
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = input instanceof Request ? input : new Request(input, init);
      const path = new URL(req.url).pathname;
      requests.push(`${req.method} ${path}`);
      const json = (body: unknown, status = 200): Response =>
        new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
      const id = path.match(/\/dashboards\/([^/]+)$/)?.[1];
      if (req.method === "GET" && !id) return json({ data: dashboards, count: dashboards.length });
      if (req.method === "GET") {
        const d = dashboards.find((x) => x.id === id);
        return json({ ...d, spec: { schema_version: 1, panels: [] }, created_by: null, updated_by: null } as Dashboard);
      }
      if (req.method === "POST") {
        const body = (await req.json()) as { title: string; tags: string[] };
        const created = summary(`d${dashboards.length + 1}`, body.title, body.tags ?? []);
        dashboards = [...dashboards, created];
        return json({ ...created, spec: { schema_version: 1, panels: [] }, created_by: null, updated_by: null }, 201);
      }
      if (req.method === "DELETE") {
        dashboards = dashboards.filter((x) => x.id !== id);
        return new Response(null, { status: 204 });
      }
      return json({ detail: "unexpected" }, 500);
    });
  });
  afterEach(() => {
    client.setConfig({ baseUrl: "" });
    vi.unstubAllGlobals();
  });

  const open = async (search = "", workspace = EDITOR) => {
    const router = createMemoryRouter(
      [
        {
          path: "/w/:workspaceId",
          element: <Outlet context={workspace} />,
          children: [
            { path: "dashboards", element: <DashboardsPage /> },
            { path: "dashboards/:dashboardId", element: <p>one dashboard</p> },
            { path: "explore", element: <p>Explore</p> },
          ],
        },
      ],
      { initialEntries: ["/w/w1/explore", `/w/w1/dashboards${search}`], initialIndex: 1 },
    );
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    return router;
  };
  const shownTitles = (): string[] =>
    within(screen.getByTestId("dashboards-table"))
      .queryAllByRole("link")
      .map((a) => a.textContent ?? "");
  const searchField = (): HTMLElement => screen.getByRole("searchbox", { name: "Search dashboards" });
  const count = (): HTMLElement => screen.getByText(/ of \d+ dashboards?$/);
  const params = (router: Awaited<ReturnType<typeof open>>): URLSearchParams =>
    new URLSearchParams(router.state.location.search);

  it("filters as you type, by every word in the title or a tag, any case, and keeps the search in the URL", async () => {
    const router = await open();
    await screen.findByRole("link", { name: "Scratch" });
    expect(shownTitles()).toEqual(["Checkout latency", "CPU by host", "Host overview", "Scratch"]);
    expect(screen.getByText((_, el) => el?.getAttribute("role") === "status" && el.tagName === "P")).toHaveTextContent("");

    await user.type(searchField(), "HOST");
    expect(shownTitles()).toEqual(["CPU by host", "Host overview"]);
    await user.type(searchField(), " prod");
    expect(searchField()).toHaveValue("HOST prod");
    expect(shownTitles()).toEqual(["CPU by host"]);
    expect(count()).toHaveTextContent("1 of 4 dashboards");
    expect(count()).toHaveAttribute("role", "status");
    await waitFor(() => expect(params(router).get("q")).toBe("HOST prod"));
    // typing replaces the page's history entry: Back leaves the list, not one letter
    expect(router.state.historyAction).toBe("REPLACE");
    expect(router.state.location.pathname).toBe("/w/w1/dashboards");
    await act(() => router.navigate(-1));
    await waitFor(() => expect(router.state.location.pathname).toBe("/w/w1/explore"));
  });

  it("narrows to a tag clicked in the list, then to dashboards having all the tags chosen", async () => {
    const router = await open();
    await screen.findByRole("link", { name: "Scratch" });
    const table = screen.getByTestId("dashboards-table");
    await user.click(within(table).getAllByRole("button", { name: "Filter by tag prod" })[0]);
    expect(shownTitles()).toEqual(["Checkout latency", "CPU by host"]);
    expect(within(table).getAllByRole("button", { name: "Filter by tag prod" })[0]).toHaveAttribute("aria-pressed", "true");
    expect(screen.getByRole("list", { name: "Tag filters" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Remove tag filter prod" })).toBeInTheDocument();
    expect(count()).toHaveTextContent("2 of 4 dashboards");

    await user.click(within(table).getByRole("button", { name: "Filter by tag hosts" }));
    expect(shownTitles()).toEqual(["CPU by host"]);
    await waitFor(() => expect(params(router).getAll("tag")).toEqual(["prod", "hosts"]));

    // the chip takes its tag away and hands the focus to the search field
    await user.click(screen.getByRole("button", { name: "Remove tag filter prod" }));
    expect(shownTitles()).toEqual(["CPU by host", "Host overview"]);
    expect(searchField()).toHaveFocus();
    await waitFor(() => expect(params(router).getAll("tag")).toEqual(["hosts"]));

    // a pressed tag in the list takes itself away too
    await user.click(within(table).getAllByRole("button", { name: "Filter by tag hosts" })[0]);
    expect(shownTitles()).toHaveLength(4);
    expect(screen.queryByRole("list", { name: "Tag filters" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Clear filters" })).not.toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe(""));
  });

  it("opens a shared link filtered, and Clear filters shows everything again", async () => {
    const router = await open("?q=host&tag=hosts&tag=vigil-agent");
    await screen.findByRole("link", { name: "Host overview" });
    expect(searchField()).toHaveValue("host");
    expect(shownTitles()).toEqual(["Host overview"]);
    expect(screen.getByRole("button", { name: "Remove tag filter hosts" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Remove tag filter vigil-agent" })).toBeInTheDocument();
    expect(count()).toHaveTextContent("1 of 4 dashboards");

    await user.click(screen.getByRole("button", { name: "Clear filters" }));
    expect(searchField()).toHaveValue("");
    expect(shownTitles()).toHaveLength(4);
    expect(searchField()).toHaveFocus();
    await waitFor(() => expect(router.state.location.search).toBe(""));
  });

  it("says what was searched when nothing matches, and offers to clear it", async () => {
    const router = await open("?tag=prod");
    await screen.findByRole("link", { name: "CPU by host" });
    await user.type(searchField(), "memory");
    const none = screen.getByTestId("dashboards-no-match");
    expect(none).toHaveTextContent("No dashboards match");
    expect(none).toHaveTextContent("No dashboard with the tag prod matches “memory”.");
    expect(screen.queryByTestId("dashboards-table")).not.toBeInTheDocument();
    expect(count()).toHaveTextContent("0 of 4 dashboards");

    await user.click(within(none).getByRole("button", { name: "Clear filters" }));
    expect(shownTitles()).toHaveLength(4);
    expect(searchField()).toHaveValue("");
    await waitFor(() => expect(router.state.location.search).toBe(""));
  });

  it("follows the URL when a link or Back changes it, not only the field", async () => {
    const router = await open("?q=cpu");
    await screen.findByRole("link", { name: "CPU by host" });
    await act(() => router.navigate("/w/w1/dashboards")); // the Dashboards link in the header
    await waitFor(() => expect(searchField()).toHaveValue(""));
    expect(shownTitles()).toHaveLength(4);
    await act(() => router.navigate("/w/w1/dashboards?q=checkout"));
    await waitFor(() => expect(searchField()).toHaveValue("checkout"));
    expect(shownTitles()).toEqual(["Checkout latency"]);
  });

  it("keeps the empty workspace's own message, without a search field", async () => {
    dashboards = [];
    await open("?q=cpu");
    expect(await screen.findByText("No dashboards yet")).toBeInTheDocument();
    expect(screen.getByText("Create one above; it starts with a CPU panel and a host variable.")).toBeInTheDocument();
    expect(screen.queryByRole("searchbox")).not.toBeInTheDocument();
    expect(screen.queryByText("No dashboards match")).not.toBeInTheDocument();
  });

  it("still duplicates and deletes from a filtered list", async () => {
    await open("?tag=payments");
    await screen.findByRole("link", { name: "Checkout latency" });
    expect(shownTitles()).toEqual(["Checkout latency"]);

    await user.click(screen.getByRole("button", { name: "Duplicate Checkout latency" }));
    await screen.findByRole("link", { name: "Copy of Checkout latency" });
    expect(shownTitles()).toEqual(["Checkout latency", "Copy of Checkout latency"]);
    expect(count()).toHaveTextContent("2 of 5 dashboards");

    await user.click(screen.getByRole("button", { name: "Delete Checkout latency" }));
    const dialog = await screen.findByRole("alertdialog");
    await user.click(within(dialog).getByRole("button", { name: "Delete" }));
    await waitFor(() => expect(shownTitles()).toEqual(["Copy of Checkout latency"]));
    expect(requests).toContain("DELETE /api/v1/workspaces/w1/dashboards/d1");
  });

  it("lets viewers search and pick tags, without the editing buttons", async () => {
    await open("", VIEWER);
    await screen.findByRole("link", { name: "Scratch" });
    expect(screen.getByText("You can view dashboards; ask an editor or admin to change them.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /^(Duplicate|Delete) / })).not.toBeInTheDocument();
    await user.click(screen.getAllByRole("button", { name: "Filter by tag hosts" })[0]);
    expect(shownTitles()).toEqual(["CPU by host", "Host overview"]);
  });
});
