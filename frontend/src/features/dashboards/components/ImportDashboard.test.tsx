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
  beforeEach(() => {
    client.setConfig({ baseUrl: "http://vigil.test" });
    created.length = 0;
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = input instanceof Request ? input : new Request(input, init);
      const json = (body: unknown, status = 200): Response =>
        new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
      if (req.method === "GET") {
        return json({ data: [{ ...SUMMARY, id: "d1", title: "Host overview" }], count: 1 });
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
});
