import { expect, test } from "@playwright/test";
import { cpuLines, createOwnWorkspace, pushLines, type OwnWorkspace } from "../fixtures/api";
import { ExplorePage } from "../pages/ExplorePage";
import { LoginPage } from "../pages/LoginPage";
import { testIds } from "../selectors";

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
    await expect(page.locator(".cm-lintRange-error")).toHaveText("}");
    await page.screenshot({ path: testInfo.outputPath("dql-error.png"), fullPage: true });
  });

  test("the editor suggests measurements and the table view shows rows", async ({ page }, testInfo) => {
    const explore = new ExplorePage(page);
    await explore.goto(own.workspaceId, "M::cpu:(usage_user) [15m]");
    await page.getByRole("radio", { name: "Table" }).click();
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
  });
});
