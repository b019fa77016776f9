import { expect, test, type Page } from "@playwright/test";
import { cpuLines, createOwnWorkspace, pushLines, type OwnWorkspace } from "../fixtures/api";
import { ExplorePage } from "../pages/ExplorePage";
import { LoginPage } from "../pages/LoginPage";
import { chartAttrs, testIds } from "../selectors";

const USER = "M::cpu:(avg(usage_user)) [15m::1m] BY host";
const IDLE = "M::cpu:(avg(usage_idle)) [15m::1m] BY host";

interface SavedQuery {
  ref_id?: string;
  query: string;
  legend_format?: string | null;
  hidden?: boolean;
}

/** The names of the series the chart's legend lists, in order. */
async function legendNames(page: Page): Promise<string[]> {
  return page.getByRole("list", { name: /legend$/ }).getByRole("button").allTextContents();
}

/** Types `text` into the DQL editor named `label`, replacing what it holds. */
async function typeQuery(page: Page, label: string, text: string): Promise<void> {
  const editor = page.getByLabel(label, { exact: true });
  await editor.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.insertText(text);
  await page.keyboard.press("Escape");
  await expect(editor).toHaveText(text);
}

test.describe("explore: several queries", () => {
  let own: OwnWorkspace;

  test.beforeEach(async ({ page, request }) => {
    own = await createOwnWorkspace(request, "explore-queries");
    const lines = ["alpha", "beta"].map((h) => cpuLines(h, 4)).join("\n");
    expect(await pushLines(request, own.ingestKey, lines)).toBe(204);
    const login = new LoginPage(page);
    await login.goto();
    await login.signIn(own.email, own.password);
  });

  test("two queries with their legends, one hidden, the link reopened, then a dashboard panel of both", async ({
    page,
    browser,
    request,
  }, testInfo) => {
    test.setTimeout(120_000);
    const explore = new ExplorePage(page);
    await explore.goto(own.workspaceId, USER);

    // query B, added from the keyboard: the focus goes into its editor
    await page.getByRole("button", { name: "Add query" }).click();
    await expect(page.getByLabel("Query B", { exact: true })).toBeFocused();
    await page.keyboard.insertText(IDLE);
    await page.keyboard.press("Escape");
    await page.getByLabel("Legend of query A").fill("user {{host}}");
    await page.getByLabel("Legend of query B").fill("idle {{host}}");
    // The consumer writes asynchronously: run (Ctrl+Enter from B's editor) until both hosts are there.
    await expect(async () => {
      await page.getByLabel("Query B", { exact: true }).click();
      await page.keyboard.press("Control+Enter");
      await expect(explore.chart).toHaveAttribute(chartAttrs.seriesCount, "4", { timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await expect.poll(() => legendNames(page)).toEqual(["user alpha", "user beta", "idle alpha", "idle beta"]);
    await expect(explore.chart).toHaveAttribute(chartAttrs.pointCount, "16");
    await expect(page.getByTestId(testIds.resultSummary)).toContainText("4 series, 16 points");
    const url = new URL(page.url());
    expect(url.searchParams.get("q")).toBe(USER);
    expect(url.searchParams.get("q.B")).toBe(IDLE);
    expect(url.searchParams.get("legend")).toBe("user {{host}}");
    expect(url.searchParams.get("legend.B")).toBe("idle {{host}}");
    await expect(explore.chart).toHaveAttribute(chartAttrs.ready, "true");
    await page.screenshot({ path: testInfo.outputPath("explore-two-queries-light.png"), fullPage: true });
    await page.emulateMedia({ colorScheme: "dark" });
    await expect(explore.chart).toHaveAttribute(chartAttrs.ready, "true");
    await page.screenshot({ path: testInfo.outputPath("explore-two-queries-dark.png"), fullPage: true });
    await page.emulateMedia({ colorScheme: "light" });

    // Hide B: kept, not run; A's series alone
    await page.getByRole("checkbox", { name: "Hide query B" }).check();
    await expect(page).toHaveURL(/[?&]hide=B/);
    await expect(explore.chart).toHaveAttribute(chartAttrs.seriesCount, "2");
    await expect.poll(() => legendNames(page)).toEqual(["user alpha", "user beta"]);
    await expect(page.getByLabel("Query B", { exact: true })).toHaveText(IDLE);

    // The link, opened by the same user in another browser, has both queries, B still hidden.
    const link = page.url();
    const other = await browser.newContext();
    const shared = await other.newPage();
    await shared.goto(link);
    await new LoginPage(shared).signIn(own.email, own.password);
    await expect(shared).toHaveURL(link);
    await expect(shared.getByLabel("Query A", { exact: true })).toHaveText(USER);
    await expect(shared.getByLabel("Query B", { exact: true })).toHaveText(IDLE);
    await expect(shared.getByLabel("Legend of query B")).toHaveValue("idle {{host}}");
    await expect(shared.getByRole("checkbox", { name: "Hide query B" })).toBeChecked();
    const sharedChart = new ExplorePage(shared).chart;
    await expect(sharedChart).toHaveAttribute(chartAttrs.seriesCount, "2");
    await shared.getByRole("checkbox", { name: "Hide query B" }).uncheck();
    await expect(sharedChart).toHaveAttribute(chartAttrs.seriesCount, "4");
    await expect.poll(() => legendNames(shared)).toEqual(["user alpha", "user beta", "idle alpha", "idle beta"]);
    await other.close();

    // Add to dashboard: a new dashboard whose panel has both queries, B hidden
    await page.getByRole("button", { name: "Add to dashboard" }).click();
    const dialog = page.getByTestId("add-to-dashboard-dialog");
    await expect(dialog).toContainText("The 2 queries become a new panel");
    await dialog.getByLabel("Dashboard", { exact: true }).selectOption({ label: "A new dashboard…" });
    await dialog.getByLabel("New dashboard title").fill("Two queries");
    await dialog.getByRole("button", { name: "Add panel" }).click();
    await expect(page).toHaveURL(/\/dashboards\/[0-9a-f-]+\?/);
    const dashboardId = new URL(page.url()).pathname.split("/").pop();
    const res = await request.get(`/api/v1/workspaces/${own.workspaceId}/dashboards/${dashboardId}`, {
      headers: { Authorization: `Bearer ${own.token}` },
    });
    expect(res.status()).toBe(200);
    const dashboard = (await res.json()) as { title: string; spec: { panels: { title: string; queries: SavedQuery[] }[] } };
    expect(dashboard.title).toBe("Two queries");
    expect(dashboard.spec.panels).toHaveLength(1);
    expect(dashboard.spec.panels[0].queries).toEqual([
      expect.objectContaining({ ref_id: "A", query: USER, legend_format: "user {{host}}" }),
      expect.objectContaining({ ref_id: "B", query: IDLE, legend_format: "idle {{host}}", hidden: true }),
    ]);
    expect(dashboard.spec.panels[0].queries[0].hidden ?? false).toBe(false);
    // the panel draws A alone, as Explore did
    await expect(page.getByTestId(testIds.panelChart)).toHaveAttribute(chartAttrs.seriesCount, "2");
  });

  test("a DQL error shows under the query that caused it, and the other query's series are drawn", async ({ page }, testInfo) => {
    const explore = new ExplorePage(page);
    await explore.goto(own.workspaceId, USER);
    await expect(explore.chart).toHaveAttribute(chartAttrs.seriesCount, "2", { timeout: 30_000 });
    await page.getByRole("button", { name: "Add query" }).click();
    await typeQuery(page, "Query B", `${IDLE} }`);
    await page.getByRole("button", { name: "Run queries" }).click();

    const rowB = page.getByTestId("query-row").and(page.locator('[data-ref="B"]'));
    const error = rowB.getByTestId(testIds.queryError);
    await expect(error).toContainText("Query B could not run");
    await expect(error).toContainText("dql.parse_error");
    await expect(error.getByTestId(testIds.queryErrorPosition)).toHaveText(new RegExp(`^line 1, column ${IDLE.length + 2}`));
    await expect(error).not.toContainText("query 2:");
    // underlined in B's editor, not in A's
    await expect(rowB.locator(".cm-lintRange-error")).toHaveText("}");
    const rowA = page.getByTestId("query-row").and(page.locator('[data-ref="A"]'));
    await expect(rowA.locator(".cm-lintRange-error")).toHaveCount(0);
    await expect(rowA.getByTestId(testIds.queryError)).toHaveCount(0);
    // A's series are still drawn
    await expect(explore.chart).toHaveAttribute(chartAttrs.seriesCount, "2");
    await expect(page.getByTestId(testIds.resultSummary)).toContainText("2 series");
    await page.screenshot({ path: testInfo.outputPath("explore-query-b-error.png"), fullPage: true });

    // fixed, B runs with A
    await typeQuery(page, "Query B", IDLE);
    await page.getByRole("button", { name: "Run queries" }).click();
    await expect(explore.chart).toHaveAttribute(chartAttrs.seriesCount, "4");
    await expect(error).toHaveCount(0);
  });
});
