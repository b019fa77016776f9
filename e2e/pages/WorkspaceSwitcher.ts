import { expect, type Locator, type Page } from "@playwright/test";
import { testIds } from "../selectors";

/** The header's workspace menu: the current workspace, the others, and "New workspace". */
export class WorkspaceSwitcher {
  readonly button: Locator;
  readonly menu: Locator;

  constructor(private readonly page: Page) {
    this.button = page.getByTestId(testIds.workspacePicker);
    this.menu = page.getByRole("menu", { name: "Workspaces" });
  }

  async open(): Promise<void> {
    await this.button.click();
    await expect(this.menu).toBeVisible();
  }

  /** The menu's entries, as read out: "Name, role", or "Name (3f2a9c1b), role" when names collide. */
  async entries(): Promise<string[]> {
    const items = this.menu.getByRole("menuitemradio");
    return (await items.evaluateAll((els) => els.map((el) => el.getAttribute("aria-label") ?? ""))).sort();
  }

  /** Creates a workspace from the menu and returns its id, once its getting-started page opens. */
  async createWorkspace(name: string): Promise<string> {
    await this.open();
    await this.menu.getByRole("menuitem", { name: "New workspace" }).click();
    const dialog = this.page.getByRole("dialog", { name: "New workspace" });
    await dialog.getByLabel("Workspace name").fill(name);
    await dialog.getByRole("button", { name: "Create workspace" }).click();
    await expect(dialog).toBeHidden();
    await expect(this.page).toHaveURL(/\/w\/[0-9a-f-]{36}\/get-started$/);
    return new URL(this.page.url()).pathname.split("/")[2];
  }
}
