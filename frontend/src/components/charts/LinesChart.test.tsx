import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { EChartsOption } from "echarts";
import { describe, expect, it, vi } from "vitest";
import type { EChartProps } from "./EChart";
import { LinesChart } from "./LinesChart";

// the option LinesChart hands to ECharts, as the last render passed it
const drawn: { option?: EChartsOption } = {};
vi.mock("./EChart", () => ({
  EChart: (props: EChartProps) => {
    drawn.option = props.option;
    return <div data-testid={props.testId ?? "chart"} />;
  },
}));

const hosts = ["a", "b", "c", "d", "e", "f"];
const option = (value: number, names = hosts): EChartsOption => ({
  legend: { show: true, data: names },
  series: names.map((name) => ({ type: "bar", name, color: "#5470c6", data: [[1, value]] })),
});
const selected = (): Record<string, boolean> | undefined =>
  (drawn.option?.legend as { selected?: Record<string, boolean> } | undefined)?.selected;

describe("LinesChart legend", () => {
  it("lists more than one series in an HTML legend of toggle buttons, not on the canvas", async () => {
    render(<LinesChart option={option(1)} label="CPU" />);
    const legend = screen.getByRole("list", { name: "CPU legend" });
    expect(within(legend).getAllByRole("button")).toHaveLength(6);
    expect((drawn.option?.legend as { show?: boolean }).show).toBe(false);

    // reached and switched with the keyboard
    await userEvent.tab();
    expect(within(legend).getByRole("button", { name: "a" })).toHaveFocus();
    await userEvent.keyboard("{Enter}");
    expect(within(legend).getByRole("button", { name: "a" })).toHaveAttribute("aria-pressed", "false");
    expect(selected()).toEqual({ a: false });
  });

  it("keeps a hidden series hidden when new data for the same series arrives", async () => {
    const { rerender } = render(<LinesChart option={option(1)} label="CPU" />);
    await userEvent.click(screen.getByRole("button", { name: "c" }));
    rerender(<LinesChart option={option(2)} label="CPU" />);
    expect(screen.getByRole("button", { name: "c" })).toHaveAttribute("aria-pressed", "false");
    expect(selected()).toEqual({ c: false });
    // a series that goes away and comes back is still hidden
    rerender(<LinesChart option={option(3, ["a", "b"])} label="CPU" />);
    expect(selected()).toEqual({});
    rerender(<LinesChart option={option(4)} label="CPU" />);
    expect(selected()).toEqual({ c: false });
  });

  it("keeps one series' name on the canvas, and shows no legend when asked", () => {
    render(<LinesChart option={option(1, ["a"])} label="One" />);
    expect(screen.queryByRole("list")).toBeNull();
    expect(drawn.option?.legend).toEqual({ show: true, data: ["a"] });
    render(<LinesChart option={option(1)} label="None" legend="none" />);
    expect(screen.queryByRole("list", { name: "None legend" })).toBeNull();
  });
});
