import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { client } from "@/lib/apiClient";
import { getToken, setSession } from "@/lib/session";
import { AccountPage, checkPasswordForm } from "./AccountPage";

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

const SESSIONS = [
  {
    id: "s1",
    created_at: "2026-11-28T08:00:00Z",
    last_active_at: "2026-11-28T09:00:00Z",
    expires_at: "2026-12-28T08:00:00Z",
    ip: "198.51.100.7",
    user_agent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
    current: true,
  },
  {
    id: "s2",
    created_at: "2026-11-20T08:00:00Z",
    last_active_at: "2026-11-27T09:00:00Z",
    expires_at: "2026-12-20T08:00:00Z",
    ip: "203.0.113.9",
    user_agent: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
    current: false,
  },
];

const LOG = [
  {
    id: "e1",
    workspace_id: null,
    actor_user_id: null,
    actor_email: "ada@example.com",
    action: "user.login_failed",
    target_type: "user",
    target_id: "u1",
    details: {},
    ip: "203.0.113.66",
    user_agent: "curl/8.5.0",
    created_at: "2026-11-28T08:30:00Z",
  },
];

function serve(answer: (path: string, body: string) => Response) {
  const sent: { path: string; body: string }[] = [];
  client.setConfig({
    baseUrl: "http://vigil.test",
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = new Request(input, init);
      const path = new URL(req.url).pathname;
      const body = await req.clone().text();
      sent.push({ path, body });
      if (path === "/api/v1/auth/me") return json(200, { id: "u1", email: "ada@example.com", full_name: "Ada" });
      if (path === "/api/v1/auth/sessions" && req.method === "GET") return json(200, { data: SESSIONS, count: SESSIONS.length });
      if (path === "/api/v1/auth/security-log") return json(200, { data: LOG, count: LOG.length });
      return answer(path, body);
    },
  });
  return sent;
}

function renderAccount(): void {
  setSession({ access_token: "t", refresh_token: "r", expires_in: 900 });
  const router = createMemoryRouter(
    [
      { path: "/account", element: <AccountPage /> },
      { path: "/login", element: <p>login page</p> },
    ],
    { initialEntries: ["/account"] },
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

async function fill(current: string, next: string, repeat = next): Promise<void> {
  // no pause between keystrokes: the page below the form (sessions, log) makes each one dearer
  const user = userEvent.setup({ delay: null });
  await user.type(await screen.findByLabelText("Current password"), current);
  await user.type(screen.getByLabelText("New password"), next);
  await user.type(screen.getByLabelText("New password again"), repeat);
  await user.click(screen.getByRole("button", { name: "Change password" }));
}

afterEach(() => {
  window.sessionStorage.clear();
  client.setConfig({ baseUrl: "", fetch: undefined });
});

describe("checkPasswordForm", () => {
  it("says what is missing or wrong before anything is sent", () => {
    expect(checkPasswordForm({ current: "", next: "short", repeat: "" })).toEqual({
      current: "Enter your current password.",
      next: "Use at least 8 characters.",
    });
    expect(checkPasswordForm({ current: "same old one", next: "same old one", repeat: "same old one" }).next).toMatch(
      /different/,
    );
    expect(checkPasswordForm({ current: "a", next: "tangerine quorum", repeat: "tangerine quorun" })).toEqual({
      repeat: "The two new passwords differ.",
    });
  });
});

// typing three passwords into a page that also draws sessions and a log takes seconds on a
// busy machine
describe("AccountPage", { timeout: 20_000 }, () => {
  it("changes the password and says what that did", async () => {
    const sent = serve(() => json(200, { message: "Password changed" }));
    renderAccount();
    expect(await screen.findByTestId("account-email")).toHaveTextContent("ada@example.com");
    await fill("old secret phrase", "tangerine quorum ledge");
    expect(await screen.findByTestId("password-changed")).toHaveTextContent("Other browsers and devices");
    const call = sent.find((s) => s.path === "/api/v1/auth/password");
    expect(JSON.parse(call?.body ?? "{}")).toEqual({ current_password: "old secret phrase", new_password: "tangerine quorum ledge" });
    expect(screen.getByLabelText("Current password")).toHaveValue("");
  });

  it("shows a wrong current password at its field and keeps the session", async () => {
    serve(() => json(401, { detail: "Current password is incorrect", code: "invalid_credentials" }));
    renderAccount();
    await fill("not it at all", "tangerine quorum ledge");
    expect(await screen.findByLabelText("Current password")).toHaveAccessibleDescription(
      "This is not your current password.",
    );
    expect(getToken()).toBe("t");
  });

  it("shows the server's reason a new password is refused at that field", async () => {
    serve(() =>
      json(422, {
        detail: "body.new_password: Value error, password is too easy to guess.",
        code: "validation_error",
        errors: [
          {
            loc: ["body", "new_password"],
            msg: "Value error, password is too easy to guess. This is a top-10 common password.",
            type: "value_error",
          },
        ],
      }),
    );
    renderAccount();
    await fill("old secret phrase", "password1");
    const field = await screen.findByLabelText("New password");
    await expect.poll(() => field.getAttribute("aria-invalid")).toBe("true");
    expect(field).toHaveAccessibleDescription(/too easy to guess\. This is a top-10 common password\./);
  });

  it("lists the sessions and signs out another one after asking", async () => {
    const sent = serve(() => json(200, { message: "Session ended" }));
    renderAccount();
    const table = await screen.findByTestId("sessions-table");
    expect(await within(table).findByText("Chrome on Linux")).toBeInTheDocument();
    expect(within(table).getByText("this browser")).toBeInTheDocument();
    // this browser's own session has no sign-out button of its own
    const buttons = within(table).getAllByRole("button", { name: /^Sign out/ });
    expect(buttons.map((b) => b.getAttribute("aria-label"))).toEqual(["Sign out Safari on iOS from 203.0.113.9"]);
    await userEvent.click(buttons[0]);
    await userEvent.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Sign out" }));
    await expect.poll(() => sent.some((s) => s.path === "/api/v1/auth/sessions/s2")).toBe(true);
  });

  it("signs out the other sessions, keeping this one", async () => {
    const sent = serve(() => json(200, { message: "1 other session(s) ended", ended: 1 }));
    renderAccount();
    await userEvent.click(await screen.findByRole("button", { name: "Sign out other sessions" }));
    await userEvent.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Sign out others" }));
    expect(await screen.findByTestId("sessions-ended")).toHaveTextContent("1 other session was signed out.");
    expect(sent.some((s) => s.path === "/api/v1/auth/sessions/revoke-others")).toBe(true);
    expect(getToken()).toBe("t");
  });

  it("shows the account's security log, renewals hidden unless asked for", async () => {
    const sent = serve(() => json(200, {}));
    renderAccount();
    const log = await screen.findByTestId("security-log-table");
    expect(await within(log).findByText("Sign-in refused: wrong password")).toHaveClass("security-warning");
    expect(within(log).getByText("203.0.113.66")).toBeInTheDocument();
    expect(within(log).getByText("curl")).toBeInTheDocument();
    const first = sent.find((s) => s.path === "/api/v1/auth/security-log");
    expect(first).toBeDefined();
  });

  it("signs out everywhere after asking", async () => {
    const sent = serve(() => json(200, { message: "Logged out" }));
    renderAccount();
    await userEvent.click(await screen.findByRole("button", { name: "Sign out everywhere" }));
    await userEvent.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Sign out everywhere" }));
    expect(await screen.findByText("login page")).toBeInTheDocument();
    expect(JSON.parse(sent.find((s) => s.path === "/api/v1/auth/logout")?.body ?? "{}")).toEqual({ all_sessions: true });
    expect(getToken()).toBeNull();
  });
});
