import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { endSession, setSession } from "@/lib/session";
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
