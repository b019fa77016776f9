import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { Pager } from "./Pager";

describe("Pager", () => {
  it("says where it is and moves one page either way, never past the ends", async () => {
    const onPage = vi.fn();
    const { rerender } = render(<Pager page={1} pages={3} onPage={onPage} />);
    expect(screen.getByText("Page 1 of 3")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Previous" })).toBeDisabled();
    await userEvent.click(screen.getByRole("button", { name: "Next" }));
    expect(onPage).toHaveBeenLastCalledWith(2);
    rerender(<Pager page={3} pages={3} onPage={onPage} />);
    expect(screen.getByRole("button", { name: "Next" })).toBeDisabled();
    await userEvent.click(screen.getByRole("button", { name: "Previous" }));
    expect(onPage).toHaveBeenLastCalledWith(2);
  });

  it("is not there for a single page", () => {
    const { container } = render(<Pager page={1} pages={1} onPage={() => undefined} />);
    expect(container).toBeEmptyDOMElement();
  });

  it("names itself, sums up the list, and says Newer and Older for a list newest first", async () => {
    const onPage = vi.fn();
    render(<Pager page={2} pages={3} onPage={onPage} label="Pages of runs" summary="57 runs" newestFirst />);
    const nav = screen.getByRole("navigation", { name: "Pages of runs" });
    expect(nav).toHaveTextContent("57 runs");
    expect(nav).toHaveTextContent("Page 2 of 3");
    await userEvent.click(screen.getByRole("button", { name: "Newer" }));
    expect(onPage).toHaveBeenLastCalledWith(1);
    await userEvent.click(screen.getByRole("button", { name: "Older" }));
    expect(onPage).toHaveBeenLastCalledWith(3);
  });

  it("keeps the summary alone when everything fits on one page", () => {
    render(<Pager page={1} pages={1} onPage={() => undefined} label="Event pages" summary="3 events" />);
    expect(screen.getByRole("navigation", { name: "Event pages" })).toHaveTextContent(/^3 events$/);
    expect(screen.queryByRole("button")).not.toBeInTheDocument();
  });
});
