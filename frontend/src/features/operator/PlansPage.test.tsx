import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { client } from "@/lib/apiClient";
import { PlansPage } from "./PlansPage";
import { DEFAULT_PLAN, json, SMALL_PLAN } from "./testdata/fixtures";

function serve() {
  return vi.fn(async (input: RequestInfo | URL) => {
    const req = input instanceof Request ? input : new Request(String(input));
    const { pathname } = new URL(req.url);
    if (pathname === "/api/v1/operator/plans" && req.method === "POST") {
      const body = (await req.clone().json()) as { name: string };
      if (body.name.toLowerCase() === "small") return json(409, { detail: "A plan named 'small' already exists", code: "plan_name_taken" });
      return json(201, { ...DEFAULT_PLAN, ...body, id: "p-new", is_default: false, workspaces: 0 });
    }
    if (pathname === "/api/v1/operator/plans") return json(200, { data: [DEFAULT_PLAN, SMALL_PLAN], count: 2 });
    if (pathname === `/api/v1/operator/plans/${SMALL_PLAN.id}` && req.method === "PATCH") {
      return json(200, { ...SMALL_PLAN, ...((await req.clone().json()) as object) });
    }
    return json(500, { detail: `unexpected ${req.method} ${pathname}`, code: "internal" });
  });
}

const sent = (fetchSpy: ReturnType<typeof serve>, method: string): Request[] =>
  fetchSpy.mock.calls.map(([input]) => input).filter((r): r is Request => r instanceof Request && r.method === method);

function renderPage(): void {
  const router = createMemoryRouter([{ path: "/operator/plans", element: <PlansPage /> }], { initialEntries: ["/operator/plans"] });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe("PlansPage", () => {
  beforeAll(() => client.setConfig({ baseUrl: window.location.origin }));
  afterAll(() => client.setConfig({ baseUrl: "" }));
  afterEach(() => vi.unstubAllGlobals());

  it("lists the plans, the default first and marked, with their ceilings", async () => {
    vi.stubGlobal("fetch", serve());
    renderPage();
    const rows = await screen.findAllByTestId("plan-row");
    expect(rows[0]).toHaveTextContent(/Default\s*default/);
    expect(rows[0]).toHaveTextContent("100,000 points/s");
    expect(within(rows[0]).queryByRole("button", { name: "Delete Default" })).not.toBeInTheDocument();
    expect(within(rows[1]).getByRole("button", { name: "Make Small the default" })).toBeEnabled();
  });

  it("creates a plan from a copy of the default, refusing bad values before sending and showing the API's refusal", async () => {
    const fetchSpy = serve();
    vi.stubGlobal("fetch", fetchSpy);
    renderPage();
    await userEvent.click(await screen.findByRole("button", { name: "New plan" }));
    const form = screen.getByRole("dialog", { name: "New plan" });
    const members = within(form).getByRole("textbox", { name: "Members" });
    expect(members).toHaveValue("50");
    await userEvent.clear(members);
    await userEvent.type(members, "0");
    expect(members).toHaveAccessibleDescription("Members must be between 1 and 100,000 members.");
    await userEvent.click(within(form).getByRole("button", { name: "Create plan" }));
    expect(within(form).getByRole("textbox", { name: "Name" })).toHaveAccessibleDescription("Name the plan.");
    expect(sent(fetchSpy, "POST")).toHaveLength(0);

    await userEvent.clear(members);
    await userEvent.type(members, "5");
    await userEvent.type(within(form).getByRole("textbox", { name: "Name" }), "Small");
    await userEvent.click(within(form).getByRole("button", { name: "Create plan" }));
    expect(await within(form).findByTestId("plan-form-error")).toHaveTextContent("A plan named 'small' already exists");

    await userEvent.clear(within(form).getByRole("textbox", { name: "Name" }));
    await userEvent.type(within(form).getByRole("textbox", { name: "Name" }), "Team");
    await userEvent.click(within(form).getByRole("button", { name: "Create plan" }));
    expect(await screen.findByTestId("plans-saved")).toHaveTextContent("The plan Team was created.");
    const body = (await sent(fetchSpy, "POST")[1].json()) as Record<string, unknown>;
    expect(body).toMatchObject({ name: "Team", max_members: 5, ingest_points_per_second: 100_000, min_monitor_interval_seconds: 10 });
  }, 20_000);

  it("saves only the bounds that changed", async () => {
    const fetchSpy = serve();
    vi.stubGlobal("fetch", fetchSpy);
    renderPage();
    await userEvent.click(await screen.findByRole("button", { name: "Edit Small" }));
    const form = screen.getByRole("dialog", { name: "Edit the plan Small" });
    const retention = within(form).getByRole("textbox", { name: "Retention" });
    await userEvent.clear(retention);
    await userEvent.type(retention, "3");
    await userEvent.click(within(form).getByRole("button", { name: "Save plan" }));
    expect(await screen.findByTestId("plans-saved")).toHaveTextContent("The plan Small was saved.");
    expect(await sent(fetchSpy, "PATCH")[0].json()).toEqual({ retention_days: 3 });
  }, 20_000);
});
