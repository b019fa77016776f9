import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, Outlet, RouterProvider } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { client } from "@/client/client.gen";
import type { Workspace } from "@/features/workspaces/api";
import { REFRESH_PRESETS } from "@/lib/refresh";
import { ExplorePage } from "./ExplorePage";
import { captureDownloads } from "@/test/downloads";

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
});

