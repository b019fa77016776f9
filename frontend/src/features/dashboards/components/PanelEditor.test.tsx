import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState, type ReactElement } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Panel } from "@/api/dashboards";
import { client } from "@/client/client.gen";
import { VISUALISATIONS } from "../panelSpec";
import { PanelEditor } from "./PanelEditor";

const busiest: Panel = {
  id: "top-cpu",
  type: "toplist",
  title: "Busiest hosts",
  grid: { x: 0, y: 0, w: 24, h: 8 },
  queries: [{ ref_id: "A", query: "M::cpu:(avg(usage_user)) {cpu = 'cpu-total'} BY host" }],
  unit: "percent",
  reduce: "avg",
  limit: 10,
  order: "desc",
};

/** A page with a field behind the editor and the button that opens it. */
function Page({ panel, onApply }: { panel: Panel; onApply: (p: Panel) => void }): ReactElement {
  const [open, setOpen] = useState(false);
  return (
    <>
      <input aria-label="Behind the editor" />
      <button type="button" onClick={() => setOpen(true)}>
        Edit {panel.title}
      </button>
      {open ? (
        <PanelEditor
          workspaceId="w1"
          panel={panel}
          timeRange={{ from: "now-1h", to: "now" }}
          variables={{}}
          onApply={(p) => {
            onApply(p);
            setOpen(false);
          }}
          onCancel={() => setOpen(false)}
        />
      ) : null}
    </>
  );
}

class NoResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}

describe("PanelEditor", () => {
  const user = userEvent.setup({ delay: null });
  beforeEach(() => {
    client.setConfig({ baseUrl: "http://vigil.test" });
    vi.stubGlobal("ResizeObserver", NoResizeObserver);
    vi.stubGlobal("fetch", async () =>
      new Response(JSON.stringify({ content: [{ series: [] }] }), { status: 200, headers: { "Content-Type": "application/json" } }),
    );
  });
  afterEach(() => {
    client.setConfig({ baseUrl: "" });
    vi.unstubAllGlobals();
  });

  const openEditor = async (onApply = vi.fn()) => {
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <Page panel={busiest} onApply={onApply} />
      </QueryClientProvider>,
    );
    const opener = screen.getByRole("button", { name: "Edit Busiest hosts" });
    await user.click(opener);
    const editor = screen.getByRole("dialog", { name: "Edit panel" });
    expect(within(editor).getByLabelText("Title")).toHaveFocus();
    return { editor, opener, onApply };
  };

  it("keeps Tab inside the editor and gives focus back to the opener when it closes", async () => {
    const { editor, opener } = await openEditor();
    const behind = screen.getByLabelText("Behind the editor");

    // From the first control, Shift+Tab goes round to the last one, not to the page behind.
    const discard = within(editor).getByRole("button", { name: "Discard" });
    discard.focus();
    await user.tab({ shift: true });
    expect(editor).toContainElement(document.activeElement as HTMLElement);
    const last = document.activeElement;
    expect(last).not.toBe(discard);
    // and Tab from there comes back to the first
    await user.tab();
    expect(discard).toHaveFocus();

    // Around the options: never behind.
    within(editor).getByLabelText("Title").focus();
    for (let i = 0; i < 40; i++) {
      await user.tab();
      expect(editor).toContainElement(document.activeElement as HTMLElement);
    }
    // Focus sent behind the editor some other way comes back.
    behind.focus();
    expect(behind).not.toHaveFocus();
    expect(editor).toContainElement(document.activeElement as HTMLElement);

    // (Escape in the query editor stays there, for its completion list)
    within(editor).getByLabelText("Title").focus();
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("dialog", { name: "Edit panel" })).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  }, 30_000);

  it("edits a top list as a top list, with its value, length and order", async () => {
    const { editor, onApply } = await openEditor();
    expect(within(editor).getByRole("radio", { name: "Top list" })).toHaveAttribute("aria-checked", "true");
    expect(within(editor).getByRole("radio", { name: "Line" })).toHaveAttribute("aria-checked", "false");
    expect(within(editor).getByLabelText("Value")).toHaveValue("avg");
    await user.selectOptions(within(editor).getByLabelText("Value"), "max");
    await user.clear(within(editor).getByLabelText("Show"));
    await user.type(within(editor).getByLabelText("Show"), "5");
    await user.selectOptions(within(editor).getByLabelText("Order"), "Smallest first");
    await user.click(within(editor).getByRole("button", { name: "Apply" }));
    expect(onApply).toHaveBeenCalledWith(expect.objectContaining({ type: "toplist", reduce: "max", limit: 5, order: "asc" }));
  });

  it("moves through the visualisations with the arrow keys, one Tab stop for all of them", async () => {
    const { editor, onApply } = await openEditor();
    const labels = VISUALISATIONS.map((v) => v.label);
    const at = labels.indexOf("Top list");
    const group = within(editor).getByRole("radiogroup", { name: "Visualisation" });
    expect(within(group).getAllByRole("radio").filter((r) => r.tabIndex === 0)).toEqual([
      within(group).getByRole("radio", { name: "Top list" }),
    ]);
    within(group).getByRole("radio", { name: "Top list" }).focus();
    await user.keyboard("{ArrowRight}");
    const next = VISUALISATIONS[(at + 1) % labels.length];
    expect(within(group).getByRole("radio", { name: next.label })).toHaveFocus();
    expect(within(group).getByRole("radio", { checked: true })).toHaveAccessibleName(next.label);
    await user.keyboard("{Home}");
    expect(within(group).getByRole("radio", { name: labels[0] })).toHaveAttribute("aria-checked", "true");
    await user.keyboard("{ArrowUp}");
    expect(within(group).getByRole("radio", { name: labels[labels.length - 1] })).toHaveFocus();
    await user.keyboard("{End}{ArrowDown}{ArrowDown}");
    expect(within(group).getByRole("radio", { name: labels[1] })).toHaveFocus();
    await user.click(within(editor).getByRole("button", { name: "Apply" }));
    expect(onApply).toHaveBeenCalledWith(expect.objectContaining({ type: VISUALISATIONS[1].value }));
  });

  it("turns a panel into a heatmap and back, keeping its query, with a colour scheme and a colour scale", async () => {
    const { editor, onApply } = await openEditor();
    await user.click(within(editor).getByRole("radio", { name: "Heatmap" }));
    expect(within(editor).getByRole("radio", { name: "Heatmap" })).toHaveAttribute("aria-checked", "true");
    // a heatmap is coloured by its scale: no thresholds, no reducer, no legend values
    expect(within(editor).queryByRole("group", { name: "Thresholds" })).not.toBeInTheDocument();
    expect(within(editor).queryByText("Thresholds")).not.toBeInTheDocument();
    expect(within(editor).queryByLabelText("Value")).not.toBeInTheDocument();
    expect(within(editor).queryByRole("group", { name: "Values in the legend" })).not.toBeInTheDocument();
    expect(within(editor).getByLabelText("Colours")).toHaveValue("viridis");
    await user.selectOptions(within(editor).getByLabelText("Colours"), "Blues");
    await user.selectOptions(within(editor).getByLabelText("Placement"), "Right");
    expect(within(editor).getByLabelText("Show colour scale")).toBeChecked();
    await user.click(within(editor).getByRole("button", { name: "Apply" }));
    const applied = onApply.mock.calls[0][0] as Panel;
    expect(applied).toMatchObject({
      type: "heatmap",
      color_scheme: "blues",
      queries: busiest.queries,
      unit: "percent",
      legend: { position: "right" },
    });
    expect("reduce" in applied).toBe(false);
  });

  it("makes a gauge with a dial range, refusing a start at or above the end", async () => {
    const { editor, onApply } = await openEditor();
    await user.click(within(editor).getByRole("radio", { name: "Gauge" }));
    expect(within(editor).getByLabelText("Value")).toHaveValue("avg");
    const min = within(editor).getByLabelText("Min");
    const max = within(editor).getByLabelText("Max");
    await user.type(min, "50");
    await user.type(max, "50");
    expect(within(editor).getByRole("alert")).toHaveTextContent("Min must be below Max.");
    expect(max).toHaveAttribute("aria-invalid", "true");
    expect(within(editor).getByRole("button", { name: "Apply" })).toBeDisabled();
    await user.clear(max);
    await user.type(max, "120");
    expect(within(editor).queryByRole("alert")).not.toBeInTheDocument();
    await user.click(within(editor).getByRole("button", { name: "Apply" }));
    expect(onApply).toHaveBeenCalledWith(expect.objectContaining({ type: "gauge", reduce: "avg", min: 50, max: 120 }));
  });

  it("keeps the query when a heatmap becomes lines", async () => {
    const { editor, onApply } = await openEditor();
    await user.click(within(editor).getByRole("radio", { name: "Heatmap" }));
    await user.click(within(editor).getByRole("radio", { name: "Line" }));
    expect(within(editor).queryByLabelText("Colours")).not.toBeInTheDocument();
    await user.click(within(editor).getByRole("button", { name: "Apply" }));
    const applied = onApply.mock.calls[0][0] as Panel;
    expect(applied).toMatchObject({ type: "timeseries", queries: busiest.queries });
    expect("color_scheme" in applied).toBe(false);
  });

  it("turns another panel into a top list from the visualisation switcher", async () => {
    const { editor, onApply } = await openEditor();
    await user.click(within(editor).getByRole("radio", { name: "Line" }));
    await user.click(within(editor).getByRole("radio", { name: "Top list" }));
    await user.click(within(editor).getByRole("button", { name: "Apply" }));
    expect(onApply).toHaveBeenCalledWith(expect.objectContaining({ type: "toplist", reduce: "last" }));
  });

  it("writes a text panel with a Markdown preview, and gives the query back when it is a chart again", async () => {
    const { editor, onApply } = await openEditor();
    await user.click(within(editor).getByRole("radio", { name: "Text" }));
    // no query, no unit, no thresholds: a text area and its preview
    expect(within(editor).queryByLabelText("Panel query")).not.toBeInTheDocument();
    expect(within(editor).queryByLabelText("Unit")).not.toBeInTheDocument();
    expect(within(editor).queryByText("Thresholds")).not.toBeInTheDocument();
    const text = within(editor).getByLabelText("Text (Markdown)");
    await user.type(text, "# Runbook{Enter}{Enter}Restart **the agent**.");
    const heading = await within(editor).findByRole("heading", { name: "Runbook", level: 3 }, { timeout: 5_000 });
    const preview = within(editor).getByRole("region", { name: "Preview of Busiest hosts" });
    expect(preview).toContainElement(heading);
    expect(within(preview).getByText("the agent").tagName).toBe("STRONG");
    // a text panel needs no query to be applied
    expect(within(editor).getByRole("button", { name: "Apply" })).toBeEnabled();

    // back to a chart and to text again: the query and the text are both still there
    await user.click(within(editor).getByRole("radio", { name: "Top list" }));
    expect(within(editor).getByLabelText("Value")).toHaveValue("avg");
    await user.click(within(editor).getByRole("radio", { name: "Text" }));
    await user.click(within(editor).getByRole("button", { name: "Apply" }));
    expect(onApply).toHaveBeenCalledWith({
      id: "top-cpu",
      type: "text",
      title: "Busiest hosts",
      grid: busiest.grid,
      content: "# Runbook\n\nRestart **the agent**.",
    });
  }, 20_000);

  it("adds, names, hides and removes queries; each series named by its query's legend", async () => {
    const sent: string[][] = [];
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = input instanceof Request ? input : new Request(input, init);
      const body = (await req.json()) as { queries: { query: string }[] };
      sent.push(body.queries.map((q) => q.query));
      const content = body.queries.map((q) => ({
        series: ["a", "b"].map((host) => ({
          name: q.query.includes("mem") ? "mem" : "cpu",
          tags: { host },
          columns: ["time", "v"],
          values: [[Date.now(), 1]],
        })),
      }));
      return new Response(JSON.stringify({ content }), { status: 200, headers: { "Content-Type": "application/json" } });
    });
    const { editor, onApply } = await openEditor();
    // one query: no reference, no remove
    expect(within(editor).getByLabelText("Panel query")).toBeInTheDocument();
    expect(within(editor).queryByRole("button", { name: /^Remove query/ })).not.toBeInTheDocument();
    await user.click(within(editor).getByRole("button", { name: "Add query" }));
    // two: each named by its reference; the new one is empty and holds Apply back
    expect(within(editor).getByLabelText("Panel query A")).toBeInTheDocument();
    expect(within(editor).getByLabelText("Panel query B")).toBeInTheDocument();
    expect(within(editor).getByRole("alert")).toHaveTextContent("Query B is empty: write it or remove it.");
    expect(within(editor).getByRole("button", { name: "Apply" })).toBeDisabled();
    await user.click(within(editor).getByLabelText("Panel query B"));
    await user.paste("M::mem:(avg(used)) BY host");
    await user.type(within(editor).getByLabelText("Legend of query A"), "cpu {{{{host}}");
    await user.type(within(editor).getByLabelText("Legend of query B"), "mem {{{{host}}");
    // the preview's ranking names the series by the legends
    const preview = () => within(editor).getByRole("region", { name: "Preview of Busiest hosts" });
    await vi.waitFor(() => expect(within(preview()).getByRole("list").textContent).toMatch(/mem a/), { timeout: 5_000 });
    expect(within(preview()).getByRole("list").textContent).toMatch(/cpu a/);

    // hidden: not sent
    await user.click(within(editor).getByLabelText("Hide query A"));
    await vi.waitFor(() => expect(sent.at(-1)).toEqual(["M::mem:(avg(used)) BY host"]), { timeout: 5_000 });
    await user.click(within(editor).getByRole("button", { name: "Apply" }));
    expect(onApply).toHaveBeenCalledWith(
      expect.objectContaining({
        queries: [
          { ...busiest.queries[0], legend_format: "cpu {{host}}", hidden: true },
          { ref_id: "B", query: "M::mem:(avg(used)) BY host", legend_format: "mem {{host}}" },
        ],
      }),
    );
  }, 20_000);

  it("removes a query, and the last one left has no reference again", async () => {
    const { editor, onApply } = await openEditor();
    await user.click(within(editor).getByRole("button", { name: "Add query" }));
    await user.click(within(editor).getByRole("button", { name: "Remove query A" }));
    expect(within(editor).getByLabelText("Panel query")).toBeInTheDocument();
    await user.click(within(editor).getByLabelText("Panel query"));
    await user.paste("M::cpu:(max(usage_user))");
    await user.click(within(editor).getByRole("button", { name: "Apply" }));
    expect(onApply).toHaveBeenCalledWith(expect.objectContaining({ queries: [{ ref_id: "B", query: "M::cpu:(max(usage_user))" }] }));
  });
});
