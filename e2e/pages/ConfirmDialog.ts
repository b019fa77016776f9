import { expect, type Locator, type Page } from "@playwright/test";

/**
 * The in-app confirmation the UI shows before anything destructive (an `alertdialog` named by
 * its question, with Cancel and a button labelled with the verb).
 */
export class ConfirmDialog {
  readonly dialog: Locator;

  constructor(private readonly page: Page) {
    this.dialog = page.getByRole("alertdialog");
  }

  /** Checks the question, answers with the verb ("Delete", "Revoke"…), and waits for it to close. */
  async confirm(question: string | RegExp, verb: string): Promise<void> {
    await expect(this.dialog).toHaveAccessibleName(question);
    await this.dialog.getByRole("button", { name: verb, exact: true }).click();
    await expect(this.dialog).toBeHidden();
  }

  /**
   * For confirmations that ask to type something first (a workspace's name): the verb stays
   * disabled until `text` is typed exactly, then answers with it.
   */
  async confirmTyped(question: string | RegExp, text: string, verb: string): Promise<void> {
    await expect(this.dialog).toHaveAccessibleName(question);
    const button = this.dialog.getByRole("button", { name: verb, exact: true });
    const field = this.dialog.getByRole("textbox", { name: `Type ${text} to confirm` });
    await expect(field).toBeFocused();
    await expect(button).toBeDisabled();
    await field.fill(text.toUpperCase() === text ? text.toLowerCase() : text.toUpperCase());
    await expect(button).toBeDisabled();
    await field.fill(text);
    await button.click();
    await expect(this.dialog).toBeHidden();
  }

  /** Checks the question and cancels it with Escape. */
  async dismiss(question: string | RegExp): Promise<void> {
    await expect(this.dialog).toHaveAccessibleName(question);
    await this.page.keyboard.press("Escape");
    await expect(this.dialog).toBeHidden();
  }
}
