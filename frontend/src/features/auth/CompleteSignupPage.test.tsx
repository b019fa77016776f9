import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { client } from "@/lib/apiClient";
import { getToken } from "@/lib/session";
import { CompleteSignupPage } from "./CompleteSignupPage";
import { rememberReturnPath } from "./emailLink";
import { ResetPasswordPage } from "./ResetPasswordPage";

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

const TOKENS = {
  access_token: "new-token",
  refresh_token: "vgr_r",
  expires_in: 900,
  token_type: "bearer",
  user: { id: "u1", email: "ada@example.com", full_name: "Ada", created_at: "2026-11-28T08:00:00Z", email_verified_at: "2026-11-28T08:00:00Z" },
};

function serve(answer: (path: string, body: Record<string, unknown>) => Response): { path: string; body: Record<string, unknown> }[] {
  const sent: { path: string; body: Record<string, unknown> }[] = [];
  client.setConfig({
    baseUrl: "http://vigil.test",
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = new Request(input, init);
      const path = new URL(req.url).pathname;
      const body = (await req.clone().json()) as Record<string, unknown>;
      sent.push({ path, body });
      return answer(path, body);
    },
  });
  return sent;
}

function renderAt(path: string, element: React.ReactElement) {
  const router = createMemoryRouter(
    [
      { path: path.split("#")[0], element },
      { path: "/", element: <p>home</p> },
      { path: "/invite", element: <p>the invitation</p> },
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

afterEach(() => {
  client.setConfig({ baseUrl: "", fetch: undefined });
  window.sessionStorage.clear();
  window.localStorage.clear();
});

describe("CompleteSignupPage", () => {
  it("checks the link, asks for the password, signs in and goes back to the invitation", async () => {
    const sent = serve((path) =>
      path.endsWith("/pending") ? json(200, { email: "ada@example.com", expires_at: "2026-11-29T08:00:00Z" }) : json(201, TOKENS),
    );
    rememberReturnPath("/invite?code=vginv_x");
    const router = renderAt("/signup/complete#token=vge_abc", <CompleteSignupPage />);
    expect(await screen.findByLabelText("Email")).toHaveValue("ada@example.com");
    // the token leaves the address bar at once
    expect(router.state.location.hash).toBe("");
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByLabelText("Full name"), "Ada Lovelace");
    await user.type(screen.getByLabelText("Password"), "tangerine quorum ledge");
    await user.type(screen.getByLabelText("Password again"), "tangerine quorum ledge");
    await user.click(screen.getByRole("button", { name: "Create account" }));
    expect(await screen.findByText("the invitation")).toBeInTheDocument();
    expect(sent[0].path).toBe("/api/v1/auth/signup/pending");
    expect(sent.find((s) => s.path === "/api/v1/auth/signup/complete")?.body).toEqual({
      token: "vge_abc",
      password: "tangerine quorum ledge",
      full_name: "Ada Lovelace",
    });
    expect(getToken()).toBe("new-token");
  });

  it("shows why the server refuses the password at its field", async () => {
    serve((path) =>
      path.endsWith("/pending")
        ? json(200, { email: "ada@example.com", expires_at: "2026-11-29T08:00:00Z" })
        : json(422, {
            detail: "body.password: Value error, password is too easy to guess.",
            code: "validation_error",
            errors: [{ loc: ["body", "password"], msg: "Value error, password is too easy to guess.", type: "value_error" }],
          }),
    );
    renderAt("/signup/complete#token=vge_abc", <CompleteSignupPage />);
    const user = userEvent.setup({ delay: null });
    await user.type(await screen.findByLabelText("Password"), "password1");
    await user.type(screen.getByLabelText("Password again"), "password1");
    await user.click(screen.getByRole("button", { name: "Create account" }));
    const field = screen.getByLabelText("Password");
    await expect.poll(() => field.getAttribute("aria-invalid")).toBe("true");
    expect(field).toHaveAccessibleDescription(/too easy to guess/);
    expect(getToken()).toBeNull();
  });

  it("says why a used or expired link cannot be used, and offers a new one", async () => {
    serve(() => json(400, { detail: "This link was used already: sign in, or sign up again", code: "link_used" }));
    renderAt("/signup/complete#token=vge_old", <CompleteSignupPage />);
    expect(await screen.findByTestId("link-error")).toHaveTextContent("This link was used already");
    expect(screen.getByRole("link", { name: "Sign up again" })).toHaveAttribute("href", "/signup");
    expect(screen.queryByLabelText("Password")).toBeNull();
  });

  it("says the link is incomplete without asking the server", () => {
    const sent = serve(() => json(500, {}));
    renderAt("/signup/complete", <CompleteSignupPage />);
    expect(screen.getByTestId("link-error")).toHaveTextContent("Open the whole link from the email");
    expect(sent).toEqual([]);
  });
});

describe("ResetPasswordPage", () => {
  it("sets the new password from the link and signs in", async () => {
    const sent = serve((path) =>
      path.endsWith("/pending") ? json(200, { email: "ada@example.com", expires_at: "2026-11-28T09:00:00Z" }) : json(200, TOKENS),
    );
    renderAt("/reset-password#token=vge_reset", <ResetPasswordPage />);
    const user = userEvent.setup({ delay: null });
    await user.type(await screen.findByLabelText("New password"), "marmalade quokka sextant");
    await user.type(screen.getByLabelText("New password again"), "marmalade quokka sextant");
    await user.click(screen.getByRole("button", { name: "Set password and sign in" }));
    expect(await screen.findByText("home")).toBeInTheDocument();
    expect(sent.find((s) => s.path === "/api/v1/auth/password-reset/complete")?.body).toEqual({
      token: "vge_reset",
      new_password: "marmalade quokka sextant",
    });
  });
});
