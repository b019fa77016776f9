import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactElement } from "react";
import { createMemoryRouter, Outlet, RouterProvider } from "react-router";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { workspacesQueryKey } from "@/api/useWorkspaces";
import type { Workspace, Workspaces } from "@/api/workspaces";
import { client } from "@/lib/apiClient";
import { SettingsPage } from "./SettingsPage";
import { settingsRoutes } from "./settingsRoutes";

const ID = "3f2a9c1b-5d6e-4f70-8a9b-0c1d2e3f4a5b";

const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

/** The workspace endpoints as the API answers them, including its validation of names. */
function serve() {
  return vi.fn(async (input: RequestInfo | URL) => {
    const req = input instanceof Request ? input : new Request(String(input));
    const url = new URL(req.url);
    if (url.pathname === `/api/v1/workspaces/${ID}/members`) {
      return json(200, { data: [], count: 3 });
    }
    if (url.pathname === `/api/v1/workspaces/${ID}` && req.method === "PATCH") {
      const { name } = (await req.json()) as { name: string };
      if (name.length > 100) {
        return json(422, {
          detail: "body.name: String should have at most 100 characters",
          code: "validation_error",
          errors: [{ loc: ["body", "name"], msg: "String should have at most 100 characters", type: "string_too_long" }],
        });
      }
      return json(200, { id: ID, name, role: "owner", created_at: "2026-11-21T08:00:00Z" });
    }
    if (url.pathname === `/api/v1/workspaces/${ID}` && req.method === "DELETE") {
      const { confirm_name } = (await req.json()) as { confirm_name: string };
      return confirm_name === "Acme"
        ? json(200, { message: "Workspace deleted" })
        : json(400, { detail: "confirm_name does not match the workspace's name", code: "confirmation_mismatch" });
    }
    if (url.pathname === "/api/v1/workspaces") return json(200, { data: [], count: 0 });
    return json(500, { detail: `unexpected ${req.method} ${url.pathname}`, code: "internal" });
  });
}

/** Settings under a shell that, like AppShell, hands the pages the workspace from the cached list. */
function renderGeneral(role: Workspace["role"]): { router: ReturnType<typeof createMemoryRouter>; qc: QueryClient } {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  const workspace: Workspace = { id: ID, name: "Acme", role, created_at: "2026-11-21T08:00:00Z" };
  const other: Workspace = { id: "other", name: "Staging", role: "viewer", created_at: "2026-11-20T08:00:00Z" };
  qc.setQueryData<Workspaces>(workspacesQueryKey, { data: [workspace, other], count: 2 });
  function Shell(): ReactElement {
    const list = qc.getQueryData<Workspaces>(workspacesQueryKey);
    const current = list?.data.find((w) => w.id === ID) ?? workspace;
    return <Outlet context={current} />;
  }
  const router = createMemoryRouter(
    [
      { path: "/", element: <p>Home</p> },
      {
        path: "/w/:workspaceId",
        element: <Shell />,
        children: [{ path: "settings", element: <SettingsPage />, children: settingsRoutes }],
      },
    ],
    { initialEntries: [`/w/${ID}/settings/general`] },
  );
  render(
    <QueryClientProvider client={qc}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, qc };
}

describe("GeneralPage", () => {
  let fetchSpy = serve();
  beforeAll(() => client.setConfig({ baseUrl: window.location.origin }));
  afterAll(() => client.setConfig({ baseUrl: "" }));
  beforeEach(() => {
    fetchSpy = serve();
    vi.stubGlobal("fetch", fetchSpy);
  });
  afterEach(() => vi.unstubAllGlobals());

  it("comes first in the settings navigation", () => {
    renderGeneral("owner");
    const links = within(screen.getByRole("navigation", { name: "Settings" })).getAllByRole("link");
    expect(links[0]).toHaveTextContent("General");
    expect(links[0]).toHaveClass("active");
  });

  it("shows a viewer the name and id read-only, and says who may change them", () => {
    renderGeneral("viewer");
    expect(screen.getByTestId("general-read-only")).toHaveTextContent(
      "You are a viewer here: only owners and admins can rename this workspace, and only owners can delete it.",
    );
    expect(screen.getByRole("textbox", { name: "Workspace name" })).toHaveAttribute("readonly");
    expect(screen.getByRole("textbox", { name: "Workspace name" })).toHaveValue("Acme");
    expect(screen.getByRole("textbox", { name: "Workspace ID" })).toHaveValue(ID);
    expect(screen.getByRole("button", { name: "Copy workspace ID" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Save name" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Delete workspace" })).not.toBeInTheDocument();
    expect(screen.getByTestId("delete-owners-only")).toHaveTextContent("Only owners can delete a workspace.");
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it("lets an admin rename, shows the API's validation error at the field, but not delete", async () => {
    const { qc } = renderGeneral("admin");
    const field = screen.getByRole("textbox", { name: "Workspace name" });
    const save = screen.getByRole("button", { name: "Save name" });
    expect(save).toBeDisabled();
    await userEvent.clear(field);
    await userEvent.click(save);
    expect(field).toHaveAccessibleDescription("Give the workspace a name.");
    expect(fetchSpy).not.toHaveBeenCalled();

    await userEvent.type(field, "x".repeat(101));
    await userEvent.click(save);
    expect(await screen.findByText("String should have at most 100 characters")).toBeInTheDocument();
    expect(field).toHaveAttribute("aria-invalid", "true");
    expect(field).toHaveAccessibleDescription("String should have at most 100 characters");

    await userEvent.clear(field);
    await userEvent.type(field, "  Acme Production ");
    expect(field).not.toHaveAttribute("aria-invalid");
    await userEvent.click(save);
    expect(await screen.findByTestId("rename-saved")).toHaveTextContent("Saved.");
    expect(qc.getQueryData<Workspaces>(workspacesQueryKey)?.data[0]?.name).toBe("Acme Production");
    expect(screen.queryByRole("button", { name: "Delete workspace" })).not.toBeInTheDocument();
  });

  it("deletes for an owner once the name is typed, then leaves for home with the list updated", async () => {
    const { router, qc } = renderGeneral("owner");
    await userEvent.click(screen.getByRole("button", { name: "Delete workspace" }));
    const dialog = screen.getByRole("alertdialog", { name: 'Delete workspace "Acme"?' });
    expect(dialog).toHaveAccessibleDescription(/all its metrics data, dashboards, saved queries, API keys and invitations/);
    expect(dialog).toHaveTextContent("Ingestion stops: agents sending with its keys are refused within seconds.");
    expect(await within(dialog).findByText(/All 3 members lose access\./)).toBeInTheDocument();
    const verb = within(dialog).getByRole("button", { name: "Delete workspace" });
    expect(verb).toBeDisabled();
    await userEvent.type(within(dialog).getByRole("textbox", { name: "Type Acme to confirm" }), "Acme");
    await userEvent.click(verb);

    await screen.findByText("Home");
    expect(router.state.location.pathname).toBe("/");
    const deletion = fetchSpy.mock.calls.map(([r]) => r as Request).find((r) => r.method === "DELETE");
    expect(deletion?.url).toMatch(new RegExp(`/api/v1/workspaces/${ID}$`));
    expect(qc.getQueryData<Workspaces>(workspacesQueryKey)?.data.map((w) => w.id)).not.toContain(ID);
  });

  it("keeps the workspace when the typed confirmation is cancelled", async () => {
    renderGeneral("owner");
    await userEvent.click(screen.getByRole("button", { name: "Delete workspace" }));
    await userEvent.keyboard("Acm{Escape}");
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Delete workspace" })).toHaveFocus();
    expect(fetchSpy.mock.calls.some(([r]) => (r as Request).method === "DELETE")).toBe(false);
  });
});
