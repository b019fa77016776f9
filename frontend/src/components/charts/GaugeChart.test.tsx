import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { GaugeChart } from "./GaugeChart";

describe("GaugeChart", () => {
  it("draws a meter per series with its value, range and threshold colour", () => {
    render(
      <GaugeChart
        label="CPU values"
        unit="percent"
        thresholds={[{ value: 80, color: "#e02f44" }]}
        items={[
          { name: "web-1", value: 85 },
          { name: "web-2", value: 5 },
          { name: "web-3", value: undefined },
        ]}
      />,
    );
    const group = screen.getByRole("group", { name: "CPU values" });
    expect(group).toHaveAttribute("data-max", "100");
    const hot = screen.getByRole("meter", { name: "web-1" });
    expect(hot).toHaveAttribute("aria-valuenow", "85");
    expect(hot).toHaveAttribute("aria-valuemin", "0");
    expect(hot).toHaveAttribute("aria-valuemax", "100");
    expect(hot).toHaveAttribute("aria-valuetext", "85% (0% to 100%)");
    expect(hot).toHaveAttribute("data-color", "#e02f44");
    expect(screen.getByRole("meter", { name: "web-2" })).toHaveAttribute("data-color", "#3ba272");
    // no value: no meter, no arc, and it says so
    expect(screen.getByRole("img", { name: "web-3: no value" })).toBeInTheDocument();
    expect(screen.getAllByTestId("gauge-arc")).toHaveLength(2);
    expect(hot).toHaveTextContent("85%");
  });

  it("keeps the accent colour and a range from the values without thresholds", () => {
    render(<GaugeChart label="Latency" unit="ms" items={[{ name: "", value: 130 }]} />);
    const meter = screen.getByRole("meter", { name: "value" });
    expect(meter).toHaveAttribute("aria-valuemax", "200");
    expect(meter).toHaveAttribute("data-color", "");
    expect(screen.getByTestId("gauge-arc")).toHaveAttribute("stroke", "var(--accent)");
  });
});
