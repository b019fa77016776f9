import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, Outlet, RouterProvider } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Workspace } from "@/api/workspaces";
import { client } from "@/client/client.gen";
import type { ApiKeyPublic } from "@/client/types.gen";
import { GetStartedPage } from "./GetStartedPage";

const WORKSPACE: Workspace = { id: "w1", name: "Acme", role: "owner", created_at: "2026-11-21T08:00:00Z" };

const key = (name: string, scope: "ingest" | "query", revoked = false): ApiKeyPublic => ({
  id: `k-${name}`,
  workspace_id: "w1",
  name,
  scope,
  key_prefix: "vgi_abcdefgh",
  created_at: "2026-11-21T08:00:00Z",
  created_by: null,
  last_used_at: null,
  revoked_at: revoked ? "2026-11-21T09:00:00Z" : null,
});

const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

describe("GetStartedPage", () => {
  const created: string[] = [];
  const serve = (keys: ApiKeyPublic[], gatewayUrl: string | null): void => {
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = input instanceof Request ? input : new Request(input, init);
      const path = new URL(req.url).pathname;
      if (path === "/api/v1/meta") return json(200, { gateway_url: gatewayUrl });
      if (path === "/api/v1/workspaces/w1/keys" && req.method === "POST") {
        const { name } = (await req.json()) as { name: string };
        created.push(name);
        return json(201, { ...key(name, "ingest"), key: "vgi_newkey" });
      }
      if (path === "/api/v1/workspaces/w1/keys") return json(200, { data: keys, count: keys.length });
      if (path === "/api/v1/workspaces/w1/dashboards") return json(200, { data: [], count: 0 });
      return json(500, { detail: `unexpected ${path}`, code: "internal" });
    });
  };
  beforeEach(() => {
    client.setConfig({ baseUrl: window.location.origin });
    created.length = 0;
  });
  afterEach(() => {
    client.setConfig({ baseUrl: "" });
    vi.unstubAllGlobals();
  });

  const open = (): void => {
    const router = createMemoryRouter(
      [
        {
          path: "/w/:workspaceId",
          element: <Outlet context={WORKSPACE} />,
          children: [{ path: "get-started", element: <GetStartedPage /> }],
        },
      ],
      { initialEntries: ["/w/w1/get-started"] },
    );
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
  };

  it("puts the gateway the backend names in the agent and curl commands", async () => {
    serve([], "https://ingest.example.com");
    open();
    await userEvent.click(await screen.findByRole("button", { name: "Create an ingest key" }));
    expect(await screen.findByTestId("agent-command")).toHaveTextContent(
      "VIGIL_INGEST_KEY=vgi_newkey vigil-agent -gateway.url=https://ingest.example.com",
    );
    expect(screen.getByTestId("curl-command")).toHaveTextContent(
      'curl -i "https://ingest.example.com/v1/write/metric?precision=s" -H "Authorization: Token vgi_newkey"',
    );
    expect(screen.getByTestId("gateway-url")).toHaveTextContent("Agents send to https://ingest.example.com.");
    expect(document.body).not.toHaveTextContent("<gateway-host>");
    expect(created).toEqual(["agent"]);
  });

  it("without one, uses this page's host on the gateway's default port and says so", async () => {
    serve([], null);
    open();
    await userEvent.click(await screen.findByRole("button", { name: "Create an ingest key" }));
    const gateway = `http://${window.location.hostname}:8001`;
    expect(await screen.findByTestId("agent-command")).toHaveTextContent(`-gateway.url=${gateway}`);
    expect(screen.getByTestId("gateway-url")).toHaveTextContent(
      `Agents send to ${gateway} (this page's host on the gateway's default port; an operator can set the real address with VIGIL_PUBLIC_GATEWAY_URL).`,
    );
  });

  it("says how many ingest keys the workspace has, and names another key apart from them", async () => {
    serve([key("agent", "ingest"), key("agent 2", "ingest", true), key("ci", "ingest"), key("grafana", "query")], null);
    open();
    expect(await screen.findByTestId("existing-keys")).toHaveTextContent(
      "This workspace has 2 ingest keys — manage them. Agents can share one, or each get their own.",
    );
    expect(screen.getByRole("link", { name: "manage them" })).toHaveAttribute("href", "/w/w1/settings/keys");
    await userEvent.click(screen.getByRole("button", { name: "Create another ingest key" }));
    expect(await screen.findByTestId("new-key")).toHaveTextContent("Your ingest key “agent 3” — copy it now");
    expect(created).toEqual(["agent 3"]);
    expect(screen.queryByTestId("existing-keys")).not.toBeInTheDocument();
  });

  it("titles the window", () => {
    serve([], null);
    open();
    expect(document.title).toBe("Get started · Acme · Vigil");
  });
});
