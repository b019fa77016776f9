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

    // dragging across the chart zooms into what was selected: an absolute range in the URL
    await expect(explore.chart).toHaveAttribute("data-ready", "true");
    const box = await explore.chart.boundingBox();
    if (!box) throw new Error("chart has no box");
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.4);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.4, { steps: 8 });
    await page.mouse.up();
    await expect(page).toHaveURL(/[?&]from=\d{13}&to=\d{13}/);
    const url = new URL(page.url());
    const span = Number(url.searchParams.get("to")) - Number(url.searchParams.get("from"));
    expect(span).toBeGreaterThan(60_000);
    expect(span).toBeLessThan(15 * 60_000 * 0.5);
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
    await expect(page.getByTestId(testIds.workspacePicker)).toHaveAttribute("data-workspace-id", own.workspaceId);
    // The consumer writes asynchronously: re-run until the points are queryable.
    await expect(async () => {
      await explore.run();
      await expect(explore.chart).toHaveAttribute(chartAttrs.pointCount, /^[1-9]\d*$/, { timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await expect(explore.chart).toHaveAttribute(chartAttrs.seriesCount, "1");
    // what storage took, in milliseconds or seconds as people read them
    await expect(page.getByTestId(testIds.resultSummary)).toHaveText(/^1 series, 5 points · \d+(\.\d+)? m?s$/);

    await page.screenshot({ path: testInfo.outputPath("pushed-points-chart.png"), fullPage: true });
  });

  test("a query over many hosts draws every line, with a legend that switches lines off", async ({ page, request }, testInfo) => {
    const own = await createOwnWorkspace(request, "many");
    const hosts = Array.from({ length: 40 }, (_, i) => `m-${String(i).padStart(2, "0")}`);
    expect(await pushLines(request, own.ingestKey, hosts.map((h) => cpuLines(h, 3)).join("\n"))).toBe(204);

    const login = new LoginPage(page);
    await login.goto();
    await login.signIn(own.email, own.password);
    const explore = new ExplorePage(page);
    await explore.goto(own.workspaceId, "M::cpu:(avg(usage_user)) [15m::1m] BY host SLIMIT 100");
    await expect(async () => {
      await explore.run();
      await expect(explore.chart).toHaveAttribute(chartAttrs.seriesCount, "40", { timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await expect(explore.chart).toHaveAttribute(chartAttrs.pointCount, "120");

    // an HTML legend, one toggle button per host
    const legend = page.getByRole("list", { name: /legend$/ });
    // the first 30 entries, the rest when "10 more" is pressed or scrolled into view
    await expect(async () => {
      const more = legend.getByRole("button", { name: "10 more" });
      if ((await more.count()) > 0) await more.click({ timeout: 1_000 });
      await expect(legend.getByRole("button", { pressed: true })).toHaveCount(40, { timeout: 1_000 });
    }).toPass({ timeout: 10_000 });
    await legend.getByRole("button", { name: "m-07" }).click();
    await expect(legend.getByRole("button", { name: "m-07" })).toHaveAttribute("aria-pressed", "false");
    await expect(explore.chart).toHaveAttribute(chartAttrs.seriesCount, "39");
    await expect(explore.chart).toHaveAttribute(chartAttrs.pointCount, "117");

    // the tooltip lists the lines at the hovered time, largest first, without the hidden one
    await expect(explore.chart).toHaveAttribute("data-ready", "true");
    const box = await explore.chart.boundingBox();
    if (!box) throw new Error("chart has no box");
    await page.mouse.move(box.x + box.width * 0.93, box.y + box.height * 0.4);
    const tooltip = explore.chart.locator(".chart-tooltip");
    await expect(tooltip).toBeVisible();
    await expect(tooltip).toContainText("and 29 more series");
    await expect(tooltip).not.toContainText("m-07");

    await page.screenshot({ path: testInfo.outputPath("many-hosts-chart.png"), fullPage: true });
  });
});
