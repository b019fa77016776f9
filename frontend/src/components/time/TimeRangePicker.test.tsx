import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { TimeZoneProvider } from "@/lib/timeZone";
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

  it("moves the range half its length earlier or later and zooms out; later stops at now", async () => {
    const onChange = vi.fn();
    const { rerender } = render(<TimeRangePicker value={{ from: "now-1h", to: "now" }} onChange={onChange} />);
    const later = screen.getByRole("button", { name: "Later: move the time range forward by 30m" });
    expect(later).toBeDisabled();
    await userEvent.click(screen.getByRole("button", { name: "Zoom out: twice as long a time range" }));
    expect(onChange).toHaveBeenLastCalledWith({ from: "now-2h", to: "now" });

    const before = Date.now();
    await userEvent.click(screen.getByRole("button", { name: "Earlier: move the time range back by 30m" }));
    const earlier = onChange.mock.lastCall![0] as { from: string; to: string };
    expect(Number(earlier.to) - Number(earlier.from)).toBe(3_600_000);
    expect(Number(earlier.to)).toBeGreaterThanOrEqual(before - 1_800_000);
    expect(Number(earlier.to)).toBeLessThanOrEqual(Date.now() - 1_800_000);

    rerender(<TimeRangePicker value={earlier} onChange={onChange} />);
    expect(later).toBeEnabled();
    await userEvent.click(later);
    expect(onChange).toHaveBeenLastCalledWith({ from: "now-1h", to: "now" });
  });

  it("offers no step from a range it cannot read", async () => {
    const onChange = vi.fn();
    render(<TimeRangePicker value={{ from: "yesterday", to: "now" }} onChange={onChange} />);
    await userEvent.click(screen.getByTestId("time-range-zoom-out"));
    await userEvent.click(screen.getByTestId("time-range-earlier"));
    expect(onChange).not.toHaveBeenCalled();
  });

  it("reads and shows an absolute range in the page's time zone", async () => {
    const onChange = vi.fn();
    const from = Date.UTC(2026, 10, 22, 8, 0);
    const to = Date.UTC(2026, 10, 22, 9, 0);
    render(
      <TimeZoneProvider timeZone="Asia/Kolkata">
        <TimeRangePicker value={{ from: String(from), to: String(to) }} onChange={onChange} />
      </TimeZoneProvider>,
    );
    expect(screen.getByText("Asia/Kolkata (UTC+05:30)")).toBeInTheDocument();
    const button = screen.getByTestId("time-range-button");
    expect(button).toHaveTextContent("2026-11-22 13:30:00 → 2026-11-22 14:30:00");
    await userEvent.click(button);
    expect(screen.getByLabelText("From")).toHaveValue("2026-11-22T13:30");
    await userEvent.clear(screen.getByLabelText("To"));
    await userEvent.type(screen.getByLabelText("To"), "2026-11-22T15:00");
    await userEvent.click(screen.getByRole("button", { name: "Apply range" }));
    expect(onChange).toHaveBeenCalledWith({ from: String(from), to: String(Date.UTC(2026, 10, 22, 9, 30)) });
  });
});

