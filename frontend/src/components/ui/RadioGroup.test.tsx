import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState, type ReactElement } from "react";
import { describe, expect, it, vi } from "vitest";
import { RadioGroup, type RadioOption } from "./RadioGroup";

const VIEWS: RadioOption<string>[] = [
  { value: "line", label: "Line" },
  { value: "area", label: "Area" },
  { value: "bar", label: "Bar" },
  { value: "table", label: "Table" },
];

interface PickerProps {
  options?: RadioOption<string>[];
  initial?: string;
  onChange?: (v: string) => void;
}

function Picker({ options = VIEWS, initial = "line", onChange }: PickerProps): ReactElement {
  const [value, setValue] = useState(initial);
  return (
    <>
      <button type="button">Before</button>
      <RadioGroup
        label="Visualisation"
        options={options}
        value={value}
        onChange={(v) => {
          onChange?.(v);
          setValue(v);
        }}
      />
      <button type="button">After</button>
    </>
  );
}

const checkedName = (): string | null => screen.getByRole("radio", { checked: true }).textContent;

describe("RadioGroup", () => {
  it("is a labelled radio group with one checked radio", () => {
    render(<Picker initial="area" />);
    const group = screen.getByRole("radiogroup", { name: "Visualisation" });
    expect(group).toBeInTheDocument();
    expect(screen.getAllByRole("radio").map((r) => r.getAttribute("aria-checked"))).toEqual(["false", "true", "false", "false"]);
  });

  it("is one Tab stop, on the checked radio", async () => {
    render(<Picker initial="bar" />);
    await userEvent.click(screen.getByRole("button", { name: "Before" }));
    await userEvent.tab();
    expect(screen.getByRole("radio", { name: "Bar" })).toHaveFocus();
    await userEvent.tab();
    expect(screen.getByRole("button", { name: "After" })).toHaveFocus();
    await userEvent.tab({ shift: true });
    expect(screen.getByRole("radio", { name: "Bar" })).toHaveFocus();
  });

  it("moves and selects with the arrow keys, wrapping at the ends", async () => {
    const onChange = vi.fn();
    render(<Picker onChange={onChange} />);
    await userEvent.click(screen.getByRole("radio", { name: "Line" }));
    expect(onChange).not.toHaveBeenCalled(); // already checked
    await userEvent.keyboard("{ArrowRight}");
    expect(screen.getByRole("radio", { name: "Area" })).toHaveFocus();
    expect(checkedName()).toBe("Area");
    await userEvent.keyboard("{ArrowDown}");
    expect(checkedName()).toBe("Bar");
    await userEvent.keyboard("{ArrowUp}{ArrowLeft}");
    expect(checkedName()).toBe("Line");
    await userEvent.keyboard("{ArrowLeft}");
    expect(screen.getByRole("radio", { name: "Table" })).toHaveFocus();
    expect(checkedName()).toBe("Table");
    await userEvent.keyboard("{ArrowRight}");
    expect(checkedName()).toBe("Line");
    expect(onChange.mock.calls.map(([v]) => v)).toEqual(["area", "bar", "area", "line", "table", "line"]);
    // the roving Tab stop follows
    expect(screen.getAllByRole("radio").map((r) => r.tabIndex)).toEqual([0, -1, -1, -1]);
  });

  it("goes to the first and last choice with Home and End", async () => {
    render(<Picker initial="area" />);
    await userEvent.click(screen.getByRole("radio", { name: "Area" }));
    await userEvent.keyboard("{End}");
    expect(screen.getByRole("radio", { name: "Table" })).toHaveFocus();
    expect(checkedName()).toBe("Table");
    await userEvent.keyboard("{Home}");
    expect(screen.getByRole("radio", { name: "Line" })).toHaveFocus();
    expect(checkedName()).toBe("Line");
  });

  it("selects with a click or Space", async () => {
    render(<Picker />);
    await userEvent.click(screen.getByRole("radio", { name: "Bar" }));
    expect(checkedName()).toBe("Bar");
    screen.getByRole("radio", { name: "Table" }).focus();
    await userEvent.keyboard(" ");
    expect(checkedName()).toBe("Table");
  });

  it("takes any list of choices, one more included", async () => {
    render(<Picker options={[...VIEWS, { value: "heatmap", label: "Heatmap" }]} initial="table" />);
    await userEvent.click(screen.getByRole("radio", { name: "Table" }));
    await userEvent.keyboard("{ArrowRight}");
    expect(checkedName()).toBe("Heatmap");
    await userEvent.keyboard("{ArrowRight}");
    expect(checkedName()).toBe("Line");
  });

  it("puts the Tab stop on the first choice when the value is none of them", async () => {
    render(<Picker initial="heatmap" />);
    expect(screen.queryByRole("radio", { checked: true })).toBeNull();
    expect(screen.getAllByRole("radio").map((r) => r.tabIndex)).toEqual([0, -1, -1, -1]);
    await userEvent.click(screen.getByRole("button", { name: "Before" }));
    await userEvent.tab();
    await userEvent.keyboard("{ArrowRight}");
    expect(checkedName()).toBe("Area");
  });
});
