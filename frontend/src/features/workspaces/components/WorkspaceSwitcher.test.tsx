import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Workspace } from "@/api/workspaces";
import { client } from "@/lib/apiClient";
import { WorkspaceSwitcher } from "./WorkspaceSwitcher";

const PROD_A: Workspace = { id: "3f2a9c1b-0000-4000-8000-000000000001", name: "Production", role: "owner", created_at: "2026-11-01T08:00:00Z" };
const PROD_B: Workspace = { id: "a09be77f-0000-4000-8000-000000000002", name: "Production", role: "viewer", created_at: "2026-11-02T08:00:00Z" };
const STAGING: Workspace = { id: "7c41d0e2-0000-4000-8000-000000000003", name: "Staging", role: "admin", created_at: "2026-11-03T08:00:00Z" };
const CREATED: Workspace = { id: "5e5e5e5e-0000-4000-8000-000000000004", name: "Lab", role: "owner", created_at: "2026-11-04T08:00:00Z" };

const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

function renderSwitcher(current: Workspace, onPick = vi.fn()): { router: ReturnType<typeof createMemoryRouter>; onPick: typeof onPick } {
  const router = createMemoryRouter(
    [
      {
        path: "/w/:workspaceId/*",
        element: <WorkspaceSwitcher workspaces={[PROD_A, STAGING, PROD_B]} current={current} onPick={onPick} />,
      },
    ],
    { initialEntries: [`/w/${current.id}/explore`] },
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, onPick };
}

const picker = (): HTMLElement => screen.getByTestId("workspace-picker");

describe("WorkspaceSwitcher", () => {
  const fetchSpy = vi.fn(async (input: RequestInfo | URL) => {
    const req = input instanceof Request ? input : new Request(String(input));
    if (new URL(req.url).pathname === "/api/v1/workspaces" && req.method === "POST") return json(201, CREATED);
    if (new URL(req.url).pathname === "/api/v1/workspaces") return json(200, { data: [PROD_A, STAGING, PROD_B, CREATED], count: 4 });
    return json(500, { detail: "unexpected", code: "internal" });
  });
  beforeAll(() => client.setConfig({ baseUrl: window.location.origin }));
  afterAll(() => client.setConfig({ baseUrl: "" }));
  beforeEach(() => vi.stubGlobal("fetch", fetchSpy));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchSpy.mockClear();
  });

  it("tells apart workspaces that share a name by a short id, and only those", async () => {
    renderSwitcher(PROD_A);
    expect(picker()).toHaveAccessibleName("Workspace: Production (3f2a9c1b)");
    expect(picker()).toHaveTextContent("Production3f2a9c1b");
    await userEvent.click(picker());
    const menu = screen.getByRole("menu", { name: "Workspaces" });
    expect(within(menu).getAllByRole("menuitemradio").map((i) => i.getAttribute("aria-label"))).toEqual([
      "Production (3f2a9c1b), owner",
      "Staging, admin",
      "Production (a09be77f), viewer",
    ]);
    expect(within(menu).getByRole("menuitemradio", { name: /^Staging/ })).not.toHaveTextContent(/[0-9a-f]{8}/);
  });

  it("shows no short id on a workspace whose name is its own", () => {
    renderSwitcher(STAGING);
    expect(picker()).toHaveAccessibleName("Workspace: Staging");
    expect(picker()).toHaveAttribute("data-workspace-id", STAGING.id);
  });

  it("opens on the current workspace, moves with the arrow keys, picks with Enter and closes on Escape", async () => {
    const { onPick } = renderSwitcher(PROD_A);
    picker().focus();
    await userEvent.keyboard("{ArrowDown}");
    const current = screen.getByRole("menuitemradio", { name: /^Production \(3f2a9c1b\)/ });
    expect(current).toHaveFocus();
    expect(current).toHaveAttribute("aria-checked", "true");
    await userEvent.keyboard("{End}");
    expect(screen.getByRole("menuitem", { name: "New workspace" })).toHaveFocus();
    await userEvent.keyboard("{ArrowDown}");
    expect(current).toHaveFocus();
    await userEvent.keyboard("{Escape}");
    expect(screen.queryByRole("menu")).not.toBeInTheDocument();
    expect(picker()).toHaveFocus();
    expect(picker()).toHaveAttribute("aria-expanded", "false");

    await userEvent.click(picker());
    await userEvent.keyboard("{ArrowDown}{Enter}");
    expect(onPick).toHaveBeenCalledWith(STAGING.id);
    expect(screen.queryByRole("menu")).not.toBeInTheDocument();
  });

  it("creates a workspace from the menu with the shared form and opens its getting-started page", async () => {
    const { router } = renderSwitcher(PROD_A);
    await userEvent.click(picker());
    await userEvent.click(screen.getByRole("menuitem", { name: "New workspace" }));
    const dialog = screen.getByRole("dialog", { name: "New workspace" });
    const field = within(dialog).getByRole("textbox", { name: "Workspace name" });
    expect(field).toHaveFocus();
    await userEvent.click(within(dialog).getByRole("button", { name: "Create workspace" }));
    expect(field).toHaveAccessibleDescription("Give the workspace a name.");
    await userEvent.type(field, "Lab{Enter}");
    await vi.waitFor(() => expect(router.state.location.pathname).toBe(`/w/${CREATED.id}/get-started`));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    const created = fetchSpy.mock.calls.map(([r]) => r as Request).find((r) => r.method === "POST");
    expect(await created?.json()).toEqual({ name: "Lab" });
  });

  it("closes the new-workspace dialog on Cancel or Escape without creating anything", async () => {
    renderSwitcher(PROD_A);
    await userEvent.click(picker());
    await userEvent.click(screen.getByRole("menuitem", { name: "New workspace" }));
    await userEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(picker()).toHaveFocus();
    await userEvent.click(picker());
    await userEvent.click(screen.getByRole("menuitem", { name: "New workspace" }));
    await userEvent.keyboard("{Escape}");
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});
