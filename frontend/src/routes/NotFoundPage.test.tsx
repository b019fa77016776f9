import { render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { NotFoundPage } from "./NotFoundPage";

function renderAt(path: string): void {
  const router = createMemoryRouter(
    [
      { path: "/w/:workspaceId/explore", element: <p>explore page</p> },
      { path: "/w/:workspaceId/*", element: <NotFoundPage /> },
      { path: "*", element: <NotFoundPage standalone /> },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
}

describe("NotFoundPage", () => {
  it("names the address and links to the workspace's Explore", () => {
    renderAt("/w/ws-1/monitors");
    expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent("Page not found");
    expect(screen.getByText("/w/ws-1/monitors")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to Explore" })).toHaveAttribute("href", "/w/ws-1/explore");
    expect(document.title).toContain("Page not found");
  });

  it("outside a workspace links home", () => {
    renderAt("/nowhere/at/all");
    expect(screen.getByRole("main")).toHaveTextContent("There is no page at /nowhere/at/all.");
    expect(screen.getByRole("link", { name: "Go to Explore" })).toHaveAttribute("href", "/");
  });
});
