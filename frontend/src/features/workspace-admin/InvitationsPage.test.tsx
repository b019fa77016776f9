import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, Outlet, RouterProvider } from "react-router";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Workspace } from "@/api/workspaces";
import { client } from "@/lib/apiClient";
import { InvitationsPage } from "./InvitationsPage";
import type { Invitation } from "./api";

const PENDING: Invitation = {
  id: "i1",
  workspace_id: "w1",
  email: "grace@example.com",
  role: "editor",
  created_at: "2026-11-21T08:00:00Z",
  expires_at: "2099-11-28T08:00:00Z",
  accepted_at: null,
  revoked_at: null,
};

const DUPLICATE =
  "grace@example.com already has a pending invitation to this workspace: reuse the link sent with it, or revoke it to create a new one";

const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

describe("InvitationsPage", () => {
  // Node's Request needs absolute URLs; in the browser the client calls its own origin.
  beforeAll(() => client.setConfig({ baseUrl: window.location.origin }));
  afterAll(() => client.setConfig({ baseUrl: "" }));
  afterEach(() => vi.unstubAllGlobals());

  it("shows the API's answer when the address already has a pending invitation", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async (input: RequestInfo | URL) => {
        const req = input instanceof Request ? input : new Request(String(input));
        if (new URL(req.url).pathname !== "/api/v1/workspaces/w1/invitations") return json(500, { detail: "unexpected", code: "internal" });
        return req.method === "POST"
          ? json(409, { detail: DUPLICATE, code: "invitation_pending" })
          : json(200, { data: [PENDING], count: 1 });
      }),
    );
    const workspace: Workspace = { id: "w1", name: "Acme", role: "owner", created_at: "2026-11-21T08:00:00Z" };
    const router = createMemoryRouter(
      [{ path: "/w/:workspaceId", element: <Outlet context={workspace} />, children: [{ path: "invitations", element: <InvitationsPage /> }] }],
      { initialEntries: ["/w/w1/invitations"] },
    );
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    await screen.findByRole("table", { name: "Invitations and their status" });
    await userEvent.type(screen.getByRole("textbox", { name: "Email" }), "grace@example.com");
    await userEvent.click(screen.getByRole("button", { name: "Create invitation" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(DUPLICATE);
    expect(screen.queryByTestId("new-invitation")).not.toBeInTheDocument();
  });
});
