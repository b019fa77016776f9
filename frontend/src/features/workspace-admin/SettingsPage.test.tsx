import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, Outlet, RouterProvider } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Workspace } from "@/api/workspaces";
import { SettingsPage } from "./SettingsPage";
import { settingsRoutes } from "./settingsRoutes";

function renderSettings(role: Workspace["role"], path: string): ReturnType<typeof createMemoryRouter> {
  const workspace: Workspace = { id: "w1", name: "Acme", role, created_at: "2026-11-21T08:00:00Z" };
  const router = createMemoryRouter(
    [
      {
        path: "/w/:workspaceId",
        element: <Outlet context={workspace} />,
        children: [{ path: "settings", element: <SettingsPage />, children: settingsRoutes }],
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

describe("SettingsPage", () => {
  const fetchSpy = vi.fn(() => Promise.reject(new TypeError("offline")));
  beforeEach(() => vi.stubGlobal("fetch", fetchSpy));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchSpy.mockClear();
  });

  it("opens members for a viewer, marks the admin pages and says it is read-only", () => {
    const router = renderSettings("viewer", "/w/w1/settings");
    expect(router.state.location.pathname).toBe("/w/w1/settings/members");
    expect(screen.getByTestId("settings-read-only")).toHaveTextContent("Read-only: you are a viewer");
    const nav = screen.getByRole("navigation", { name: "Settings" });
    expect(nav).toHaveTextContent("API keysadmins");
    expect(nav).toHaveTextContent("Audit logadmins");
    expect(screen.getByRole("link", { name: "Members" })).toHaveClass("active");
  });

  it("titles the window after the section, the workspace and the app", async () => {
    renderSettings("viewer", "/w/w1/settings");
    expect(document.title).toBe("Members · Settings · Acme · Vigil");
    await userEvent.click(screen.getByRole("link", { name: /Audit log/ }));
    expect(document.title).toBe("Audit log · Settings · Acme · Vigil");
  });

  it("explains the admin pages to a viewer without asking the API for them", async () => {
    renderSettings("viewer", "/w/w1/settings/audit");
    expect(screen.getByRole("status")).toHaveTextContent("Only owners and admins can read the audit log.");
    await userEvent.click(screen.getByRole("link", { name: /API keys/ }));
    expect(screen.getByText("Only owners and admins can see, create or revoke keys.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Create key" })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("link", { name: /Invitations/ }));
    expect(screen.queryByRole("form", { name: "Invite someone" })).not.toBeInTheDocument();
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it("opens API keys for an admin, with the create form", () => {
    const router = renderSettings("admin", "/w/w1/settings");
    expect(router.state.location.pathname).toBe("/w/w1/settings/keys");
    expect(screen.queryByTestId("settings-read-only")).not.toBeInTheDocument();
    expect(screen.getByRole("form", { name: "Create a key" })).toBeInTheDocument();
  });
});
