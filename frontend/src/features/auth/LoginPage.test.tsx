import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { client } from "@/lib/apiClient";
import { endSession, getToken, setSession } from "@/lib/session";
import { LoginPage } from "./LoginPage";

function renderLogin(): void {
  const router = createMemoryRouter(
    [
      { path: "/login", element: <LoginPage /> },
      { path: "/", element: <p>home</p> },
    ],
    { initialEntries: ["/login"] },
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe("LoginPage", () => {
  it("labels its fields and explains what is missing before sending anything", async () => {
    renderLogin();
    await userEvent.type(screen.getByLabelText("Email"), "not-an-email");
    await userEvent.click(screen.getByRole("button", { name: "Sign in" }));
    expect(screen.getByLabelText("Email")).toHaveAccessibleDescription("Enter a valid email address.");
    expect(screen.getByLabelText("Password")).toHaveAccessibleDescription("Enter your password.");
    expect(screen.getByLabelText("Email")).toHaveAttribute("aria-invalid", "true");
  });

  it("titles the window", () => {
    renderLogin();
    expect(document.title).toBe("Sign in · Vigil");
  });

  it("sends a signed-in visitor on to the app", () => {
    setSession({ access_token: "t", refresh_token: "r", expires_in: 900 });
    renderLogin();
    expect(screen.getByText("home")).toBeInTheDocument();
  });

  it("says so when the session ended because the server stopped accepting it", () => {
    setSession({ access_token: "t", refresh_token: "r", expires_in: 900 });
    endSession({ expired: true });
    renderLogin();
    expect(screen.getByTestId("auth-expired")).toHaveTextContent("Your session has ended");
  });

  it("says nothing of the kind after signing out", () => {
    setSession({ access_token: "t", refresh_token: "r", expires_in: 900 });
    endSession();
    renderLogin();
    expect(screen.queryByTestId("auth-expired")).toBeNull();
  });
});

describe("LoginPage in sign-up mode", () => {
  function renderSignup(): { sent: { path: string; body: string }[] } {
    const sent: { path: string; body: string }[] = [];
    client.setConfig({
      baseUrl: "http://vigil.test",
      fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
        const req = new Request(input, init);
        sent.push({ path: new URL(req.url).pathname, body: await req.clone().text() });
        return new Response(JSON.stringify({ message: "Check your inbox: a link is on its way." }), {
          status: 202,
          headers: { "Content-Type": "application/json" },
        });
      },
    });
    const router = createMemoryRouter([{ path: "/signup", element: <LoginPage mode="signup" /> }], {
      initialEntries: ["/signup"],
    });
    render(
      <QueryClientProvider client={new QueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    return { sent };
  }

  afterEach(() => client.setConfig({ baseUrl: "", fetch: undefined }));

  it("asks only for the address and says a link is on its way, signing nobody in", async () => {
    const { sent } = renderSignup();
    expect(screen.queryByLabelText("Password")).toBeNull();
    await userEvent.type(screen.getByLabelText("Email"), "ada@example.com");
    await userEvent.click(screen.getByRole("button", { name: "Email me a link" }));
    expect(await screen.findByTestId("signup-sent")).toHaveTextContent("Check your inbox: a link is on its way.");
    expect(sent).toEqual([{ path: "/api/v1/auth/signup", body: JSON.stringify({ email: "ada@example.com" }) }]);
    expect(screen.getByRole("button", { name: "Send the link again" })).toBeEnabled();
    expect(getToken()).toBeNull();
  });
});

describe("LoginPage links", () => {
  it("offers a password reset", () => {
    renderLogin();
    expect(screen.getByRole("link", { name: "Forgot your password?" })).toHaveAttribute("href", "/forgot-password");
  });
});
