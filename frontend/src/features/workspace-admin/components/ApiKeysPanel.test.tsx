import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { client } from "@/lib/apiClient";
import type { ApiKey, KeyScope } from "@/api/apiKeys";
import { ApiKeysPanel } from "./ApiKeysPanel";

const WS = "w1";
const TOKEN = "vgs_" + "t".repeat(43);

const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

const key = (id: string, scope: KeyScope, extra: Partial<ApiKey> = {}): ApiKey => ({
  id,
  workspace_id: WS,
  name: `${scope} ${id}`,
  scope,
  key_prefix: scope === "ingest" ? "vgi_abcdefgh" : "vgs_abcdefgh",
  created_at: "2026-11-28T08:00:00Z",
  created_by: "u1",
  created_by_email: "ada@example.com",
  created_by_name: "Ada",
  last_used_at: null,
  revoked_at: null,
  ...extra,
});

/** The keys endpoints as the API answers them; what was posted goes to `posted`. */
function serve(keys: ApiKey[], posted: unknown[] = []) {
  return vi.fn(async (input: RequestInfo | URL) => {
    const req = input instanceof Request ? input : new Request(String(input));
    const url = new URL(req.url);
    if (url.pathname === `/api/v1/workspaces/${WS}/keys` && req.method === "GET") {
      return json(200, { data: keys, count: keys.length });
    }
    if (url.pathname === `/api/v1/workspaces/${WS}/keys` && req.method === "POST") {
      const body = (await req.json()) as { name: string; scope: KeyScope };
      posted.push(body);
      const created = key("new", body.scope, { name: body.name });
      keys.unshift(created);
      return json(201, { ...created, key: TOKEN });
    }
    return json(500, { detail: `unexpected ${req.method} ${url.pathname}`, code: "internal" });
  });
}

function renderPanel(): void {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ApiKeysPanel workspaceId={WS} canManage />
    </QueryClientProvider>,
  );
}

describe("ApiKeysPanel", () => {
  let posted: unknown[] = [];
  beforeAll(() => client.setConfig({ baseUrl: window.location.origin }));
  afterAll(() => client.setConfig({ baseUrl: "" }));
  afterEach(() => vi.unstubAllGlobals());
  beforeEach(() => {
    posted = [];
    const keys = [
      key("1", "editor", { name: "deploy dashboards", last_used_at: "2026-11-28T09:30:00Z" }),
      key("2", "ingest", { created_by: null, created_by_email: null, created_by_name: null }),
    ];
    vi.stubGlobal("fetch", serve(keys, posted));
  });

  it("lists service tokens with their scope, creator and last use", async () => {
    renderPanel();
    const table = await screen.findByTestId("keys-table");
    const rows = within(table).getAllByRole("row");
    expect(rows[1]).toHaveTextContent("deploy dashboards");
    expect(rows[1]).toHaveTextContent("editor token");
    expect(rows[1]).toHaveTextContent("ada@example.com");
    expect(rows[1]).not.toHaveTextContent("never");
    expect(rows[2]).toHaveTextContent("ingest");
    expect(rows[2]).toHaveTextContent("never");
    expect(within(rows[1]!).getByRole("button", { name: "Revoke key deploy dashboards" })).toBeInTheDocument();
  });

  it("creates an admin token and shows it once, with a copy button and how to use it", async () => {
    renderPanel();
    await screen.findByTestId("keys-table");
    const scope = screen.getByRole("combobox", { name: "Scope" });
    expect(within(scope).getByRole("group", { name: "Service tokens for the REST API" })).toHaveTextContent(
      /editor — .*admin — .*not keys or tokens/,
    );
    await userEvent.selectOptions(scope, "admin");
    await userEvent.click(screen.getByRole("button", { name: "Create token" }));
    expect(screen.getByRole("textbox", { name: "Key name" })).toHaveAccessibleDescription(
      "Give the token a name, e.g. the script or pipeline that will use it.",
    );
    await userEvent.type(screen.getByRole("textbox", { name: "Key name" }), "ci");
    await userEvent.click(screen.getByRole("button", { name: "Create token" }));
    const shown = await screen.findByTestId("new-key");
    expect(shown).toHaveTextContent("Copy this token now — it will not be shown again");
    expect(screen.getByTestId("new-key-value")).toHaveTextContent(TOKEN);
    expect(screen.getByRole("button", { name: "Copy token" })).toBeInTheDocument();
    expect(screen.getByTestId("new-token-example")).toHaveTextContent(
      `curl -H "Authorization: Bearer $VIGIL_TOKEN" ${window.location.origin}/api/v1/workspaces/${WS}/dashboards`,
    );
    expect(posted).toEqual([{ name: "ci", scope: "admin" }]);
    expect(await screen.findByText("admin token")).toBeInTheDocument();
  });
});
