import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { contrastRatio, parseColor } from "./contrast";
import { StatChart } from "./StatChart";
import { BASE_COLOR } from "./thresholds";

describe("StatChart", () => {
  const points: [number, number | null][] = [
    [1, 10],
    [2, 95],
  ];

  it("shows each value in its unit, coloured by the thresholds, with a sparkline", () => {
    render(
      <StatChart
        label="Memory"
        unit="percent"
        thresholds={[{ value: 90, color: "#e02f44" }]}
        items={[
          { name: "web-01", value: 95, points },
          { name: "web-02", value: 12.345, points },
        ]}
      />,
    );
    const group = screen.getByRole("group", { name: "Memory" });
    // each tile reads as the series' name, then its value
    const [hot, cool] = within(group).getAllByTestId("stat-item");
    expect(hot).toHaveTextContent(/^web-01\s*95%$/);
    expect(within(hot).getByText("95%")).toHaveStyle({ color: "#e02f44" });
    expect(cool).toHaveTextContent(/^web-02\s*12\.3%$/);
    expect(within(cool).getByText("12.3%")).toHaveAttribute("data-color", BASE_COLOR);
    expect(within(group).getAllByTestId("stat-sparkline")).toHaveLength(2);
  });

  it("writes a pale threshold colour in a shade that reads on the card", () => {
    render(<StatChart label="Load" thresholds={[{ value: 1, color: "#fade2a" }]} items={[{ name: "web-01", value: 3, points }]} />);
    const value = screen.getByText("3");
    expect(value).toHaveAttribute("data-color", "#fade2a");
    const shown = parseColor(value.style.color)!;
    expect(contrastRatio(shown, [255, 255, 255])).toBeGreaterThanOrEqual(3);
  });

  it("leaves values uncoloured without thresholds and shows a dash for no value", () => {
    render(<StatChart label="Uptime" unit="s" sparkline={false} items={[{ name: "a", value: undefined, points: [] }]} />);
    expect(screen.getByTestId("stat-item")).toHaveTextContent(/^a\s*–$/);
    const value = screen.getByText("–");
    expect(value).toHaveAttribute("data-color", "");
    expect(screen.queryByTestId("stat-sparkline")).toBeNull();
  });
});
