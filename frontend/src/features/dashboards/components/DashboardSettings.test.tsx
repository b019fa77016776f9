import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState, type ReactElement } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { DashboardSpec } from "@/api/dashboards";
import { client } from "@/lib/apiClient";
import { DashboardSettings } from "./DashboardSettings";

/** What the workspace's metadata statements answer, as the DQL API would (DQL.md §2). */
const METADATA: Record<string, { columns: string[]; values: string[][] }> = {
  "show_measurement()": { columns: ["name"], values: [["cpu"], ["mem"]] },
  "show_tag_key(from=['cpu'])": { columns: ["tagKey"], values: [["host"], ["region"]] },
  "show_tag_value(from=['cpu'], keyin=['region'])": { columns: ["key", "value"], values: [["region", "eu"], ["region", "us"]] },
};

async function answer(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = input instanceof Request ? input : new Request(String(input), init);
  const body = (await request.json()) as { queries: { query: string }[] };
  const query = body.queries[0].query;
  const hit = METADATA[query];
  return new Response(JSON.stringify({ content: [{ series: hit ? [{ name: "m", ...hit }] : [] }] }), {
    status: 200,
    headers: { "Content-Type": "application/json" },
  });
}

const START: DashboardSpec = {
  schema_version: 1,
  variables: [
    { name: "host", label: "Host", type: "query", query: "show_tag_value(from=['cpu'], keyin=['host'])", multi: true },
  ],
  panels: [
    {
      id: "p1",
      type: "timeseries",
      title: "CPU",
      grid: { x: 0, y: 0, w: 12, h: 8 },
      queries: [{ query: "M::cpu:(avg(usage_user)) {host = re'$host'}" }],
    },
  ],
};

function Harness({ onChange }: { onChange: (spec: DashboardSpec) => void }): ReactElement {
  const [spec, setSpec] = useState<DashboardSpec>(START);
  return (
    <DashboardSettings
      workspaceId="w1"
      spec={spec}
      onChange={(next) => {
        setSpec(next);
        onChange(next);
      }}
      onClose={() => undefined}
    />
  );
}

function renderSettings(onChange: (spec: DashboardSpec) => void): void {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <Harness onChange={onChange} />
    </QueryClientProvider>,
  );
}

describe("DashboardSettings", () => {
  // Typing without a pause between keys keeps the long journey below well inside its time.
  const user = userEvent.setup({ delay: null });
  const fetchSpy = vi.fn(answer);
  beforeEach(() => {
    // Node's Request needs an absolute URL; the browser resolves the app's relative one.
    client.setConfig({ baseUrl: "http://vigil.test" });
    vi.stubGlobal("fetch", fetchSpy);
  });
  afterEach(() => {
    client.setConfig({ baseUrl: "" });
    vi.unstubAllGlobals();
    fetchSpy.mockClear();
  });

  it("adds a tag-values variable with suggestions and a preview, then reorders and removes variables", async () => {
    const onChange = vi.fn();
    renderSettings(onChange);
    const rows = (): string[] => screen.getAllByTestId("variable-row").map((r) => r.querySelector("code")?.textContent ?? "");
    expect(rows()).toEqual(["$host"]);
    expect(screen.getByTestId("variable-row")).toHaveTextContent("values of tag host in cpu");
    expect(screen.getByTestId("variable-row")).toHaveTextContent("1 panel");

    await user.click(screen.getByRole("button", { name: "Add variable" }));
    const form = screen.getByRole("form", { name: "New variable" });
    const name = within(form).getByLabelText("Name");
    expect(name).toHaveFocus();

    // Nothing is applied while the form is incomplete; each problem is named.
    await user.click(within(form).getByRole("button", { name: "Add" }));
    expect(within(form).getByText("Give the variable a name; panels refer to it as $name.")).toBeInTheDocument();
    expect(within(form).getByText("Choose the measurement whose tag values to offer.")).toBeInTheDocument();
    await user.type(name, "host");
    expect(within(form).getByText("Another variable is already called host.")).toBeInTheDocument();
    await user.clear(name);
    await user.type(name, "region");
    expect(onChange).not.toHaveBeenCalled();

    // Measurements and tag keys are suggested from the workspace's metadata.
    const measurement = within(form).getByLabelText("Measurement");
    await waitFor(() => expect(document.getElementById(measurement.getAttribute("list") ?? "")?.children).toHaveLength(2));
    await user.type(measurement, "cpu");
    const tagKey = within(form).getByLabelText("Tag key");
    await waitFor(() =>
      expect([...(document.getElementById(tagKey.getAttribute("list") ?? "")?.children ?? [])].map((o) => o.getAttribute("value"))).toEqual([
        "host",
        "region",
      ]),
    );
    await user.type(tagKey, "region");

    // The preview lists what show_tag_value returns; a default is picked among those values.
    const preview = within(form).getByTestId("variable-preview");
    expect(await within(preview).findAllByRole("listitem")).toHaveLength(2);
    expect(preview).toHaveTextContent("2 values");
    expect(preview).toHaveTextContent("show_tag_value(from=['cpu'], keyin=['region'])");
    await user.click(within(form).getByLabelText('Include "All"'));
    await user.selectOptions(within(form).getByLabelText("Default value"), "us");
    await user.click(within(form).getByRole("button", { name: "Add" }));

    expect(screen.queryByRole("form", { name: "New variable" })).not.toBeInTheDocument();
    expect(onChange).toHaveBeenLastCalledWith(
      expect.objectContaining({
        variables: [
          START.variables?.[0],
          {
            name: "region",
            label: "",
            language: "dql",
            regex: null,
            type: "query",
            query: "show_tag_value(from=['cpu'], keyin=['region'])",
            options: [],
            default: ["us"],
            multi: false,
            include_all: true,
          },
        ],
      }),
    );
    expect(rows()).toEqual(["$host", "$region"]);
    expect(screen.getAllByTestId("variable-row")[1]).toHaveTextContent("no panel");

    await user.click(screen.getByRole("button", { name: "Move variable region up" }));
    expect(rows()).toEqual(["$region", "$host"]);
    expect(screen.getByRole("button", { name: "Move variable region up" })).toBeDisabled();
    await user.click(screen.getByRole("button", { name: "Remove variable host" }));
    expect(rows()).toEqual(["$region"]);
    expect(onChange.mock.lastCall?.[0].variables.map((v: { name: string }) => v.name)).toEqual(["region"]);
  }, 15_000);

  it("closes the form when the variable it edits goes away (the draft was discarded)", async () => {
    const props = { workspaceId: "w1", onChange: vi.fn(), onClose: vi.fn() };
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const view = render(
      <QueryClientProvider client={client}>
        <DashboardSettings {...props} spec={START} />
      </QueryClientProvider>,
    );
    await user.click(screen.getByRole("button", { name: "Edit variable host" }));
    expect(screen.getByRole("form", { name: "Edit variable host" })).toBeInTheDocument();
    view.rerender(
      <QueryClientProvider client={client}>
        <DashboardSettings {...props} spec={{ ...START, variables: [] }} />
      </QueryClientProvider>,
    );
    expect(screen.queryByRole("form")).not.toBeInTheDocument();
    expect(screen.getByText("No variables yet.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Add variable" })).toBeInTheDocument();
    expect(props.onChange).not.toHaveBeenCalled();
  });

  it("edits a variable in place and sets the default comparison", async () => {
    const onChange = vi.fn();
    renderSettings(onChange);
    await user.click(screen.getByRole("button", { name: "Edit variable host" }));
    const form = screen.getByRole("form", { name: "Edit variable host" });
    expect(within(form).getByLabelText("Measurement")).toHaveValue("cpu");
    expect(within(form).getByLabelText("Tag key")).toHaveValue("host");
    expect(within(form).getByLabelText("Multi-select")).toBeChecked();
    await user.type(within(form).getByLabelText("Label"), "s");
    await user.click(within(form).getByRole("button", { name: "Apply" }));
    expect(onChange.mock.lastCall?.[0].variables[0]).toMatchObject({ name: "host", label: "Hosts", multi: true });
    expect(onChange.mock.lastCall?.[0].panels).toBe(START.panels);

    // Renaming carries the panel queries along.
    await user.click(screen.getByRole("button", { name: "Edit variable host" }));
    const rename = screen.getByRole("form", { name: "Edit variable host" });
    await user.clear(within(rename).getByLabelText("Name"));
    await user.type(within(rename).getByLabelText("Name"), "server");
    expect(within(rename).getByText("Panel queries using $host will use $server")).toBeInTheDocument();
    await user.click(within(rename).getByRole("button", { name: "Apply" }));
    expect(onChange.mock.lastCall?.[0].panels[0].queries[0].query).toBe("M::cpu:(avg(usage_user)) {host = re'$server'}");
    expect(screen.getByTestId("variable-row")).toHaveTextContent("$server");

    const shift = screen.getByTestId("default-time-shift");
    expect(shift).toHaveValue("");
    await user.selectOptions(shift, "1d");
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ time_shift: "1d" }));
    await user.selectOptions(shift, "No comparison");
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ time_shift: null }));
  });

  it("sets how often the dashboard refreshes when its link does not say", async () => {
    const onChange = vi.fn();
    renderSettings(onChange);
    const refresh = screen.getByLabelText("Refresh every");
    expect(refresh).toHaveValue("");
    expect(within(refresh).getAllByRole("option").map((o) => o.textContent)).toEqual([
      "Never",
      "5s",
      "10s",
      "30s",
      "1m",
      "5m",
      "15m",
      "30m",
      "1h",
    ]);
    await user.selectOptions(refresh, "30s");
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ refresh: "30s" }));
    expect(refresh).toHaveValue("30s");
    await user.selectOptions(refresh, "Never");
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ refresh: null }));
  });

  it("sets the time zone everyone sees the dashboard in, or leaves it to each browser", async () => {
    const onChange = vi.fn();
    renderSettings(onChange);
    const zone = screen.getByLabelText("Show times in");
    expect(zone).toHaveValue("");
    const options = within(zone).getAllByRole("option").map((o) => o.textContent);
    expect(options[0]).toMatch(/^Each viewer's browser \(.+ here\)$/);
    expect(options[1]).toBe("UTC");
    expect(options).toContain("Europe/Paris");
    await user.selectOptions(zone, "UTC");
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ timezone: "UTC" }));
    await user.selectOptions(zone, "");
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ timezone: null }));
  });
});

