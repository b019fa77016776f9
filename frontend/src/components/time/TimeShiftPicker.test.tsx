import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState, type ReactElement } from "react";
import { describe, expect, it, vi } from "vitest";
import { TimeShiftPicker } from "./TimeShiftPicker";

function Harness({ onChange }: { onChange: (v: string) => void }): ReactElement {
  const [value, setValue] = useState("");
  return (
    <TimeShiftPicker
      value={value}
      onChange={(v) => {
        setValue(v);
        onChange(v);
      }}
    />
  );
}

describe("TimeShiftPicker", () => {
  it("offers presets and applies a custom shift only once it is a valid duration", async () => {
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    const select = screen.getByLabelText("Compare");
    await userEvent.selectOptions(select, "1w");
    expect(onChange).toHaveBeenLastCalledWith("1w");

    await userEvent.selectOptions(select, "Custom…");
    const input = screen.getByLabelText("Shift by");
    await userEvent.type(input, "3 days");
    await userEvent.click(screen.getByRole("button", { name: "Apply" }));
    expect(screen.getByRole("alert")).toHaveTextContent('"3 days" is not a duration');
    expect(input).toHaveAccessibleDescription(/is not a duration/);
    expect(onChange).toHaveBeenCalledTimes(1);

    await userEvent.clear(input);
    await userEvent.type(input, "36h{Enter}");
    expect(onChange).toHaveBeenLastCalledWith("36h");
    expect(screen.getByLabelText("Compare")).toHaveValue("36h");
    expect(screen.getByRole("option", { name: "vs 36h ago" })).toBeInTheDocument();
  });
});
