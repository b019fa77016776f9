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
  await userEvent.type(screen.getByLabelText("Current password"), current);
  await userEvent.type(screen.getByLabelText("New password"), next);
  await userEvent.type(screen.getByLabelText("New password again"), repeat);
  await userEvent.click(screen.getByRole("button", { name: "Change password" }));
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

describe("AccountPage", () => {
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
