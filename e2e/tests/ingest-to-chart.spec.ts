import { expect, test } from "@playwright/test";
import { cpuLines, createOwnWorkspace, pushLines } from "../fixtures/api";
import { demoCredentials, uniqueSuffix } from "../fixtures/env";
import { ExplorePage } from "../pages/ExplorePage";
import { LoginPage } from "../pages/LoginPage";
import { chartAttrs, testIds } from "../selectors";

test.describe("ingest to chart", () => {
  test("a signed-in user sees the default CPU query charted per host", async ({ page }, testInfo) => {
    const { email, password } = demoCredentials();
    const login = new LoginPage(page);
    await login.goto();
    await login.signIn(email, password);

    await page.getByRole("link", { name: "Explore" }).click();
    const explore = new ExplorePage(page);
    await expect(page.getByTestId(testIds.timezoneLabel)).toContainText("UTC");
    await explore.expectChartWithData();

    await page.screenshot({ path: testInfo.outputPath("explore-chart.png"), fullPage: true });
  });

  test("points pushed through the gateway reach the chart of a new workspace", async ({ page, request }, testInfo) => {
    const own = await createOwnWorkspace(request, "ingest");
    const host = `e2e-${uniqueSuffix()}`;
    expect(await pushLines(request, own.ingestKey, cpuLines(host, 5))).toBe(204);

    const login = new LoginPage(page);
    await login.goto();
    await login.signIn(own.email, own.password);

    const explore = new ExplorePage(page);
    await explore.goto(own.workspaceId, `M::cpu:(avg(usage_user)) {host='${host}'} [15m::1m] BY host`);
    await expect(page.getByTestId(testIds.workspacePicker)).toHaveValue(own.workspaceId);
    // The consumer writes asynchronously: re-run until the points are queryable.
    await expect(async () => {
      await explore.run();
      await expect(explore.chart).toHaveAttribute(chartAttrs.pointCount, /^[1-9]\d*$/, { timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await expect(explore.chart).toHaveAttribute(chartAttrs.seriesCount, "1");
    await expect(page.getByTestId(testIds.resultSummary)).toContainText("1 series, 5 points");

    await page.screenshot({ path: testInfo.outputPath("pushed-points-chart.png"), fullPage: true });
  });
});
