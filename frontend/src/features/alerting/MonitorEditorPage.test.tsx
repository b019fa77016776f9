import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, Outlet, RouterProvider } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { client } from "@/client/client.gen";
import type { Workspace } from "@/api/workspaces";
import type { Channel, Monitor, Preview } from "./api";
import { MonitorEditorPage } from "./MonitorEditorPage";

class NoResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}

const QUERY = "M::cpu:(avg(usage_user)) {host = 'a'} BY host";

const CHANNELS: Channel[] = [
  {
    id: "c1",
    workspace_id: "w1",
    name: "Ops hook",
    type: "webhook",
    config: { type: "webhook", url: "https://hooks.example.com/a" },
    has_secret: false,
    enabled: true,
    created_by: null,
    created_at: "2026-11-28T08:00:00Z",
    updated_at: "2026-11-28T08:00:00Z",
  },
];

const PREVIEW: Preview = {
  start: 0,
  end: 86_400_000,
  step_seconds: 60,
  series: [{ tags: { host: "a" }, points: [[60_000, 95]] }],
  alerts: [{ tags: { host: "a" }, severity: "critical", start: 60_000, end: null }],
  conditions: [{ severity: "critical", op: ">", threshold: 90 }],
  truncated: false,
};

const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

interface Served {
  requests: { method: string; path: string; body: unknown }[];
}

function serve({ createAnswer }: { createAnswer?: () => Response } = {}): Served {
  const served: Served = { requests: [] };
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = input instanceof Request ? input : new Request(input, init);
    const path = new URL(req.url).pathname;
    const body = req.method === "POST" || req.method === "PATCH" ? await req.clone().json() : undefined;
    served.requests.push({ method: req.method, path, body });
    const ws = "/api/v1/workspaces/w1";
    if (path === `${ws}/limits`) return json(200, { min_monitor_interval_seconds: 10 });
    if (path === `${ws}/channels`) return json(200, { data: CHANNELS, count: 1 });
    if (path === `${ws}/monitors/preview`) return json(200, PREVIEW);
    if (path === `${ws}/monitors` && req.method === "POST") {
      return createAnswer ? createAnswer() : json(201, { ...(body as object), id: "m9" } as Partial<Monitor>);
    }
    if (path === `${ws}/query/raw`) return json(200, { content: [{ series: [] }] });
    return json(404, { detail: `unexpected ${req.method} ${path}` });
  });
  return served;
}

function open(role: Workspace["role"], search = `?q=${encodeURIComponent(QUERY)}&lang=dql`): ReturnType<typeof createMemoryRouter> {
  const workspace = { id: "w1", name: "Acme", role } as Workspace;
  const router = createMemoryRouter(
    [
      {
        path: "/w/:workspaceId",
        element: <Outlet context={workspace} />,
        children: [
          { path: "alerts/monitors/new", element: <MonitorEditorPage /> },
          { path: "alerts/monitors/:monitorId", element: <p>monitor page</p> },
        ],
      },
    ],
    { initialEntries: [`/w/w1/alerts/monitors/new${search}`] },
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

// CodeMirror and the form take seconds to render in jsdom on a busy machine
describe("MonitorEditorPage", { timeout: 20_000 }, () => {
  const user = userEvent.setup({ delay: null });
  beforeEach(() => {
    client.setConfig({ baseUrl: "http://vigil.test" });
    vi.stubGlobal("ResizeObserver", NoResizeObserver);
  });
  afterEach(() => {
    client.setConfig({ baseUrl: "" });
    vi.unstubAllGlobals();
  });

  it("opens prefilled with the query from Explore, titled, and previews it", async () => {
    const served = serve();
    open("editor");
    expect(document.title).toBe("New monitor · Alerts · Acme · Vigil");
    expect(screen.getByRole("heading", { level: 1, name: "New monitor" })).toBeInTheDocument();
    expect(screen.getByTestId("dql-editor")).toHaveTextContent(QUERY);
    expect(screen.getByTestId("query-language")).toHaveValue("dql");
    expect(await screen.findByTestId("preview-summary", {}, { timeout: 3000 })).toHaveTextContent(
      "Would have fired once in the last 24 hours; firing now.",
    );
    const preview = served.requests.find((r) => r.path.endsWith("/monitors/preview"));
    expect(preview?.body).toMatchObject({ query: QUERY, language: "dql", conditions: [{ severity: "critical", op: ">", threshold: 90 }] });
    // the template variables are listed beside the message
    expect(screen.getByTestId("template-variables")).toHaveTextContent("{{value}} the value that caused it");
  });

  it("is read-only for a viewer: no save, disabled fields, channels never asked for", async () => {
    const served = serve();
    open("viewer");
    expect(screen.getByTestId("monitor-read-only")).toHaveTextContent("You can read monitors; editors and admins create and change them.");
    expect(screen.queryByRole("button", { name: "Create monitor" })).not.toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: "Name" })).toBeDisabled();
    expect(screen.getByRole("textbox", { name: "Critical threshold" })).toBeDisabled();
    // the query is shown as text, not in an editor
    expect(screen.queryByTestId("dql-editor")).not.toBeInTheDocument();
    expect(screen.getByRole("figure", { name: "Monitor query" })).toHaveTextContent(QUERY);
    expect(screen.getByText("Where each severity is sent is visible to editors and admins.")).toBeInTheDocument();
    await screen.findByTestId("preview-summary", {}, { timeout: 3000 });
    expect(served.requests.some((r) => r.path.endsWith("/channels"))).toBe(false);
  });

  it("says what is missing on save and sends nothing", async () => {
    const served = serve();
    open("editor");
    await user.clear(screen.getByRole("textbox", { name: "Evaluate every" }));
    await user.type(screen.getByRole("textbox", { name: "Evaluate every" }), "5s");
    expect(screen.getByRole("textbox", { name: "Evaluate every" })).toHaveAccessibleDescription(
      "Interval must be at least 10s (this workspace's limit).",
    );
    await user.click(screen.getByRole("button", { name: "Create monitor" }));
    expect(screen.getByRole("textbox", { name: "Name" })).toHaveAccessibleDescription("Give the monitor a name.");
    expect(screen.getByTestId("monitor-invalid")).toHaveTextContent("2 fields need fixing before it can be saved.");
    expect(served.requests.some((r) => r.method === "POST" && r.path.endsWith("/monitors"))).toBe(false);
  });

  it("creates the monitor with its routes and opens its page", async () => {
    const served = serve();
    const router = open("admin");
    await user.type(screen.getByRole("textbox", { name: "Name" }), "CPU busy");
    const critical = await screen.findByTestId("routes-critical");
    await user.click(within(critical).getByRole("checkbox", { name: /Ops hook/ }));
    await user.click(screen.getByRole("button", { name: "Create monitor" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/w/w1/alerts/monitors/m9"));
    const post = served.requests.find((r) => r.method === "POST" && r.path === "/api/v1/workspaces/w1/monitors");
    expect(post?.body).toMatchObject({
      name: "CPU busy",
      query: QUERY,
      language: "dql",
      interval_seconds: 60,
      routes: { critical: ["c1"] },
      conditions: [{ severity: "critical", op: ">", threshold: 90 }],
    });
  });

  it("shows storage's refusal under the query with its line and column, and underlines the range", async () => {
    const bad = "M::cpu:(avg(usage_user)) {host = 'a'} BY host }";
    serve({
      createAnswer: () =>
        json(400, {
          detail: "query: line 1:47: unexpected token }",
          code: "dql.parse_error",
          field: "query",
          position: { line: 1, column: 47, start: 46, end: 47 },
        }),
    });
    open("editor", `?q=${encodeURIComponent(bad)}`);
    await user.type(screen.getByRole("textbox", { name: "Name" }), "CPU busy");
    await user.click(screen.getByRole("button", { name: "Create monitor" }));
    const error = await screen.findByTestId("query-error");
    expect(within(error).getByTestId("query-error-position")).toHaveTextContent("line 1, column 47:");
    expect(error).toHaveTextContent("unexpected token }");
    expect(error).toHaveTextContent("dql.parse_error");
    const field = screen.getByTestId("query-field");
    await waitFor(() => expect(field.querySelector(".cm-lintRange-error")).toHaveTextContent("}"));
    expect(screen.getByText("Storage refused the query: see under the query.")).toBeInTheDocument();
  });
});
