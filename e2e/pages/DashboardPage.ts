import { expect, type Locator, type Page } from "@playwright/test";
import { chartAttrs, testIds } from "../selectors";
import { LoginPage } from "./LoginPage";

/** Grid position of a panel as the dashboard grid exposes it (24 columns). */
export interface GridPos {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A dashboard page: its toolbar, edit bar, panels on the grid and the panel editor. */
export class DashboardPage {
  readonly saveState: Locator;
  readonly editor: Locator;

  constructor(readonly page: Page) {
    this.saveState = page.getByTestId(testIds.dashboardSaveState);
    this.editor = page.getByRole("dialog", { name: "Edit panel" });
  }

  async goto(workspaceId: string, dashboardId: string, search = ""): Promise<void> {
    await this.page.goto(`/w/${workspaceId}/dashboards/${dashboardId}${search ? `?${search}` : ""}`);
  }

  /** The panel titled `title` (a region named after it). */
  panel(title: string): Locator {
    return this.page.getByRole("region", { name: title, exact: true });
  }

  chartOf(title: string): Locator {
    return this.panel(title).getByTestId(testIds.panelChart);
  }

  /** The grid cell holding the panel, which carries the panel's position. */
  cell(title: string): Locator {
    return this.page.getByTestId(testIds.gridCell).filter({ has: this.panel(title) });
  }

  async gridPos(title: string): Promise<GridPos> {
    const cell = this.cell(title);
    const read = async (k: string): Promise<number> => Number(await cell.getAttribute(`data-grid-${k}`));
    return { x: await read("x"), y: await read("y"), w: await read("w"), h: await read("h") };
  }

  async seriesCount(title: string): Promise<number> {
    return Number(await this.chartOf(title).getAttribute(chartAttrs.seriesCount));
  }

  async startEditing(): Promise<void> {
    await this.page.getByRole("button", { name: "Edit", exact: true }).click();
    await expect(this.page.getByRole("toolbar", { name: "Dashboard editing" })).toBeVisible();
  }

  /** Opens the dashboard settings (edit mode): variables and the default comparison. */
  async openSettings(): Promise<Locator> {
    await this.page.getByRole("button", { name: "Settings", exact: true }).click();
    const settings = this.page.getByRole("region", { name: "Dashboard settings" });
    await expect(settings).toBeVisible();
    return settings;
  }

  async save(): Promise<void> {
    await this.page.getByTestId(testIds.saveDashboard).click();
    await expect(this.saveState).toHaveText(/^Saved · v\d+$/);
  }

  /** Drags the panel by its header by (`dx`, `dy`) pixels, as a mouse user would. */
  async dragPanel(title: string, dx: number, dy: number): Promise<void> {
    const header = this.panel(title).locator("header");
    await header.scrollIntoViewIfNeeded();
    const box = await header.boundingBox();
    if (!box) throw new Error(`panel ${title} is not visible`);
    const x = box.x + 40;
    const y = box.y + box.height / 2;
    await this.page.mouse.move(x, y);
    await this.page.mouse.down();
    await this.page.mouse.move(x + dx / 2, y + dy / 2, { steps: 8 });
    await this.page.mouse.move(x + dx, y + dy, { steps: 8 });
    await this.page.mouse.up();
  }

  /** Drags the panel's bottom-right resize handle by (`dx`, `dy`) pixels. */
  async resizePanel(title: string, dx: number, dy: number): Promise<void> {
    // The grid library draws the handle; its class is the only way to find it.
    const handle = this.cell(title).locator(".react-resizable-handle");
    await handle.scrollIntoViewIfNeeded();
    const box = await handle.boundingBox();
    if (!box) throw new Error(`panel ${title} has no resize handle`);
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    await this.page.mouse.move(x, y);
    await this.page.mouse.down();
    await this.page.mouse.move(x + dx / 2, y + dy / 2, { steps: 8 });
    await this.page.mouse.move(x + dx, y + dy, { steps: 8 });
    await this.page.mouse.up();
  }
}

/** Signs in as `user` and creates a dashboard titled `title` from the list, which opens it. */
export async function signInAndCreateDashboard(
  page: Page,
  user: { email: string; password: string },
  title: string,
): Promise<{ dash: DashboardPage; dashboardId: string }> {
  await new LoginPage(page).goto();
  await new LoginPage(page).signIn(user.email, user.password);
  await page.getByRole("link", { name: "Dashboards" }).click();
  await page.getByLabel("New dashboard title").fill(title);
  await page.getByRole("button", { name: "Create dashboard" }).click();
  await expect(page.getByRole("heading", { name: title, level: 1 })).toBeVisible();
  return { dash: new DashboardPage(page), dashboardId: new URL(page.url()).pathname.split("/").pop() ?? "" };
}
