import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState, type ReactElement } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { client } from "@/client/client.gen";
import type { Panel } from "../api";
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

  it("turns another panel into a top list from the visualisation switcher", async () => {
    const { editor, onApply } = await openEditor();
    await user.click(within(editor).getByRole("radio", { name: "Line" }));
    await user.click(within(editor).getByRole("radio", { name: "Top list" }));
    await user.click(within(editor).getByRole("button", { name: "Apply" }));
    expect(onApply).toHaveBeenCalledWith(expect.objectContaining({ type: "toplist", reduce: "last" }));
  });
});
