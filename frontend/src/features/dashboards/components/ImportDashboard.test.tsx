import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { client } from "@/client/client.gen";
import { ImportDashboard } from "./ImportDashboard";

const SUMMARY = {
  workspace_id: "w1",
  description: "",
  tags: [],
  version: 1,
  created_at: "2026-11-21T10:00:00Z",
  updated_at: "2026-11-21T10:00:00Z",
};
const DOC = { format: "vigil.dashboard", title: "Host overview", spec: { schema_version: 1, panels: [] } };

describe("ImportDashboard", () => {
  const created: { title: string }[] = [];
  const grafana: { url: string; body: Record<string, unknown> }[] = [];
  beforeEach(() => {
    client.setConfig({ baseUrl: "http://vigil.test" });
    created.length = 0;
    grafana.length = 0;
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = input instanceof Request ? input : new Request(input, init);
      const json = (body: unknown, status = 200): Response =>
        new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
      if (req.method === "GET") {
        return json({ data: [{ ...SUMMARY, id: "d1", title: "Host overview" }], count: 1 });
      }
      if (new URL(req.url).pathname.endsWith("/import/grafana")) {
        const doc = (await req.json()) as Record<string, unknown>;
        grafana.push({ url: req.url, body: doc });
        const title = new URL(req.url).searchParams.get("title") ?? "";
        const dashboard = { ...SUMMARY, id: "d3", title, created_by: null, updated_by: null };
        const spec = { schema_version: 1, variables: [{ name: "node", type: "query" }], panels: [{ id: "p1", type: "stat" }] };
        return json(
          {
            dashboard: { ...dashboard, spec },
            unmapped: [{ kind: "panel", title: "Network packets", grafana_id: 7, reason: "panel type 'piechart' has no Vigil equivalent" }],
          },
          201,
        );
      }
      const body = (await req.json()) as { title: string; spec: unknown };
      created.push(body);
      return json({ ...SUMMARY, id: "d2", title: body.title, spec: body.spec, created_by: null, updated_by: null }, 201);
    });
  });
  afterEach(() => {
    client.setConfig({ baseUrl: "" });
    vi.unstubAllGlobals();
  });

  const renderImport = (onImported = vi.fn()) => {
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <ImportDashboard workspaceId="w1" onImported={onImported} />
      </QueryClientProvider>,
    );
    return onImported;
  };

  it("says when the title is taken and imports under '<title> (imported)' instead of a same-named copy", async () => {
    const onImported = renderImport();
    fireEvent.change(screen.getByLabelText("Or paste the exported JSON"), { target: { value: JSON.stringify(DOC) } });
    const title = screen.getByLabelText("Title");
    await waitFor(() => expect(title).toHaveValue("Host overview (imported)"));
    expect(title).toHaveAccessibleDescription(/A dashboard called "Host overview" already exists in this workspace/);

    // The taken title itself is refused before anything is sent.
    await userEvent.clear(title);
    await userEvent.type(title, "host overview");
    await userEvent.click(screen.getByRole("button", { name: "Import" }));
    expect(title).toHaveAccessibleDescription(/already has a dashboard called "host overview"; choose another title/);
    expect(created).toHaveLength(0);

    await userEvent.clear(title);
    await userEvent.type(title, "Hosts from prod");
    await userEvent.click(screen.getByRole("button", { name: "Import" }));
    await waitFor(() => expect(onImported).toHaveBeenCalled());
    expect(created.map((c) => c.title)).toEqual(["Hosts from prod"]);
  });

  it("keeps a title the workspace does not have", async () => {
    const onImported = renderImport();
    fireEvent.change(screen.getByLabelText("Or paste the exported JSON"), {
      target: { value: JSON.stringify({ ...DOC, title: "Network" }) },
    });
    await waitFor(() => expect(screen.getByLabelText("Title")).toHaveValue("Network"));
    expect(screen.queryByTestId("import-title-clash")).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Import" }));
    await waitFor(() => expect(onImported).toHaveBeenCalled());
    expect(created.map((c) => c.title)).toEqual(["Network"]);
  });

  it("recognises a Grafana dashboard, imports it and lists what was not carried over before opening it", async () => {
    const onImported = renderImport();
    const doc = { __inputs: [{ name: "DS_PROMETHEUS", type: "datasource" }], title: "Host overview", panels: [], schemaVersion: 39 };
    fireEvent.change(screen.getByLabelText("Or paste the exported JSON"), { target: { value: JSON.stringify(doc) } });
    expect(await screen.findByTestId("import-grafana")).toHaveTextContent("A Grafana dashboard");
    // the title clash is handled as for any import
    await waitFor(() => expect(screen.getByLabelText("Title")).toHaveValue("Host overview (imported)"));
    await userEvent.click(screen.getByRole("button", { name: "Import" }));

    const report = await screen.findByTestId("grafana-import-report");
    expect(grafana).toHaveLength(1);
    expect(new URL(grafana[0].url).searchParams.get("title")).toBe("Host overview (imported)");
    expect(grafana[0].body).toEqual(doc);
    expect(created).toHaveLength(0);
    expect(report).toHaveTextContent("Imported “Host overview (imported)”");
    expect(report).toHaveTextContent("1 panel and 1 variable were carried over from Grafana.");
    const items = screen.getAllByRole("listitem");
    expect(items.map((li) => li.textContent)).toEqual(["Panel Network packets: panel type 'piechart' has no Vigil equivalent"]);
    expect(onImported).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole("button", { name: "Open the dashboard" }));
    expect(onImported).toHaveBeenCalledWith(expect.objectContaining({ id: "d3", title: "Host overview (imported)" }));
  });
});
