import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useEffect, useState, type ReactElement } from "react";
import { describe, expect, it, vi } from "vitest";
import type { ConfirmOptions } from "./ConfirmDialog";
import { useConfirm, type Confirm } from "./useConfirm";

const DELETE: ConfirmOptions = {
  title: 'Delete "cpu by host"?',
  message: "It goes for everyone in this workspace.",
  confirmLabel: "Delete",
};

/** A page with one button that asks, and the answers it got. */
function Page({ options = DELETE }: { options?: ConfirmOptions }): ReactElement {
  const [confirm, confirmDialog] = useConfirm();
  const [answers, setAnswers] = useState<boolean[]>([]);
  return (
    <>
      <button
        type="button"
        onClick={() => void confirm(options).then((a) => setAnswers((prev) => [...prev, a]))}
      >
        Delete query
      </button>
      <output aria-label="answers">{answers.join(",")}</output>
      {confirmDialog}
    </>
  );
}

/** Hands its `confirm` out, to ask from the test itself. */
function Asker({ onReady }: { onReady: (confirm: Confirm) => void }): ReactElement {
  const [confirm, confirmDialog] = useConfirm();
  useEffect(() => onReady(confirm), [confirm, onReady]);
  return <>{confirmDialog}</>;
}

const answers = (): HTMLElement => screen.getByRole("status", { name: "answers" });

async function open(options?: ConfirmOptions): Promise<HTMLElement> {
  render(<Page options={options} />);
  await userEvent.click(screen.getByRole("button", { name: "Delete query" }));
  return screen.getByRole("alertdialog");
}

describe("ConfirmDialog through useConfirm", () => {
  it("is a modal alert dialog named by its question and described by its consequence", async () => {
    const dialog = await open();
    expect(dialog).toHaveAccessibleName('Delete "cpu by host"?');
    expect(dialog).toHaveAccessibleDescription("It goes for everyone in this workspace.");
    expect(dialog).toHaveAttribute("aria-modal", "true");
    // Rendered above the page, not inside it.
    expect(dialog.closest(".confirm-backdrop")?.parentElement).toBe(document.body);
  });

  it("starts on Cancel for a destructive action, with the verb on a red button", async () => {
    await open();
    expect(screen.getByRole("button", { name: "Cancel" })).toHaveFocus();
    const verb = screen.getByRole("button", { name: "Delete" });
    expect(verb).toHaveClass("btn-danger", "btn-danger-solid");
    // Enter at once takes the safe choice.
    await userEvent.keyboard("{Enter}");
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    expect(answers()).toHaveTextContent(/^false$/);
    expect(screen.getByRole("button", { name: "Delete query" })).toHaveFocus();
  });

  it("resolves true when confirmed and gives focus back to the button that asked", async () => {
    await open();
    await userEvent.click(screen.getByRole("button", { name: "Delete" }));
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    expect(answers()).toHaveTextContent(/^true$/);
    expect(screen.getByRole("button", { name: "Delete query" })).toHaveFocus();
  });

  it("cancels on Escape without the page's own Escape handler seeing it", async () => {
    const pageEscape = vi.fn();
    document.addEventListener("keydown", pageEscape);
    try {
      await open();
      await userEvent.keyboard("{Escape}");
      expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
      expect(answers()).toHaveTextContent(/^false$/);
      expect(screen.getByRole("button", { name: "Delete query" })).toHaveFocus();
      expect(pageEscape).not.toHaveBeenCalled();
    } finally {
      document.removeEventListener("keydown", pageEscape);
    }
  });

  it("keeps Tab and Shift+Tab inside the dialog", async () => {
    await open();
    const cancel = screen.getByRole("button", { name: "Cancel" });
    const verb = screen.getByRole("button", { name: "Delete" });
    await userEvent.tab();
    expect(verb).toHaveFocus();
    await userEvent.tab();
    expect(cancel).toHaveFocus();
    await userEvent.tab({ shift: true });
    expect(verb).toHaveFocus();
    await userEvent.keyboard("{Enter}");
    expect(answers()).toHaveTextContent(/^true$/);
  });

  it("keeps focus inside when its text or the backdrop is clicked, so Tab and Escape still work", async () => {
    const pageEscape = vi.fn();
    document.addEventListener("keydown", pageEscape);
    try {
      const dialog = await open();
      await userEvent.click(screen.getByRole("heading", { name: 'Delete "cpu by host"?' }));
      expect(dialog).toHaveFocus();
      await userEvent.tab({ shift: true });
      expect(screen.getByRole("button", { name: "Delete" })).toHaveFocus();
      const backdrop = dialog.parentElement;
      expect(backdrop).toHaveClass("confirm-backdrop");
      if (backdrop) await userEvent.click(backdrop);
      expect(screen.getByRole("button", { name: "Delete" })).toHaveFocus();
      expect(screen.getByRole("alertdialog")).toBeInTheDocument();
      await userEvent.keyboard("{Escape}");
      expect(answers()).toHaveTextContent(/^false$/);
      expect(pageEscape).not.toHaveBeenCalled();
    } finally {
      document.removeEventListener("keydown", pageEscape);
    }
  });

  it("starts on the confirm button when nothing is lost", async () => {
    await open({ title: "Restore version 3?", confirmLabel: "Restore", cancelLabel: "Keep", destructive: false });
    const verb = screen.getByRole("button", { name: "Restore" });
    expect(verb).toHaveFocus();
    expect(verb).toHaveClass("btn-primary");
    expect(verb).not.toHaveClass("btn-danger-solid");
    expect(screen.getByRole("alertdialog")).not.toHaveAttribute("aria-describedby");
    await userEvent.click(screen.getByRole("button", { name: "Keep" }));
    expect(answers()).toHaveTextContent(/^false$/);
  });

  it("with typeToConfirm, starts in the field and confirms only once the exact text is typed", async () => {
    const dialog = await open({
      title: 'Delete workspace "Acme"?',
      message: "Everything in it goes.",
      confirmLabel: "Delete workspace",
      typeToConfirm: "Acme",
    });
    const field = screen.getByRole("textbox", { name: "Type Acme to confirm" });
    expect(field).toHaveFocus();
    const verb = screen.getByRole("button", { name: "Delete workspace" });
    expect(verb).toBeDisabled();
    // Enter before the text matches does nothing; a different case does not match.
    await userEvent.keyboard("acme{Enter}");
    expect(dialog).toBeInTheDocument();
    expect(verb).toBeDisabled();
    // Tab cycles through the field and Cancel while the verb is disabled.
    await userEvent.tab();
    expect(screen.getByRole("button", { name: "Cancel" })).toHaveFocus();
    await userEvent.tab();
    expect(field).toHaveFocus();
    await userEvent.clear(field);
    await userEvent.type(field, "Acme");
    expect(verb).toBeEnabled();
    await userEvent.keyboard("{Enter}");
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    expect(answers()).toHaveTextContent(/^true$/);
  });

  it("does not pass its clicks on to the page around it", async () => {
    const backdropClick = vi.fn();
    render(
      <div onClick={backdropClick}>
        <Page />
      </div>,
    );
    await userEvent.click(screen.getByRole("button", { name: "Delete query" }));
    backdropClick.mockClear();
    await userEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(backdropClick).not.toHaveBeenCalled();
  });

  it("answers false to a question another one replaced, and to one still open when the page goes", async () => {
    let confirm: Confirm | undefined;
    const { unmount } = render(<Asker onReady={(c) => (confirm = c)} />);
    let first: Promise<boolean> | undefined;
    let second: Promise<boolean> | undefined;
    act(() => {
      first = confirm?.({ title: "Remove the panel?", confirmLabel: "Remove" });
    });
    act(() => {
      second = confirm?.({ title: "Leave without saving?", confirmLabel: "Leave" });
    });
    await expect(first).resolves.toBe(false);
    expect(screen.getByRole("alertdialog")).toHaveAccessibleName("Leave without saving?");
    unmount();
    await expect(second).resolves.toBe(false);
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
  });
});
