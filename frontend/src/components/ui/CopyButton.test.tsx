import { act, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CopyButton } from "./CopyButton";

function stubClipboard(writeText: (text: string) => Promise<void>): void {
  Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
}

describe("CopyButton", () => {
  afterEach(() => {
    Object.defineProperty(navigator, "clipboard", { value: undefined, configurable: true });
  });

  it("announces the copy in a polite live region that is there before it is needed", async () => {
    const writeText = vi.fn(() => Promise.resolve());
    stubClipboard(writeText);
    render(<CopyButton text="vgk_secret" label="Copy key" />);
    const status = screen.getByRole("status");
    expect(status).toHaveAttribute("aria-live", "polite");
    expect(status).toHaveTextContent("");

    const button = screen.getByRole("button", { name: "Copy key" });
    await act(async () => fireEvent.click(button));
    expect(writeText).toHaveBeenCalledWith("vgk_secret");
    expect(status).toHaveTextContent("Copied to the clipboard.");
    // The button keeps its name; what it shows is for sighted users.
    expect(button).toHaveTextContent("Copied");
    expect(button).toHaveAccessibleName("Copy key");
  });

  it("empties the region on a new click, so copying again is announced again", async () => {
    let resolve = (): void => undefined;
    stubClipboard(() => new Promise<void>((r) => (resolve = r)));
    render(<CopyButton text="x" label="Copy link" />);
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Copy link" })));
    await act(async () => resolve());
    expect(screen.getByRole("status")).toHaveTextContent("Copied to the clipboard.");
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Copy link" })));
    expect(screen.getByRole("status")).toHaveTextContent("");
    await act(async () => resolve());
    expect(screen.getByRole("status")).toHaveTextContent("Copied to the clipboard.");
  });

  it("says how to copy by hand when the browser refuses", async () => {
    stubClipboard(() => Promise.reject(new Error("denied")));
    render(<CopyButton text="x" label="Copy link" />);
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Copy link" })));
    expect(screen.getByRole("status")).toHaveTextContent("The browser did not allow copying: select the text and press Ctrl+C.");
  });
});
