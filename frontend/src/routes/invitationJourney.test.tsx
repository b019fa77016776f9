import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { InvitationPreview, UserPublic } from "@/client/types.gen";
import { LoginPage } from "@/features/auth/LoginPage";
import { AcceptInvitationPage } from "@/features/workspaces/AcceptInvitationPage";
import { client } from "@/lib/apiClient";
import { setSession } from "@/lib/session";

/*
 * The invitation journey: the invitation page (features/workspaces) and the sign-up and
 * sign-in page (features/auth), mounted together as the router mounts them. It spans two
 * features, so it lives beside the routes, which may import both.
 */

const PENDING: InvitationPreview = {
  workspace_name: "Analytical Engines",
  role: "editor",
  email: "grace@example.com",
  inviter_name: "Ada Lovelace",
  inviter_email: "ada@example.com",
  expires_at: "2026-11-28T08:00:00Z",
  state: "pending",
};
/** The API tells neither address once an invitation is no longer pending. */
const closed = (state: "expired" | "revoked" | "accepted", extra: Partial<InvitationPreview> = {}): InvitationPreview => ({
  ...PENDING,
  email: null,
  inviter_email: null,
  state,
  ...extra,
});

const GRACE: UserPublic = {
  id: "u1",
  email: "grace@example.com",
  full_name: null,
  created_at: "2026-11-21T08:00:00Z",
  email_verified_at: "2026-11-21T08:00:00Z",
};

const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

/** The backend as this page sees it: the invitation lookup, sign-up and, with a session, `auth/me`. */
function serve(invitation: InvitationPreview | null, me: UserPublic = GRACE) {
  return vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.pathname === "/api/v1/auth/me") return json(200, me);
    if (url.pathname === "/api/v1/auth/signup" && input instanceof Request) {
      const body = (await input.clone().json()) as { email: string };
      return json(202, { message: `Check your inbox: if ${body.email} can receive mail, a link is on its way.` });
    }
    if (url.pathname === "/api/v1/auth/logout") return json(200, { message: "Logged out" });
    if (url.pathname.startsWith("/api/v1/invitations/")) {
      return invitation
        ? json(200, invitation)
        : json(404, { detail: "Invitation not found: check the link, or ask for a new invitation", code: "not_found" });
    }
    return json(500, { detail: `unexpected ${url.pathname}`, code: "internal" });
  });
}

function renderAt(path: string | { pathname: string; state: unknown }): void {
  const router = createMemoryRouter(
    [
      { path: "/invite", element: <AcceptInvitationPage /> },
      { path: "/signup", element: <LoginPage mode="signup" /> },
      { path: "/login", element: <LoginPage /> },
      { path: "/", element: <p>Home</p> },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe("AcceptInvitationPage with sign-up and sign-in", () => {
  let fetchSpy = serve(PENDING);
  const useBackend = (invitation: InvitationPreview | null, me?: UserPublic): void => {
    fetchSpy = serve(invitation, me);
    vi.stubGlobal("fetch", fetchSpy);
  };
  // Node's Request needs absolute URLs; in the browser the client calls its own origin.
  beforeAll(() => client.setConfig({ baseUrl: window.location.origin }));
  afterAll(() => client.setConfig({ baseUrl: "" }));
  beforeEach(() => useBackend(PENDING));
  afterEach(() => vi.unstubAllGlobals());

  it("says so when the link has no code, without asking the backend", () => {
    renderAt("/invite");
    expect(screen.getByRole("alert")).toHaveTextContent("This link has no invitation code");
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it("names the inviter, the workspace and the role, looked up by the code without a session", async () => {
    renderAt("/invite?code=vginv_abc");
    expect(await screen.findByTestId("invite-summary")).toHaveTextContent(
      /^Ada Lovelace \(ada@example\.com\) invited you to join Analytical Engines as an editor\. The invitation expires on 2026-11-28 \d\d:00\.$/,
    );
    const request = fetchSpy.mock.calls[0]?.[0];
    expect(request).toBeInstanceOf(Request);
    expect((request as Request).url).toMatch(/\/api\/v1\/invitations\/vginv_abc$/);
    expect((request as Request).headers.get("Authorization")).toBeNull();
    expect(screen.getByText("grace@example.com")).toBeInTheDocument();
  });

  it("sends a visitor without a session through sign-up, remembering the invitation", async () => {
    renderAt("/invite?code=vginv_abc");
    await userEvent.click(await screen.findByRole("link", { name: "Create an account" }));
    expect(screen.queryByRole("button", { name: "Accept invitation" })).not.toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Create your account" })).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("with the email address the invitation was sent to");
    // Switching to sign-in keeps where to come back to.
    await userEvent.click(screen.getByRole("link", { name: "Sign in" }));
    expect(screen.getByRole("heading", { name: "Sign in" })).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("you will accept it next");
  });

  it("fills in the invited address on the sign-up form, where it cannot be changed, and emails it the link", async () => {
    renderAt("/invite?code=vginv_abc");
    await userEvent.click(await screen.findByRole("link", { name: "Create an account" }));
    const email = await screen.findByDisplayValue("grace@example.com");
    expect(email).toBe(screen.getByLabelText("Email"));
    expect(email).toHaveAttribute("readonly");
    expect(email).toHaveAccessibleDescription(
      "The invitation was sent to this address and can only be accepted with it. To use another one, ask for a new invitation.",
    );
    expect(screen.getByTestId("auth-invite-note")).toHaveTextContent(
      "You are joining Analytical Engines: create your account with the email address the invitation was sent to; you will accept it next.",
    );
    await userEvent.type(email, "x");
    expect(email).toHaveValue("grace@example.com");

    expect(screen.queryByLabelText("Password")).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: "Email me a link" }));
    // the link's page chooses the password; once signed in there, it comes back to the invitation
    expect(await screen.findByTestId("signup-sent")).toHaveTextContent(
      "Check your inboxCheck your inbox: if grace@example.com can receive mail, a link is on its way.",
    );
    const signup = fetchSpy.mock.calls.map(([input]) => input).find((r) => r instanceof Request && r.url.endsWith("/auth/signup"));
    expect(await (signup as Request).json()).toEqual({ email: "grace@example.com" });
    expect(window.localStorage.getItem("vigil.signup.return")).toBe("/invite?code=vginv_abc");
    window.localStorage.clear();
  });

  it("fills in the invited address on the sign-in form too, where another one can be typed", async () => {
    renderAt("/invite?code=vginv_abc");
    await userEvent.click(await screen.findByRole("link", { name: "Sign in" }));
    const email = await screen.findByDisplayValue("grace@example.com");
    expect(email).not.toHaveAttribute("readonly");
    await userEvent.clear(email);
    await userEvent.type(email, "grace.hopper@example.com");
    expect(email).toHaveValue("grace.hopper@example.com");
  });

  it("fills in nothing when the invitation can no longer be accepted", async () => {
    useBackend(closed("expired"));
    renderAt({ pathname: "/signup", state: { from: "/invite?code=vginv_abc" } });
    await waitFor(() => expect(fetchSpy).toHaveBeenCalled());
    expect(await screen.findByTestId("auth-invite-note")).toHaveTextContent(
      "Create your account with the email address the invitation was sent to",
    );
    const email = screen.getByLabelText("Email");
    expect(email).toHaveValue("");
    expect(email).not.toHaveAttribute("readonly");
  });

  it("titles the window after the workspace it invites to", async () => {
    renderAt("/invite?code=vginv_abc");
    await screen.findByTestId("invite-summary");
    expect(document.title).toBe("Join Analytical Engines · Vigil");
    await userEvent.click(screen.getByRole("link", { name: "Create an account" }));
    expect(document.title).toBe("Create an account · Vigil");
  });

  it("offers to accept when signed in with the invited address", async () => {
    setSession({ access_token: "session-token", refresh_token: "r", expires_in: 900 });
    renderAt("/invite?code=vginv_abc");
    expect(await screen.findByTestId("invite-user")).toHaveTextContent("grace@example.com");
    expect(await screen.findByRole("button", { name: "Accept invitation" })).toBeEnabled();
    expect(screen.queryByTestId("invite-error")).not.toBeInTheDocument();
  });

  it("says when the signed-in account is not the invited one, and offers to switch", async () => {
    setSession({ access_token: "session-token", refresh_token: "r", expires_in: 900 });
    useBackend(PENDING, { ...GRACE, email: "someone.else@example.com" });
    renderAt("/invite?code=vginv_abc");
    expect(await screen.findByTestId("invite-error")).toHaveTextContent(
      "This invitation is for another addressIt was sent to grace@example.com. Sign in with that address to accept it.",
    );
    expect(screen.queryByRole("button", { name: "Accept invitation" })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Use another account" }));
    expect(await screen.findByRole("heading", { name: "Sign in" })).toBeInTheDocument();
    // the session is revoked on the server, not only forgotten here
    const paths = fetchSpy.mock.calls.map(([input]) => new URL(input instanceof Request ? input.url : String(input)).pathname);
    expect(paths).toContain("/api/v1/auth/logout");
  });

  it.each([
    ["expired", "This invitation has expired", /^It expired on 2026-11-20 \d\d:00\. Ask Ada Lovelace for a new invitation\.$/],
    ["revoked", "This invitation was revoked", /^The link no longer works\. Ask Ada Lovelace for a new invitation if you still need to join\.$/],
    ["accepted", "This invitation has already been used", /^Each invitation works once\. If you accepted it, open Vigil and pick Analytical Engines from your workspaces\.$/],
  ] as const)("explains a %s invitation and offers no way to accept it", async (state, title, text) => {
    setSession({ access_token: "session-token", refresh_token: "r", expires_in: 900 });
    useBackend(closed(state, { expires_at: "2026-11-20T08:00:00Z" }));
    renderAt("/invite?code=vginv_abc");
    const alert = await screen.findByTestId("invite-state");
    expect(alert.querySelector(".alert-title")).toHaveTextContent(title);
    expect(alert.querySelector(".alert-title")?.nextElementSibling).toHaveTextContent(text);
    // Still says what it was.
    expect(screen.getByTestId("invite-summary")).toHaveTextContent(
      "Ada Lovelace invited you to join Analytical Engines as an editor.",
    );
    expect(screen.getByTestId("invite-summary")).not.toHaveTextContent("expires");
    expect(screen.queryByRole("button", { name: "Accept invitation" })).not.toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Create an account" })).not.toBeInTheDocument();
  });

  it("names whoever is known when the inviter's account is gone", async () => {
    useBackend({ ...PENDING, role: "viewer", inviter_name: null, inviter_email: null });
    renderAt("/invite?code=vginv_abc");
    expect(await screen.findByTestId("invite-summary")).toHaveTextContent(
      /^A workspace admin invited you to join Analytical Engines as a viewer\./,
    );
  });

  it("says an unknown code is not a valid link", async () => {
    useBackend(null);
    renderAt("/invite?code=vginv_nope");
    const alert = await screen.findByTestId("invite-state");
    expect(alert).toHaveTextContent(
      "This invitation link is not validInvitation not found: check the link, or ask for a new invitation",
    );
    expect(screen.queryByTestId("invite-summary")).not.toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Create an account" })).not.toBeInTheDocument();
  });

  it("tells a failure to ask apart from an unknown code", async () => {
    vi.stubGlobal("fetch", vi.fn(() => Promise.reject(new TypeError("Failed to fetch"))));
    renderAt("/invite?code=vginv_abc");
    const alert = await screen.findByTestId("invite-state");
    expect(alert.querySelector(".alert-title")).toHaveTextContent("Could not load the invitation");
  });
});
