import { expect, test } from "@playwright/test";
import { cpuLines, createOwnWorkspace, pushLines, type OwnWorkspace } from "../fixtures/api";
import { ExplorePage } from "../pages/ExplorePage";
import { LoginPage } from "../pages/LoginPage";
import { chartAttrs, testIds } from "../selectors";

test.describe("explore: errors, suggestions and views", () => {
  let own: OwnWorkspace;

  test.beforeEach(async ({ page, request }) => {
    own = await createOwnWorkspace(request, "explore");
    expect(await pushLines(request, own.ingestKey, cpuLines("gamma", 3))).toBe(204);
    const login = new LoginPage(page);
    await login.goto();
    await login.signIn(own.email, own.password);
  });

  test("a DQL syntax error is reported with its position and underlined", async ({ page }, testInfo) => {
    const explore = new ExplorePage(page);
    await explore.goto(own.workspaceId, "M::cpu:(avg(usage_user)) [15m::1m] BY host }");
    await expect(page.getByTestId(testIds.queryError)).toContainText("dql.parse_error");
    await expect(page.getByTestId(testIds.queryErrorPosition)).toHaveText(/line 1, column 44/);
    // the position is said once, not again as storage wrote it in the message
    await expect(page.getByTestId(testIds.queryError)).not.toContainText("1:44");
    // a query the storage refused is not retried as it is
    await expect(page.getByRole("button", { name: "Try again" })).toHaveCount(0);
    await expect(page.locator(".cm-lintRange-error")).toHaveText("}");
    await page.screenshot({ path: testInfo.outputPath("dql-error.png"), fullPage: true });
  });

  test("the editor suggests measurements and the table view shows rows", async ({ page }, testInfo) => {
    const explore = new ExplorePage(page);
    await explore.goto(own.workspaceId, "M::cpu:(usage_user) [15m]");
    await expect(page).toHaveTitle(new RegExp(`^Explore · .+ · Vigil$`));
    // The visualisation is a radio group: arrows move and select, End goes to the last one.
    await page.getByRole("radio", { name: "Line" }).click();
    await page.keyboard.press("ArrowRight");
    await expect(page.getByRole("radio", { name: "Area" })).toBeFocused();
    await expect(page.getByRole("radio", { name: "Area" })).toBeChecked();
    await page.keyboard.press("End");
    await expect(page.getByRole("radio", { name: "Table" })).toBeChecked();
    await expect(page).toHaveURL(/[?&]view=table/);
    // Auto refresh: the dashboards' menu and URL parameter
    await page.getByLabel("Auto refresh").selectOption("30s");
    await expect(page).toHaveURL(/[?&]refresh=30s/);
    await page.getByTestId(testIds.autoRefresh).selectOption("Off");
    await expect(page).not.toHaveURL(/[?&]refresh=/);
    const rows = page.getByTestId(testIds.resultTable).locator("tbody tr");
    // The consumer writes asynchronously: re-run until the rows are there.
    await expect(async () => {
      await explore.run();
      await expect(rows).toHaveCount(3, { timeout: 2_000 });
    }).toPass({ timeout: 30_000 });

    const editor = page.getByTestId(testIds.dqlEditor);
    await editor.click();
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("M::cp");
    await expect(editor).toHaveText("M::cp");
    await page.keyboard.press("Control+Space");
    await expect(page.getByRole("option", { name: /^cpu(measurement)?$/ })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath("dql-completion.png") });

    // Tab leaves the editor (it inserts nothing); Shift+Tab comes back
    await page.keyboard.press("Escape");
    await page.keyboard.press("Tab");
    await expect(editor).not.toBeFocused();
    await expect(editor).toHaveText("M::cp");
    await page.keyboard.press("Shift+Tab");
    await expect(editor).toBeFocused();
  });

  test("a storage outage is said in plain words, with a way to try again", async ({ page }, testInfo) => {
    // the backend's answer when it cannot reach vigil-storage, for the first query only
    let failures = 1;
    await page.route("**/query/raw", async (route) => {
      if (failures-- > 0) {
        await route.fulfill({
          status: 502,
          contentType: "application/json",
          body: JSON.stringify({ detail: "vigil-storage is unreachable: [Errno 111] Connection refused", code: "storage_unavailable" }),
        });
      } else await route.continue();
    });
    const explore = new ExplorePage(page);
    await explore.goto(own.workspaceId, "M::cpu:(usage_user) [15m]");
    const error = page.getByTestId(testIds.queryError);
    await expect(error).toContainText("The metrics store could not be reached");
    await expect(error).toContainText("Try again shortly");
    await expect(error.getByTestId("query-error-detail")).toContainText("Connection refused");
    await page.screenshot({ path: testInfo.outputPath("storage-unreachable.png"), fullPage: true });
    await error.getByRole("button", { name: "Try again" }).click();
    await expect(error).toHaveCount(0);
  });

  test("the time range popover gives focus back to its button on Escape", async ({ page }) => {
    const explore = new ExplorePage(page);
    await explore.goto(own.workspaceId, "M::cpu:(usage_user) [15m]");
    const button = page.getByTestId(testIds.timeRangeButton);
    await button.click();
    await page.getByRole("dialog", { name: "Time range" }).getByRole("button", { name: "Last 1 hour" }).focus();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog", { name: "Time range" })).toHaveCount(0);
    await expect(button).toBeFocused();
  });

  test("the range moves half its length earlier and later, back to following now, and zooms out", async ({ page }) => {
    const explore = new ExplorePage(page);
    await explore.goto(own.workspaceId, "M::cpu:(usage_user) [::1m]");
    await page.getByTestId(testIds.timeRangeButton).click();
    await page.getByRole("dialog", { name: "Time range" }).getByRole("button", { name: "Last 1 hour" }).click();
    const later = page.getByRole("button", { name: "Later: move the time range forward by 30m" });
    await expect(later).toBeDisabled();
    await page.getByRole("button", { name: "Zoom out: twice as long a time range" }).click();
    await expect(page.getByTestId(testIds.timeRangeButton)).toHaveText("Last 2h");
    await page.getByRole("button", { name: "Earlier: move the time range back by 1h" }).click();
    const url = new URL(page.url());
    const [from, to] = [Number(url.searchParams.get("from")), Number(url.searchParams.get("to"))];
    expect(to - from).toBe(2 * 3_600_000);
    expect(Date.now() - to).toBeGreaterThanOrEqual(3_600_000 - 5_000);
    await expect(page.getByTestId(testIds.timeRangeButton)).toHaveText(/→/);
    await page.getByRole("button", { name: "Later: move the time range forward by 1h" }).click();
    await expect(page.getByTestId(testIds.timeRangeButton)).toHaveText("Last 2h");
    expect(new URL(page.url()).searchParams.get("from")).toBe("now-2h");

    // the same from the keyboard (outside the editor), and the shortcuts' help
    await page.getByRole("heading", { name: "Explore" }).click();
    await page.keyboard.press("t");
    await page.keyboard.press("z");
    await expect(page.getByTestId(testIds.timeRangeButton)).toHaveText("Last 4h");
    await page.keyboard.press("t");
    await page.keyboard.press("ArrowLeft");
    await expect(page.getByTestId(testIds.timeRangeButton)).toHaveText(/→/);
    await page.keyboard.press("?");
    const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await expect(help.getByRole("row", { name: /Zoom out/ })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(help).toBeHidden();
    await page.keyboard.press("g");
    await page.keyboard.press("d");
    await expect(page).toHaveURL(/\/dashboards$/);
  });

  test("a few series get a keyboard legend whose choice survives a refresh; units and limits", async ({ page, request }, testInfo) => {
    expect(await pushLines(request, own.ingestKey, ["alpha", "beta"].map((h) => cpuLines(h, 3)).join("\n"))).toBe(204);
    const explore = new ExplorePage(page);
    await explore.goto(own.workspaceId, "M::cpu:(usage_user) [15m] BY host LIMIT 2");
    await expect(async () => {
      await explore.run();
      await expect(explore.chart).toHaveAttribute(chartAttrs.seriesCount, "3", { timeout: 2_000 });
    }).toPass({ timeout: 30_000 });

    // each series is a toggle button, reached with the keyboard
    const legend = page.getByRole("list", { name: /legend$/ });
    await expect(legend.getByRole("button")).toHaveCount(3);
    await legend.getByRole("button", { name: "beta" }).focus();
    await page.keyboard.press("Enter");
    await expect(legend.getByRole("button", { name: "beta" })).toHaveAttribute("aria-pressed", "false");
    await expect(explore.chart).toHaveAttribute(chartAttrs.seriesCount, "2");
    // new data for the same series keeps it hidden
    await Promise.all([page.waitForResponse((r) => r.url().includes("/query/raw") && r.ok()), explore.run()]);
    await expect(legend.getByRole("button", { name: "beta" })).toHaveAttribute("aria-pressed", "false");
    await expect(explore.chart).toHaveAttribute(chartAttrs.seriesCount, "2");

    // LIMIT 2 cut every series short: the page says so, and what to change
    const notice = page.getByTestId("result-limit-notice");
    await expect(notice).toContainText("LIMIT 2");
    await expect(notice).toContainText("[30d::1h]");

    // the unit is kept in the URL and used by the table
    await page.getByTestId("result-unit").selectOption("percent");
    await expect(page).toHaveURL(/[?&]unit=percent/);
    await page.getByRole("radio", { name: "Table" }).click();
    await expect(page.getByTestId(testIds.resultTable).locator("tbody tr").first()).toContainText("%");
    await page.screenshot({ path: testInfo.outputPath("explore-legend-unit-limit.png"), fullPage: true });
  });
});
