import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { QueryPanel } from "@/api/dashboards";
import type { PanelData } from "@/components/panels/panelData";
import { captureDownloads } from "@/test/downloads";
import { PanelMenu } from "./PanelMenu";

const PANEL = {
  id: "p1",
  type: "toplist",
  title: "Busiest hosts",
  unit: "percent",
  grid: { x: 0, y: 0, w: 6, h: 8 },
  queries: [
    { ref_id: "A", query: "M::cpu:(avg(usage)) { host = re'a|b' } BY host" },
    { ref_id: "B", query: "M::mem:(avg(used)) BY host" },
  ],
} as QueryPanel;

const DATA: PanelData = {
  range: [Date.UTC(2026, 10, 22, 9, 0), Date.UTC(2026, 10, 22, 10, 0)],
  result: {
    series: [
      { name: "cpu", tags: { host: "a" }, columns: ["time", "avg(usage)"], values: [[Date.UTC(2026, 10, 22, 9, 0), 41.5], [Date.UTC(2026, 10, 22, 9, 1), 42]] },
      { name: "cpu", tags: { host: "b" }, columns: ["time", "avg(usage)"], values: [[Date.UTC(2026, 10, 22, 9, 0), 7]] },
    ],
  },
};

function renderMenu(data: PanelData | undefined): void {
  render(
    <MemoryRouter>
      <PanelMenu
        workspaceId="w1"
        panel={PANEL}
        title="Busiest hosts"
        queries={PANEL.queries.map((q, i) => ({ refId: q.ref_id!, query: q.query, legend: i === 0 ? "{{host}} cpu" : undefined }))}
        timeRange={{ from: "now-1h", to: "now" }}
        data={data}
      />
    </MemoryRouter>,
  );
}

describe("PanelMenu", () => {
  const user = userEvent.setup({ delay: null });
  afterEach(() => vi.restoreAllMocks());

  it("opens its queries in Explore at once, drawn as a table in the panel's unit; no View without a dashboard to go back to", async () => {
    renderMenu(DATA);
    await user.click(screen.getByRole("button", { name: "Menu of Busiest hosts" }));
    const items = within(screen.getByRole("menu")).getAllByRole("menuitem");
    expect(items.map((i) => i.textContent)).toEqual(["Share", "Explore", "Inspect data", "Download CSV"]);
    const link = new URL(items[1].getAttribute("href")!, "http://x");
    expect(link.pathname).toBe("/w/w1/explore");
    expect([...link.searchParams]).toEqual([
      ["q", "M::cpu:(avg(usage)) { host = re'a|b' } BY host"],
      ["legend", "{{host}} cpu"],
      ["q.B", "M::mem:(avg(used)) BY host"],
      ["from", "now-1h"],
      ["to", "now"],
      ["view", "table"],
      ["unit", "percent"],
    ]);
  });

  it("moves with the arrow keys and closes on Escape, focus back on its button", async () => {
    renderMenu(DATA);
    const button = screen.getByRole("button", { name: "Menu of Busiest hosts" });
    button.focus();
    await user.keyboard("{ArrowDown}");
    expect(screen.getByRole("menuitem", { name: "Share" })).toHaveFocus();
    await user.keyboard("{ArrowUp}");
    expect(screen.getByRole("menuitem", { name: "Download CSV" })).toHaveFocus();
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("menu")).not.toBeInTheDocument();
    expect(button).toHaveFocus();
  });

  it("shows the data behind the drawing in tables, with the queries as sent, and downloads it as CSV", async () => {
    const blobs = captureDownloads();
    renderMenu(DATA);
    const button = screen.getByRole("button", { name: "Menu of Busiest hosts" });
    await user.click(button);
    await user.click(screen.getByRole("menuitem", { name: "Inspect data" }));

    const dialog = screen.getByRole("dialog", { name: "Data of Busiest hosts" });
    expect(dialog).toHaveAccessibleDescription(/^2 series, 3 rows, from .* to .*\.$/);
    const region = within(dialog).getByRole("region", { name: "Data of Busiest hosts" });
    expect(region).toHaveFocus();
    const tables = within(region).getAllByRole("table");
    expect(tables.map((t) => t.querySelector("caption")?.textContent)).toEqual(["cpu · host=a", "cpu · host=b"]);
    expect(within(tables[0]).getAllByRole("cell").map((c) => c.textContent)).toContain("41.5%");
    expect(within(dialog).getByText("A: M::cpu:(avg(usage)) { host = re'a|b' } BY host")).toBeInTheDocument();

    await user.click(within(dialog).getByRole("button", { name: "Download CSV" }));
    expect(blobs).toHaveLength(1);
    expect(blobs[0].type).toBe("text/csv");
    expect((await blobs[0].text()).split("\n")[0]).toBe("series,host,time,avg(usage)");

    await user.keyboard("{Escape}");
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(button).toHaveFocus();
  });

  it("offers the data only once there is some", async () => {
    renderMenu(undefined);
    await user.click(screen.getByRole("button", { name: "Menu of Busiest hosts" }));
    const inspect = screen.getByRole("menuitem", { name: "Inspect data" });
    expect(inspect).toHaveAttribute("aria-disabled", "true");
    expect(screen.getByRole("menuitem", { name: "Download CSV" })).toHaveAttribute("aria-disabled", "true");
    await user.click(inspect);
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(screen.getByRole("menu")).toBeInTheDocument();
  });

  it("shares the link to the panel alone, with the time range locked if wanted", async () => {
    window.history.replaceState(null, "", "/w/w1/dashboards/d1?var-host=a");
    renderMenu(DATA);
    await user.click(screen.getByRole("button", { name: "Menu of Busiest hosts" }));
    await user.click(screen.getByRole("menuitem", { name: "Share" }));
    const dialog = screen.getByRole("dialog", { name: "Share “Busiest hosts”" });
    const field = within(dialog).getByLabelText("Link");
    expect(field).toHaveFocus();
    const link = (): URL => new URL((field as HTMLInputElement).value);
    expect(link().pathname).toBe("/w/w1/dashboards/d1");
    expect(Object.fromEntries(link().searchParams)).toEqual({ "var-host": "a", from: "now-1h", to: "now", viewPanel: "p1" });
    expect(within(dialog).getByText("Last 1 hour, counted from when the link is opened.")).toBeInTheDocument();

    await user.click(within(dialog).getByLabelText("Lock the time range"));
    const [from, to] = [Number(link().searchParams.get("from")), Number(link().searchParams.get("to"))];
    expect(to - from).toBe(3_600_000);
    expect(Math.abs(Date.now() - to)).toBeLessThan(60_000);
    expect(within(dialog).getByText(/^Always .* → .*, as shown now\.$/)).toBeInTheDocument();

    await user.click(within(dialog).getByLabelText("Only the panel “Busiest hosts”"));
    expect(link().searchParams.has("viewPanel")).toBe(false);
    await user.click(within(dialog).getByRole("button", { name: "Done" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    window.history.replaceState(null, "", "/");
  });

  it("inspects and downloads the past series of a comparison too, named as the legend names them", async () => {
    const blobs = captureDownloads();
    const DAY = 86_400_000;
    const past = {
      series: [{ name: "cpu", tags: { host: "a" }, columns: ["time", "avg(usage)"], values: [[DATA.range[0] - DAY, 30]] }],
    };
    renderMenu({ ...DATA, compare: { result: past, shiftMs: DAY, shift: "1d" } });
    await user.click(screen.getByRole("button", { name: "Menu of Busiest hosts" }));
    await user.click(screen.getByRole("menuitem", { name: "Inspect data" }));
    const dialog = screen.getByRole("dialog", { name: "Data of Busiest hosts" });
    expect(dialog).toHaveAccessibleDescription(/^3 series \(with 1d ago\), 4 rows, from /);
    const captions = within(dialog).getAllByRole("table").map((t) => t.querySelector("caption")?.textContent);
    expect(captions).toEqual(["cpu · host=a", "cpu · host=b", "cpu (1d ago) · host=a"]);
    await user.click(within(dialog).getByRole("button", { name: "Download CSV" }));
    const csv = (await blobs[0].text()).split("\n");
    expect(csv).toContain(`cpu (1d ago),a,${new Date(DATA.range[0] - DAY).toISOString()},30`);
  });
});
