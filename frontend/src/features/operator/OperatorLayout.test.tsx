import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { client } from "@/lib/apiClient";
import { endSession, setSession } from "@/lib/session";
import { OperatorLayout } from "./OperatorLayout";
import { json } from "./testdata/fixtures";

function renderAs(isOperator: boolean): void {
  vi.stubGlobal(
    "fetch",
    vi.fn(async () =>
      json(200, { id: "u1", email: "ops@example.com", full_name: null, created_at: "2026-11-28T10:00:00Z", is_operator: isOperator }),
    ),
  );
  const router = createMemoryRouter(
    [{ path: "/operator", element: <OperatorLayout />, children: [{ index: true, element: <p>operator content</p> }] }],
    { initialEntries: ["/operator"] },
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe("OperatorLayout", () => {
  beforeAll(() => client.setConfig({ baseUrl: window.location.origin }));
  afterAll(() => client.setConfig({ baseUrl: "" }));
  beforeEach(() => setSession({ access_token: "t", expires_in: 900, refresh_token: "r" }));
  afterEach(() => {
    endSession();
    vi.unstubAllGlobals();
  });

  it("shows the Operator area to an operator", async () => {
    renderAs(true);
    expect(await screen.findByText("operator content")).toBeInTheDocument();
    expect(screen.getByRole("navigation", { name: "Operator" })).toHaveTextContent("OverviewWorkspacesPlansAudit log");
  });

  it("tells anyone else there is nothing here", async () => {
    renderAs(false);
    expect(await screen.findByRole("heading", { name: "Page not found" })).toBeInTheDocument();
    expect(screen.queryByText("operator content")).not.toBeInTheDocument();
  });
});
