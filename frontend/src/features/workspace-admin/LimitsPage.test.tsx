import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, Outlet, RouterProvider } from "react-router";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Workspace } from "@/api/workspaces";
import { client } from "@/lib/apiClient";
import { LimitsPage } from "./LimitsPage";
import type { Limits, Usage, UsageHistory } from "./api";

// Charts are EChart's business (tested with it); here they only take room.
vi.mock("@/components/charts/EChart", () => ({ EChart: ({ label }: { label: string }) => <div aria-label={label} /> }));

const VALUES = {
  ingest_points_per_second: 10_000,
  ingest_burst: 20_000,
  max_body_bytes: 10_485_760,
  active_series: 100_000,
  query_timeout_seconds: 30,
  max_points_per_query: 5_000_000,
  retention_days: 30,
  concurrent_queries: 4,
  max_monitors: 100,
  min_monitor_interval_seconds: 10,
  max_notifications_per_hour: 200,
  max_members: 10,
  max_dashboards: 50,
};
const LIMITS: Limits = {
  ...VALUES,
  plan: { id: "p1", name: "Team" },
  ceilings: { ...VALUES, ingest_burst: 40_000, retention_days: 90 },
};

const USAGE: Usage = {
  active_series: 120,
  series_total: 150,
  points_today: 1000,
  queries_today: 4,
  series_limit_dropped_points: null,
  storage_error: null,
};

const HISTORY: UsageHistory = {
  start: 0,
  end: 3_600_000,
  step_seconds: 300,
  ingest_rate: [],
  active_series: [],
  queries_per_day: [],
  storage_error: null,
};

const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

function serve({ usage = USAGE, history = HISTORY }: { usage?: Usage; history?: UsageHistory } = {}) {
  return vi.fn(async (input: RequestInfo | URL) => {
    const req = input instanceof Request ? input : new Request(String(input));
    const path = new URL(req.url).pathname;
    if (path === "/api/v1/workspaces/w1/limits" && req.method === "PATCH") {
      return json(200, { ...LIMITS, ...((await req.clone().json()) as Partial<Limits>) });
    }
    if (path === "/api/v1/workspaces/w1/limits") return json(200, LIMITS);
    if (path === "/api/v1/workspaces/w1/usage") return json(200, usage);
    if (path === "/api/v1/workspaces/w1/usage/history") return json(200, history);
    return json(500, { detail: `unexpected ${path}`, code: "internal" });
  });
}

function renderLimits(role: Workspace["role"] = "admin"): void {
  const workspace: Workspace = { id: "w1", name: "Acme", role, created_at: "2026-11-21T08:00:00Z" };
  const router = createMemoryRouter(
    [{ path: "/w/:workspaceId", element: <Outlet context={workspace} />, children: [{ path: "limits", element: <LimitsPage /> }] }],
    { initialEntries: ["/w/w1/limits"] },
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

const patches = (fetchSpy: ReturnType<typeof serve>): unknown[] =>
  fetchSpy.mock.calls.map(([input]) => input).filter((r): r is Request => r instanceof Request && r.method === "PATCH");

describe("LimitsPage", () => {
  // Node's Request needs absolute URLs; in the browser the client calls its own origin.
  beforeAll(() => client.setConfig({ baseUrl: window.location.origin }));
  afterAll(() => client.setConfig({ baseUrl: "" }));
  afterEach(() => vi.unstubAllGlobals());

  it.each([
    ["0", "Ingest burst must be between 1 and 1,000,000,000 points."],
    ["99999999999999999999", "Ingest burst must be between 1 and 1,000,000,000 points."],
    ["1e3", "Ingest burst must be a whole number."],
  ])("says why %s is refused beside the field, keeps Discard and explains the disabled Save", async (value, message) => {
    vi.stubGlobal("fetch", serve());
    renderLimits();
    const field = await screen.findByRole("textbox", { name: "Ingest burst" });
    await userEvent.clear(field);
    await userEvent.type(field, value);

    expect(field).toHaveAttribute("aria-invalid", "true");
    expect(field).toHaveAccessibleDescription(message);
    const save = screen.getByRole("button", { name: "Save limits" });
    expect(save).toBeDisabled();
    expect(save).toHaveAccessibleDescription("Correct Ingest burst to save.");
    expect(screen.getByTestId("limits-save-blocked")).toBeVisible();
    const discard = screen.getByRole("button", { name: "Discard changes" });
    expect(discard).toBeEnabled();

    await userEvent.click(discard);
    expect(field).toHaveValue("20000");
    expect(field).not.toHaveAttribute("aria-invalid");
    expect(field).toHaveAccessibleDescription("Points accepted at once above the sustained rate. Plan ceiling: 40,000 points.");
    expect(screen.queryByTestId("limits-save-blocked")).not.toBeInTheDocument();
    expect(save).toBeDisabled();
    expect(discard).toBeDisabled();
  });

  it("shows the plan and refuses a value above its ceiling before sending it", async () => {
    const fetchSpy = serve();
    vi.stubGlobal("fetch", fetchSpy);
    renderLimits();
    const retention = await screen.findByRole("textbox", { name: "Retention" });
    expect(screen.getByTestId("limits-plan")).toHaveTextContent(
      "Plan Team, set by the platform's operators: each limit can be set up to the plan's ceiling, never above.",
    );
    expect(retention).toHaveAccessibleDescription(expect.stringMatching(/Plan ceiling: 90 days\.$/));
    await userEvent.clear(retention);
    await userEvent.type(retention, "91{Enter}");
    expect(retention).toHaveAttribute("aria-invalid", "true");
    expect(retention).toHaveAccessibleDescription(
      "Retention can be at most 90 days, the ceiling of the plan Team; a platform operator sets the plan.",
    );
    expect(screen.getByRole("button", { name: "Save limits" })).toBeDisabled();
    expect(patches(fetchSpy)).toHaveLength(0);

    await userEvent.clear(retention);
    await userEvent.type(retention, "90{Enter}");
    expect(await screen.findByTestId("limits-saved")).toBeVisible();
    const [patch] = patches(fetchSpy) as Request[];
    expect(await patch.json()).toEqual({ retention_days: 90 });
  }, 20_000);

  it("names every field that blocks saving", async () => {
    vi.stubGlobal("fetch", serve());
    renderLimits();
    await userEvent.clear(await screen.findByRole("textbox", { name: "Ingest rate" }));
    await userEvent.clear(screen.getByRole("textbox", { name: "Retention" }));
    await userEvent.type(screen.getByRole("textbox", { name: "Retention" }), "4000");
    expect(screen.getByTestId("limits-save-blocked")).toHaveTextContent("Correct 2 fields to save: Ingest rate, Retention.");
  });

  it("Enter in a field does not save a refused value, and saves a valid one", async () => {
    const fetchSpy = serve();
    vi.stubGlobal("fetch", fetchSpy);
    renderLimits();
    const retention = await screen.findByRole("textbox", { name: "Retention" });
    const burst = screen.getByRole("textbox", { name: "Ingest burst" });
    await userEvent.clear(burst);
    await userEvent.type(burst, "0");
    await userEvent.clear(retention);
    await userEvent.type(retention, "90{Enter}");
    expect(patches(fetchSpy)).toHaveLength(0);
    expect(screen.queryByTestId("limits-saved")).not.toBeInTheDocument();

    await userEvent.clear(burst);
    await userEvent.type(burst, "30,000{Enter}");
    expect(await screen.findByTestId("limits-saved")).toHaveTextContent("Limits saved.");
    const [patch] = patches(fetchSpy) as Request[];
    expect(await patch.json()).toEqual({ ingest_burst: 30000, retention_days: 90 });
  });

  it("keeps Save disabled but allows Discard when only the digit grouping changed", async () => {
    vi.stubGlobal("fetch", serve());
    renderLimits();
    const field = await screen.findByRole("textbox", { name: "Ingest burst" });
    await userEvent.clear(field);
    await userEvent.type(field, "20,000");
    expect(field).not.toHaveAttribute("aria-invalid");
    expect(screen.getByRole("button", { name: "Save limits" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Discard changes" })).toBeEnabled();
  });

  it("says in words, as an error, that storage could not be reached, with the technical detail below", async () => {
    const detail = "[Errno 111] Connection refused";
    vi.stubGlobal("fetch", serve({ usage: { ...USAGE, active_series: null, series_total: null, storage_error: detail }, history: { ...HISTORY, storage_error: detail } }));
    renderLimits();
    const alert = await screen.findByTestId("usage-storage-error");
    expect(alert).toHaveAttribute("role", "alert");
    expect(alert).toHaveClass("alert-error");
    expect(alert.querySelector("p")).toHaveTextContent(/^Storage could not be reached; usage figures are unavailable\.$/);
    const technical = within(alert).getByText("Technical detail").closest("details");
    expect(technical).not.toHaveAttribute("open");
    expect(technical).toHaveTextContent(detail);
    // Said once, not again above the charts.
    await screen.findByLabelText("Queries per day");
    expect(screen.queryByTestId("usage-history-storage-error")).not.toBeInTheDocument();
    expect(screen.queryByRole("status", { name: /storage/i })).not.toBeInTheDocument();
  });

  it("says the active series chart waits for its first record while series are already active", async () => {
    vi.stubGlobal("fetch", serve());
    renderLimits();
    expect(await screen.findByTestId("usage-series-pending")).toHaveTextContent(
      "No record of active series yetStorage records each workspace's count of active series at an interval (once a minute by default); the chart starts with the first record.",
    );
    expect(screen.getByTestId("usage-active-series")).toHaveTextContent("120");
  });

  it("says there were no active series when there are none now either", async () => {
    vi.stubGlobal("fetch", serve({ usage: { ...USAGE, active_series: 0 } }));
    renderLimits();
    expect(await screen.findByText("No active series in this period")).toBeInTheDocument();
    expect(screen.queryByTestId("usage-series-pending")).not.toBeInTheDocument();
  });

  it("says how many batches were set aside and why, and nothing when none were", async () => {
    vi.stubGlobal(
      "fetch",
      serve({
        usage: {
          ...USAGE,
          ingest_parked_batches: 3,
          ingest_parked_points: 1500,
          ingest_parked_last_reason: "parked after 9 attempts over 61 s while storage took other workspaces' writes: storage answered 503: busy",
          ingest_parked_last_at: null,
        },
      }),
    );
    renderLimits();
    const alert = await screen.findByTestId("usage-ingest-parked");
    expect(alert).toHaveTextContent(
      "3 batches (1,500 points) were set aside because storage kept refusing them, so that they would not hold back newer data. Last reason: parked after 9 attempts over 61 s while storage took other workspaces' writes: storage answered 503: busy.",
    );
  });

  it("shows no set-aside batches alert when there are none", async () => {
    vi.stubGlobal("fetch", serve());
    renderLimits();
    await screen.findByTestId("usage-active-series");
    expect(screen.queryByTestId("usage-ingest-parked")).not.toBeInTheDocument();
  });

  it("edits the concurrent queries limit within its bounds", async () => {
    vi.stubGlobal("fetch", serve());
    renderLimits();
    const field = await screen.findByRole("textbox", { name: "Concurrent queries" });
    expect(field).toHaveValue("4");
    await userEvent.clear(field);
    await userEvent.type(field, "65");
    expect(field).toHaveAccessibleDescription("Concurrent queries must be between 1 and 64 queries.");
  });
});
