import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { LoginPage } from "@/features/auth/LoginPage";
import { AcceptInvitationPage } from "./AcceptInvitationPage";

function renderAt(path: string): void {
  const router = createMemoryRouter(
    [
      { path: "/invite", element: <AcceptInvitationPage /> },
      { path: "/signup", element: <LoginPage mode="signup" /> },
      { path: "/login", element: <LoginPage /> },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe("AcceptInvitationPage", () => {
  it("says so when the link has no code", () => {
    renderAt("/invite");
    expect(screen.getByRole("alert")).toHaveTextContent("This link has no invitation code");
  });

  it("sends a visitor without a session through sign-up, remembering the invitation", async () => {
    renderAt("/invite?code=vginv_abc");
    expect(screen.queryByRole("button", { name: "Accept invitation" })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("link", { name: "Create an account" }));
    expect(screen.getByRole("heading", { name: "Create your account" })).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("with the email address the invitation was sent to");
    // Switching to sign-in keeps where to come back to.
    await userEvent.click(screen.getByRole("link", { name: "Sign in" }));
    expect(screen.getByRole("heading", { name: "Sign in" })).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("you will accept it next");
  });
});
