import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { client } from "@/lib/apiClient";
import type { OperatorWorkspace } from "./api";
import { ACME, DEFAULT_PLAN, json, SMALL_PLAN } from "./testdata/fixtures";
import { WorkspacesPage } from "./WorkspacesPage";

function serve(workspace: OperatorWorkspace = ACME) {
  let current = workspace;
  return vi.fn(async (input: RequestInfo | URL) => {
    const req = input instanceof Request ? input : new Request(String(input));
    const { pathname } = new URL(req.url);
    if (pathname === "/api/v1/operator/workspaces") return json(200, { data: [current], count: 1 });
    if (pathname === "/api/v1/operator/plans") return json(200, { data: [DEFAULT_PLAN, SMALL_PLAN], count: 2 });
    if (pathname === `/api/v1/operator/workspaces/${ACME.id}/plan` && req.method === "PUT") {
      current = { ...current, plan: { id: SMALL_PLAN.id, name: SMALL_PLAN.name } };
      return json(200, {
        workspace: { ...current, limits: {} },
        lowered: { ingest_points_per_second: { from: 100_000, to: 1_000 }, retention_days: { from: 30, to: 7 } },
      });
    }
    if (pathname === `/api/v1/operator/workspaces/${ACME.id}/suspend` && req.method === "POST") {
      const { reason } = (await req.clone().json()) as { reason: string };
      current = { ...current, suspended_at: "2026-11-28T12:00:00Z", suspended_reason: reason };
      return json(200, { ...current, limits: {} });
    }
    if (pathname === `/api/v1/operator/workspaces/${ACME.id}/resume` && req.method === "POST") {
      current = { ...current, suspended_at: null, suspended_reason: null };
      return json(200, { ...current, limits: {} });
    }
    return json(500, { detail: `unexpected ${req.method} ${pathname}`, code: "internal" });
  });
}

const sent = (fetchSpy: ReturnType<typeof serve>, method: string): Request[] =>
  fetchSpy.mock.calls.map(([input]) => input).filter((r): r is Request => r instanceof Request && r.method === method);

function renderPage(entry = "/operator/workspaces"): void {
  const router = createMemoryRouter([{ path: "/operator/workspaces", element: <WorkspacesPage /> }], { initialEntries: [entry] });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe("WorkspacesPage", () => {
  beforeAll(() => client.setConfig({ baseUrl: window.location.origin }));
  afterAll(() => client.setConfig({ baseUrl: "" }));
  afterEach(() => vi.unstubAllGlobals());

  it("shows each workspace's plan, owners and usage, and asks with the URL's filters", async () => {
    const fetchSpy = serve();
    vi.stubGlobal("fetch", fetchSpy);
    renderPage("/operator/workspaces?search=acme&sort=-storage_bytes&status=suspended");
    const row = await screen.findByRole("row", { name: /Acme/ });
    expect(within(row).getByRole("combobox", { name: "Plan of Acme" })).toHaveValue(DEFAULT_PLAN.id);
    expect(row).toHaveTextContent("ada@example.com");
    expect(row).toHaveTextContent("1,234");
    expect(row).toHaveTextContent("98,765");
    expect(row).toHaveTextContent("3 MiB");
    expect(within(row).getByText("active")).toBeInTheDocument();
    const url = new URL((sent(fetchSpy, "GET").find((r) => r.url.includes("/operator/workspaces")) as Request).url);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      search: "acme",
      sort: "-storage_bytes",
      suspended: "true",
      limit: "50",
      offset: "0",
    });
  }, 20_000);

  it("moves a workspace to another plan after asking, and says which limits came down", async () => {
    const fetchSpy = serve();
    vi.stubGlobal("fetch", fetchSpy);
    renderPage();
    const plan = await screen.findByRole("combobox", { name: "Plan of Acme" });
    await within(plan).findByRole("option", { name: "Small" });
    await userEvent.selectOptions(plan, SMALL_PLAN.id);
    const dialog = await screen.findByRole("alertdialog", { name: "Move Acme to the plan Small?" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Change plan" }));
    expect(await screen.findByTestId("operator-outcome")).toHaveTextContent(
      "Acme is on the plan Small. Limits lowered: Ingest rate 100,000 → 1,000 points/s; Retention 30 → 7 days.",
    );
    const [put] = sent(fetchSpy, "PUT");
    expect(await put.json()).toEqual({ plan_id: SMALL_PLAN.id });
  }, 20_000);

  it("suspends with a reason, then resumes", async () => {
    const fetchSpy = serve();
    vi.stubGlobal("fetch", fetchSpy);
    renderPage();
    await userEvent.click(await screen.findByRole("button", { name: "Suspend Acme" }));
    const dialog = screen.getByRole("dialog", { name: "Suspend Acme?" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Suspend" }));
    expect(within(dialog).getByRole("textbox", { name: "Reason" })).toHaveAccessibleDescription("Say why the workspace is suspended.");
    expect(sent(fetchSpy, "POST")).toHaveLength(0);
    await userEvent.type(within(dialog).getByRole("textbox", { name: "Reason" }), "Payment overdue");
    await userEvent.click(within(dialog).getByRole("button", { name: "Suspend" }));
    expect(await screen.findByTestId("operator-outcome")).toHaveTextContent("Acme is suspended: Payment overdue");
    expect(await sent(fetchSpy, "POST")[0].json()).toEqual({ reason: "Payment overdue" });
    const row = await screen.findByRole("row", { name: /Acme/ });
    expect(await within(row).findByText("suspended")).toHaveAttribute("title", "Payment overdue");

    await userEvent.click(within(row).getByRole("button", { name: "Resume Acme" }));
    await userEvent.click(within(await screen.findByRole("alertdialog", { name: "Resume Acme?" })).getByRole("button", { name: "Resume" }));
    expect(await screen.findByTestId("operator-outcome")).toHaveTextContent("Acme is active again.");
    expect(await within(await screen.findByRole("row", { name: /Acme/ })).findByText("active")).toBeInTheDocument();
  }, 20_000);
});
