import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { TimeRangePicker } from "./TimeRangePicker";

describe("TimeRangePicker", () => {
  it("closes on Escape and puts focus back on its button", async () => {
    render(<TimeRangePicker value={{ from: "now-15m", to: "now" }} onChange={vi.fn()} />);
    const button = screen.getByTestId("time-range-button");
    await userEvent.click(button);
    const preset = screen.getByRole("button", { name: "Last 1 hour" });
    preset.focus();
    await userEvent.keyboard("{Escape}");
    expect(screen.queryByRole("dialog", { name: "Time range" })).toBeNull();
    expect(button).toHaveFocus();
  });

  it("puts focus back on its button once a range is chosen", async () => {
    const onChange = vi.fn();
    render(<TimeRangePicker value={{ from: "now-15m", to: "now" }} onChange={onChange} />);
    const button = screen.getByTestId("time-range-button");
    await userEvent.click(button);
    await userEvent.click(screen.getByRole("button", { name: "Last 1 hour" }));
    expect(onChange).toHaveBeenCalledWith({ from: "now-1h", to: "now" });
    expect(button).toHaveFocus();
  });
});
