import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { DqlEditor } from "./DqlEditor";

function setup() {
  const onChange = vi.fn();
  render(
    <>
      <button type="button">Before</button>
      <DqlEditor value="M::cpu:(usage_user)" onChange={onChange} onRun={vi.fn()} />
      <button type="button">After</button>
    </>,
  );
  return { onChange, editor: screen.getByTestId("dql-editor") };
}

describe("DqlEditor", () => {
  it("lets Tab move focus on instead of inserting spaces", async () => {
    const { onChange, editor } = setup();
    await userEvent.click(editor);
    expect(editor).toHaveFocus();
    await userEvent.tab();
    expect(screen.getByRole("button", { name: "After" })).toHaveFocus();
    expect(onChange).not.toHaveBeenCalled();
    expect(editor).toHaveTextContent("M::cpu:(usage_user)");
  });

  it("lets Shift+Tab move focus back", async () => {
    const { onChange, editor } = setup();
    await userEvent.click(editor);
    await userEvent.tab({ shift: true });
    expect(screen.getByRole("button", { name: "Before" })).toHaveFocus();
    expect(onChange).not.toHaveBeenCalled();
  });
});
