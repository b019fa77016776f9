import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, Outlet, RouterProvider } from "react-router";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Workspace } from "@/api/workspaces";
import { client } from "@/lib/apiClient";
import { AuditLogPage } from "./AuditLogPage";
import type { AuditEvent } from "./api";
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES } from "./auditFilters";

const EVENT: AuditEvent = {
  id: "e1",
  workspace_id: "w1",
  actor_user_id: "u1",
  actor_email: "ada@example.com",
  action: "benchmark.create",
  target_type: "benchmark_run",
  target_id: "b1",
  details: {},
  ip: "127.0.0.1",
  user_agent: null,
  created_at: "2026-11-21T08:00:00Z",
};

const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

/** An audit log of `count` events; any page holds at most the one event, past the last none. */
function serve(count: number) {
  return vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.pathname === "/api/v1/workspaces/w1/members") return json(200, { data: [], count: 0 });
    if (url.pathname === "/api/v1/workspaces/w1/audit") {
      const offset = Number(url.searchParams.get("offset") ?? 0);
      return json(200, { data: offset < count ? [EVENT] : [], count });
    }
    return json(500, { detail: `unexpected ${url.pathname}`, code: "internal" });
  });
}

function renderAudit(path: string): ReturnType<typeof createMemoryRouter> {
  const workspace: Workspace = { id: "w1", name: "Acme", role: "admin", created_at: "2026-11-21T08:00:00Z" };
  const router = createMemoryRouter(
    [{ path: "/w/:workspaceId", element: <Outlet context={workspace} />, children: [{ path: "audit", element: <AuditLogPage /> }] }],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

describe("AuditLogPage", () => {
  // Node's Request needs absolute URLs; in the browser the client calls its own origin.
  beforeAll(() => client.setConfig({ baseUrl: window.location.origin }));
  afterAll(() => client.setConfig({ baseUrl: "" }));
  afterEach(() => vi.unstubAllGlobals());

  it("says a page past the last one has no entries and leads back to the first, never 'Page 99 of 1'", async () => {
    const fetchSpy = serve(3);
    vi.stubGlobal("fetch", fetchSpy);
    const router = renderAudit("/w/w1/audit?page=99&action=member.*");
    const empty = await screen.findByTestId("audit-past-last-page");
    expect(empty).toHaveTextContent("There are no entries on page 99");
    expect(empty).toHaveTextContent("These filters match one page of events.");
    expect(screen.queryByText(/Page 99 of/)).not.toBeInTheDocument();
    expect(screen.queryByRole("navigation", { name: "Audit log pages" })).not.toBeInTheDocument();
    expect(screen.queryByRole("table")).not.toBeInTheDocument();

    await userEvent.click(within(empty).getByRole("button", { name: "Go to the first page" }));
    // The filters stay; only the page goes.
    expect(router.state.location.search).toBe("?action=member.*");
    expect(await screen.findByRole("table", { name: "Audit log events" })).toBeInTheDocument();
    expect(screen.getByTestId("audit-summary")).toHaveTextContent("Showing 1–3 of 3");
    expect(screen.queryByText(/Page 1 of/)).not.toBeInTheDocument();
    expect(screen.queryByTestId("audit-past-last-page")).not.toBeInTheDocument();
  });

  it("counts the pages when there are several", async () => {
    vi.stubGlobal("fetch", serve(120));
    renderAudit("/w/w1/audit?page=7");
    expect(await screen.findByTestId("audit-past-last-page")).toHaveTextContent("These filters match 3 pages of events.");
  });

  it("still says there is nothing at all when nothing matches", async () => {
    vi.stubGlobal("fetch", serve(0));
    renderAudit("/w/w1/audit?page=4");
    expect(await screen.findByTestId("audit-empty")).toHaveTextContent("No events match these filters");
    expect(screen.queryByTestId("audit-past-last-page")).not.toBeInTheDocument();
  });

  it("offers every action and target type of the shared list in its filters", async () => {
    vi.stubGlobal("fetch", serve(1));
    renderAudit("/w/w1/audit");
    await screen.findByRole("table", { name: "Audit log events" });
    const action = screen.getByRole("combobox", { name: "Action" });
    const offered = within(action)
      .getAllByRole("option")
      .map((o) => o.getAttribute("value"));
    for (const family of AUDIT_ACTIONS) expect(offered).toEqual(expect.arrayContaining([family.family, ...family.actions]));
    expect(offered).toEqual(expect.arrayContaining(["benchmark.*", "benchmark.create", "benchmark.delete", "workspace.delete"]));
    const targets = within(screen.getByRole("combobox", { name: "Target type" }))
      .getAllByRole("option")
      .map((o) => o.getAttribute("value"));
    expect(targets).toEqual(["", ...AUDIT_TARGET_TYPES]);
    expect(targets).toContain("benchmark_run");
  });
});
