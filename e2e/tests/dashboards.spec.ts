import { expect, test } from "@playwright/test";
import { cpuLines, createOwnWorkspace, pushLines } from "../fixtures/api";
import { LoginPage } from "../pages/LoginPage";
import { chartAttrs, testIds } from "../selectors";

test("a new dashboard charts the workspace's hosts and its host variable filters them", async ({ page, request }, testInfo) => {
  const own = await createOwnWorkspace(request, "dash");
  expect(await pushLines(request, own.ingestKey, `${cpuLines("alpha", 5)}\n${cpuLines("beta", 5)}`)).toBe(204);

  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(own.email, own.password);
  await page.getByRole("link", { name: "Dashboards" }).click();
  // Every workspace is created with the shipped "Host overview" dashboard.
  await expect(page.getByRole("link", { name: "Host overview" })).toBeVisible();

  await page.getByLabel("New dashboard title").fill("Hosts");
  await page.getByRole("button", { name: "Create dashboard" }).click();
  await expect(page.getByRole("heading", { name: "Hosts" })).toBeVisible();

  const chart = page.getByTestId(testIds.panelChart);
  const host = page.getByTestId(testIds.variable("host"));
  // Points become queryable once the consumer wrote them: reload until both hosts are drawn.
  await expect(async () => {
    await page.reload();
    await expect(chart).toHaveAttribute(chartAttrs.seriesCount, "2", { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(host.getByRole("option")).toHaveText(["alpha", "beta"]);

  await host.selectOption(["beta"]);
  await expect(page).toHaveURL(/var-host=beta/);
  await expect(chart).toHaveAttribute(chartAttrs.seriesCount, "1");
  await expect.poll(async () => Number(await chart.getAttribute(chartAttrs.pointCount))).toBeGreaterThanOrEqual(1);
  await page.screenshot({ path: testInfo.outputPath("dashboard-variable.png"), fullPage: true });

  // The link is the view: opening it again keeps the variable.
  await page.goto(page.url());
  await expect(chart).toHaveAttribute(chartAttrs.seriesCount, "1");
});
