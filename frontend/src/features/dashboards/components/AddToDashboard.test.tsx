import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { client } from "@/client/client.gen";
import type { QueryItem } from "@/lib/dql/queryRefs";
import { AddToDashboard } from "./AddToDashboard";

const FLEET = {
  id: "d1",
  workspace_id: "w1",
  title: "Fleet",
  description: "",
  tags: [],
  version: 3,
  created_at: "2026-11-21T10:00:00Z",
  updated_at: "2026-11-21T10:00:00Z",
  created_by: null,
  updated_by: null,
  spec: {
    schema_version: 1,
    panels: [{ id: "panel-1", type: "timeseries", title: "CPU", grid: { x: 0, y: 0, w: 12, h: 8 }, queries: [{ ref_id: "A", query: "M::cpu:(avg(usage_user))" }] }],
  },
};

const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

describe("AddToDashboard", () => {
  const user = userEvent.setup({ delay: null });
  const sent: { method: string; path: string; body: Record<string, unknown> | null }[] = [];
  let version = 3;
  let conflicts = 0;
  beforeEach(() => {
    client.setConfig({ baseUrl: "http://vigil.test" });
    sent.length = 0;
    version = 3;
    conflicts = 0;
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = input instanceof Request ? input : new Request(input, init);
      const path = new URL(req.url).pathname;
      const body = req.method === "GET" ? null : ((await req.json()) as Record<string, unknown>);
      sent.push({ method: req.method, path, body });
      if (req.method === "GET" && path.endsWith("/dashboards")) return json(200, { data: [FLEET], count: 1 });
      if (req.method === "GET") return json(200, { ...FLEET, version });
      if (req.method === "PATCH") {
        if (conflicts > 0) {
          conflicts -= 1;
          version += 1;
          return json(409, { detail: { code: "conflict", message: "A newer version exists." } });
        }
        return json(200, { ...FLEET, version: version + 1, spec: body!.spec });
      }
      return json(201, { ...FLEET, id: "d2", title: body!.title, version: 1, spec: body!.spec });
    });
  });
  afterEach(() => {
    client.setConfig({ baseUrl: "" });
    vi.unstubAllGlobals();
  });

  const open = (queries: QueryItem[] = [{ ref_id: "A", query: "M::mem:(avg(used)) BY host" }]) => {
    const router = createMemoryRouter(
      [
        {
          path: "/w/w1/explore",
          element: <AddToDashboard workspaceId="w1" queries={queries} view="area" unit="bytes" range={{ from: "now-6h", to: "now" }} />,
        },
        { path: "/w/w1/dashboards/:id", element: <p>dashboard page</p> },
      ],
      { initialEntries: ["/w/w1/explore"] },
    );
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    return router;
  };

  it("adds the query as a panel drawn the same way to the chosen dashboard, asking again after someone else's save", async () => {
    conflicts = 1;
    const router = open();
    await user.click(screen.getByRole("button", { name: "Add to dashboard" }));
    const dialog = screen.getByRole("dialog", { name: "Add to dashboard" });
    const select = within(dialog).getByLabelText("Dashboard");
    expect(select).toHaveFocus();
    await within(select).findByRole("option", { name: "Fleet" });
    expect(select).toHaveValue("d1");
    expect(within(dialog).getByLabelText("Panel title")).toHaveValue("mem avg(used)");
    await user.click(within(dialog).getByRole("button", { name: "Add panel" }));

    await screen.findByText("dashboard page");
    expect(router.state.location.pathname).toBe("/w/w1/dashboards/d1");
    expect(router.state.location.search).toBe("?from=now-6h&to=now");
    const puts = sent.filter((r) => r.method === "PATCH");
    expect(puts.map((p) => p.body!.base_version)).toEqual([3, 4]);
    const spec = puts[1].body!.spec as { panels: { id: string; type: string; title: string; unit: string; queries: unknown[] }[] };
    expect(spec.panels.map((p) => p.id)).toEqual(["panel-1", "panel-2"]);
    expect(spec.panels[1]).toMatchObject({
      type: "area",
      title: "mem avg(used)",
      unit: "bytes",
      queries: [{ ref_id: "A", query: "M::mem:(avg(used)) BY host" }],
    });
    expect(puts[1].body!.message).toBe('Added the panel "mem avg(used)" from Explore');
  });

  it("makes a new dashboard of it, once it has a title", async () => {
    const router = open();
    await user.click(screen.getByRole("button", { name: "Add to dashboard" }));
    const dialog = screen.getByRole("dialog", { name: "Add to dashboard" });
    await within(dialog).findByRole("option", { name: "Fleet" });
    await user.selectOptions(within(dialog).getByLabelText("Dashboard"), "A new dashboard…");
    await user.click(within(dialog).getByRole("button", { name: "Add panel" }));
    expect(within(dialog).getByText("Name the new dashboard.")).toBeInTheDocument();
    expect(sent.some((r) => r.method === "POST")).toBe(false);

    await user.type(within(dialog).getByLabelText("New dashboard title"), "Memory");
    await user.click(within(dialog).getByRole("button", { name: "Add panel" }));
    await screen.findByText("dashboard page");
    expect(router.state.location.pathname).toBe("/w/w1/dashboards/d2");
    const post = sent.find((r) => r.method === "POST")!;
    expect(post.body!.title).toBe("Memory");
    expect(post.body!.spec).toMatchObject({ schema_version: 1, time: { from: "now-6h", to: "now" }, panels: [{ id: "panel-1", type: "area" }] });
  });

  it("puts every query in the panel, with its legend and hidden flag, titled after the first one drawn", async () => {
    open([
      { ref_id: "A", query: "M::cpu:(avg(usage_user)) BY host", hidden: true },
      { ref_id: "B", query: "M::mem:(avg(used)) BY host", legend_format: "mem {{host}}" },
    ]);
    await user.click(screen.getByRole("button", { name: "Add to dashboard" }));
    const dialog = screen.getByRole("dialog", { name: "Add to dashboard" });
    expect(dialog).toHaveTextContent("The 2 queries become a new panel");
    await within(dialog).findByRole("option", { name: "Fleet" });
    expect(within(dialog).getByLabelText("Panel title")).toHaveValue("mem avg(used)");
    await user.click(within(dialog).getByRole("button", { name: "Add panel" }));
    await screen.findByText("dashboard page");
    const spec = sent.find((r) => r.method === "PATCH")!.body!.spec as { panels: { queries: unknown[] }[] };
    expect(spec.panels[1].queries).toEqual([
      { ref_id: "A", query: "M::cpu:(avg(usage_user)) BY host", hidden: true },
      { ref_id: "B", query: "M::mem:(avg(used)) BY host", legend_format: "mem {{host}}" },
    ]);
  });

  it("says why when the dashboard cannot take the panel, and keeps the dialog", async () => {
    conflicts = 2;
    open();
    await user.click(screen.getByRole("button", { name: "Add to dashboard" }));
    const dialog = screen.getByRole("dialog", { name: "Add to dashboard" });
    await within(dialog).findByRole("option", { name: "Fleet" });
    await user.click(within(dialog).getByRole("button", { name: "Add panel" }));
    expect(await within(dialog).findByText("The panel was not added")).toBeInTheDocument();
    expect(screen.getByRole("dialog", { name: "Add to dashboard" })).toBeInTheDocument();
  });
});
