import { expect, test } from "@playwright/test";
import { demoCredentials } from "../fixtures/env";
import { DashboardPage } from "../pages/DashboardPage";
import { LoginPage } from "../pages/LoginPage";
import { chartAttrs } from "../selectors";

// The demo agent scrapes every service's /metrics into the demo workspace (infra/up.sh).
const PANELS = [
  "Ingest rate",
  "Kafka lag",
  "Storage rows added",
  "Storage merges",
  "Query latency (mean)",
  "Write latency (mean)",
  "API requests",
  "Errors by service",
];

test("the Vigil itself dashboard draws every panel from the services' own metrics", async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const { email, password } = demoCredentials();
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(email, password);
  await page.getByRole("link", { name: "Dashboards" }).click();
  await page.getByRole("link", { name: "Vigil itself" }).click();
  await expect(page).toHaveTitle(/^Vigil itself · Dashboards · /);

  const dash = new DashboardPage(page);
  for (const title of PANELS) await expect(dash.panel(title)).toBeVisible();
  // A rate needs two scrapes: reload until every panel holds a series with points.
  await expect(async () => {
    await page.reload();
    for (const title of PANELS) {
      const chart = dash.chartOf(title);
      await expect(chart, title).toHaveAttribute(chartAttrs.seriesCount, /^[1-9]\d*$/, { timeout: 5_000 });
      await expect(chart, title).toHaveAttribute(chartAttrs.pointCount, /^[1-9]\d*$/, { timeout: 5_000 });
    }
  }).toPass({ timeout: 150_000 });
  await page.screenshot({ path: testInfo.outputPath("vigil-itself.png"), fullPage: true });
});
