import { expect, test } from "@playwright/test";
import { expectAccessible } from "../fixtures/a11y";
import { cpuLines, createOwnWorkspace, pushLines } from "../fixtures/api";
import { signInAndCreateDashboard } from "../pages/DashboardPage";
import { testIds } from "../selectors";

interface SavedItem {
  id: string;
  type: string;
  title: string;
  collapsed?: boolean;
  repeat?: string | null;
  max_per_row?: number;
  grid: { x: number; y: number; w: number; h: number };
  panels?: SavedItem[];
}

test("a row groups a panel repeated once per host: folded and unfolded, saved, shared by link", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const own = await createOwnWorkspace(request, "dashrows");
  const lines = ["alpha", "beta", "gamma"].map((h) => cpuLines(h, 5)).join("\n");
  expect(await pushLines(request, own.ingestKey, lines)).toBe(204);
  const { dash, dashboardId } = await signInAndCreateDashboard(page, own, "Fleet");
  await expect(async () => {
    await page.reload();
    await expect(dash.chartOf("CPU user %")).toHaveAttribute("data-series-count", "3", { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });

  // The starter panel, repeated for $host, three to a row; its preview is the first copy.
  await dash.startEditing();
  await page.getByRole("button", { name: "Edit CPU user %" }).click();
  await expect(dash.editor).toBeVisible();
  await dash.editor.getByLabel("Title").fill("CPU on $host");
  await dash.editor.getByLabel("Repeat for").selectOption("host");
  await expect(dash.editor.getByLabel("Copies")).toHaveValue("h");
  await dash.editor.getByLabel("Per row").fill("3");
  await expect(dash.editor.getByRole("region", { name: "Preview of CPU on alpha" })).toBeVisible();
  await dash.editor.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("repeats for $host")).toBeVisible();
  await expectAccessible(page, "a repeated panel in edit mode");

  // A row, added at the top over the panel, and named.
  await page.getByTestId("add-row").click();
  await page.getByRole("textbox", { name: "Row title" }).fill("Hosts of $host");
  await expect(page.getByRole("button", { name: "Move the row Hosts of $host (arrow keys)" })).toBeVisible();
  await expect(page.getByTestId("dashboard-row")).toHaveAttribute("data-collapsed", "false");
  await expectAccessible(page, "a row in edit mode");
  await dash.save();

  const res = await request.get(`/api/v1/workspaces/${own.workspaceId}/dashboards/${dashboardId}`, {
    headers: { Authorization: `Bearer ${own.token}` },
  });
  const saved = ((await res.json()) as { spec: { panels: SavedItem[] } }).spec.panels;
  const row = saved.find((p) => p.type === "row");
  const cpu = saved.find((p) => p.id === "p1");
  expect(row).toMatchObject({ title: "Hosts of $host", collapsed: false, grid: { x: 0, y: 0, w: 24, h: 1 } });
  expect(cpu).toMatchObject({ title: "CPU on $host", repeat: "host", max_per_row: 3, grid: { y: 1 } });

  // Outside edit mode: one panel per host, each asking for its own.
  await page.getByRole("button", { name: "Done editing" }).click();
  for (const host of ["alpha", "beta", "gamma"]) {
    await expect(dash.chartOf(`CPU on ${host}`)).toHaveAttribute("data-series-count", "1");
  }
  await expect(page.getByRole("button", { name: "Hosts of All" })).toHaveAttribute("aria-expanded", "true");
  await page.screenshot({ path: testInfo.outputPath("rows-repeated.png"), fullPage: true });

  // Choosing hosts keeps their copies only.
  await page.getByTestId(testIds.variable("host")).selectOption(["beta", "gamma"]);
  await expect(page.getByTestId(testIds.panel)).toHaveCount(2);
  await expect(dash.panel("CPU on gamma")).toBeVisible();
  const gamma = await dash.gridPos("CPU on gamma");
  // two copies share the width, whatever the number per row allows
  expect(gamma).toEqual({ x: 12, y: 1, w: 12, h: 8 });

  // A copy alone, by its link.
  await dash.panel("CPU on gamma").getByRole("button", { name: "Menu of CPU on gamma" }).click();
  await page.getByRole("menuitem", { name: "View" }).click();
  await expect(page).toHaveURL(/viewPanel=p1%40gamma/);
  await expect(page.getByTestId("panel-view").getByRole("heading", { name: "CPU on gamma" })).toBeVisible();
  await page.getByRole("button", { name: "Back to the dashboard" }).click();

  // Folding the row hides its panels (and says how many it holds), without changing the dashboard.
  const toggle = page.getByRole("button", { name: "Hosts of beta, gamma" });
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  // it holds one panel, the one repeated
  await expect(page.getByTestId("dashboard-row")).toContainText("(1 panel)");
  await expect(page.getByTestId(testIds.panel)).toHaveCount(0);
  await expect(dash.saveState).toHaveText("Saved · v2");
  await page.screenshot({ path: testInfo.outputPath("rows-folded.png") });
  await expectAccessible(page, "a folded row");
  await toggle.click();
  await expect(page.getByTestId(testIds.panel)).toHaveCount(2);
});
