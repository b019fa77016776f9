import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { EChartsOption } from "echarts";
import { describe, expect, it, vi } from "vitest";
import { ChartLegend, LEGEND_FIRST, legendEntries, withHiddenSeries } from "./ChartLegend";

const option: EChartsOption = {
  legend: { show: false, formatter: (name: string) => `${name}  max: 9` },
  series: [
    { type: "line", name: "web-01", color: "#5470c6", data: [] },
    { type: "bar", name: "web-02", itemStyle: { color: "#91cc75" }, data: [] },
    { type: "line", name: "web-01", data: [] },
  ],
};

describe("legendEntries", () => {
  it("lists each series once with its colour and the legend formatter's text", () => {
    expect(legendEntries(option)).toEqual([
      { name: "web-01", label: "web-01  max: 9", color: "#5470c6" },
      { name: "web-02", label: "web-02  max: 9", color: "#91cc75" },
    ]);
  });
});

describe("withHiddenSeries", () => {
  it("switches the hidden series off in the legend selection and leaves the rest of the option", () => {
    const shown = withHiddenSeries(option, new Set(["web-02"]));
    expect((shown.legend as { selected: Record<string, boolean> }).selected).toEqual({ "web-02": false });
    expect(shown.series).toBe(option.series);
    expect(withHiddenSeries(option, new Set())).toBe(option);
  });
});

describe("ChartLegend", () => {
  it("shows entries as toggle buttons and reports clicks", async () => {
    const onToggle = vi.fn();
    render(
      <ChartLegend
        label="CPU legend"
        position="bottom"
        entries={legendEntries(option)}
        hidden={new Set(["web-02"])}
        onToggle={onToggle}
      />,
    );
    const list = screen.getByRole("list", { name: "CPU legend" });
    expect(list).toBeInTheDocument();
    const first = screen.getByRole("button", { name: /web-01/ });
    expect(first).toHaveAttribute("aria-pressed", "true");
    expect(screen.getByRole("button", { name: /web-02/ })).toHaveAttribute("aria-pressed", "false");
    await userEvent.click(first);
    expect(onToggle).toHaveBeenCalledWith("web-01");
  });

  it("renders the first entries of a long legend, and the rest on request", async () => {
    const entries = Array.from({ length: LEGEND_FIRST + 25 }, (_, i) => ({ name: `h${i}`, label: `h${i}` }));
    render(<ChartLegend label="Hosts legend" position="right" entries={entries} hidden={new Set()} onToggle={vi.fn()} />);
    const list = screen.getByRole("list", { name: "Hosts legend" });
    expect(within(list).getAllByRole("button", { pressed: true })).toHaveLength(LEGEND_FIRST);
    await userEvent.click(within(list).getByRole("button", { name: "25 more" }));
    expect(within(list).getAllByRole("button", { pressed: true })).toHaveLength(LEGEND_FIRST + 25);
    expect(within(list).queryByRole("button", { name: /more$/ })).toBeNull();
  });
});
