import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useRef, useState, type ReactElement } from "react";
import { describe, expect, it, vi } from "vitest";
import { useDismiss, type DismissedBy } from "./useDismiss";

function Popover({ escape, seen }: { escape?: boolean; seen: (by: DismissedBy) => void }): ReactElement {
  const [open, setOpen] = useState(true);
  const ref = useRef<HTMLDivElement>(null);
  useDismiss(
    open,
    ref,
    (by) => {
      seen(by);
      setOpen(false);
    },
    { escape },
  );
  return (
    <>
      <button type="button">Elsewhere</button>
      <div ref={ref}>
        <button type="button" onClick={() => setOpen(true)}>
          Open
        </button>
        {open ? <p>Popover</p> : null}
      </div>
    </>
  );
}

describe("useDismiss", () => {
  it("closes on Escape and on a press outside, not on a press inside", async () => {
    const user = userEvent.setup({ delay: null });
    const seen = vi.fn();
    render(<Popover seen={seen} />);
    await user.click(screen.getByText("Popover"));
    expect(seen).not.toHaveBeenCalled();
    await user.keyboard("{Escape}");
    expect(seen).toHaveBeenLastCalledWith("escape");
    expect(screen.queryByText("Popover")).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Open" }));
    await user.click(screen.getByRole("button", { name: "Elsewhere" }));
    expect(seen).toHaveBeenLastCalledWith("outside");
    expect(screen.queryByText("Popover")).not.toBeInTheDocument();
    // closed: neither reaches it
    await user.keyboard("{Escape}");
    expect(seen).toHaveBeenCalledTimes(2);
  });

  it("leaves Escape to a widget that handles its own keys", async () => {
    const user = userEvent.setup({ delay: null });
    const seen = vi.fn();
    render(<Popover seen={seen} escape={false} />);
    await user.keyboard("{Escape}");
    expect(screen.getByText("Popover")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Elsewhere" }));
    expect(seen).toHaveBeenCalledWith("outside");
  });
});
