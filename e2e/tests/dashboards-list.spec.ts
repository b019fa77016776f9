import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { expectAccessible } from "../fixtures/a11y";
import { createOwnWorkspace, type OwnWorkspace } from "../fixtures/api";
import { LoginPage } from "../pages/LoginPage";
import { testIds } from "../selectors";

/** Besides the shipped "Host overview" (tags hosts, vigil-agent). */
const DASHBOARDS = [
  { title: "CPU by host", tags: ["hosts", "prod"] },
  { title: "Checkout latency", tags: ["prod", "payments"] },
  { title: "Memory pressure", tags: ["hosts", "staging"] },
  { title: "Scratch", tags: [] },
];

async function createDashboards(request: APIRequestContext, own: OwnWorkspace): Promise<void> {
  for (const d of DASHBOARDS) {
    const res = await request.post(`/api/v1/workspaces/${own.workspaceId}/dashboards`, {
      headers: { Authorization: `Bearer ${own.token}` },
      data: { ...d, spec: { schema_version: 1, panels: [] } },
    });
    expect(res.status(), await res.text()).toBe(201);
  }
}

/** The titles the list shows, in order. */
async function shownTitles(page: Page): Promise<string[]> {
  return page.getByTestId(testIds.dashboardsTable).locator("tbody tr").getByRole("link").allTextContents();
}

test("search the dashboards list and narrow it by tags, with the filter in a link that survives a reload", async ({
  page,
  request,
}, testInfo) => {
  const own = await createOwnWorkspace(request, "dashlist");
  await createDashboards(request, own);
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(own.email, own.password);
  await page.goto(`/w/${own.workspaceId}/dashboards`);

  const table = page.getByTestId(testIds.dashboardsTable);
  const search = page.getByRole("searchbox", { name: "Search dashboards" });
  const count = page.getByRole("status").filter({ hasText: / of \d+ dashboards$/ });
  await expect(page.getByRole("link", { name: "Scratch" })).toBeVisible();
  await expect.poll(() => shownTitles(page)).toEqual(["Checkout latency", "CPU by host", "Host overview", "Memory pressure", "Scratch"]);
  const historyLength = await page.evaluate(() => window.history.length);

  // Typing filters at once, on the title or a tag, in any case; the words are in the URL.
  await search.pressSequentially("HOST");
  await expect.poll(() => shownTitles(page)).toEqual(["CPU by host", "Host overview", "Memory pressure"]);
  await expect(count).toHaveText("3 of 5 dashboards");
  await expect(page).toHaveURL(/[?&]q=HOST(&|$)/);
  await search.pressSequentially(" cpu");
  await expect.poll(() => shownTitles(page)).toEqual(["CPU by host"]);
  await search.fill("host");

  // A tag in the list narrows to the dashboards having it, and shows as a removable chip.
  await table.getByRole("button", { name: "Filter by tag prod" }).first().click();
  await expect.poll(() => shownTitles(page)).toEqual(["CPU by host"]);
  await expect(page.getByRole("button", { name: "Remove tag filter prod" })).toBeVisible();
  await expect(table.getByRole("button", { name: "Filter by tag prod" })).toHaveAttribute("aria-pressed", "true");
  await expect(count).toHaveText("1 of 5 dashboards");
  await expect(page).toHaveURL(/[?&]q=host&tag=prod$/);
  // Typing and choosing replaced the page's history entry instead of adding one each.
  expect(await page.evaluate(() => window.history.length)).toBe(historyLength);
  await page.screenshot({ path: testInfo.outputPath("dashboards-filtered.png") });
  await expectAccessible(page, "dashboards list filtered by a search and a tag");
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: testInfo.outputPath("dashboards-filtered-dark.png") });
  await page.emulateMedia({ colorScheme: "light" });

  // The link is the filtered list: a reload, or opening it afresh, shows the same.
  const link = page.url();
  await page.reload();
  await expect(search).toHaveValue("host");
  await expect(page.getByRole("button", { name: "Remove tag filter prod" })).toBeVisible();
  await expect.poll(() => shownTitles(page)).toEqual(["CPU by host"]);
  await page.goto(`/w/${own.workspaceId}/dashboards`);
  await expect(search).toHaveValue("");
  await page.goto(link);
  await expect.poll(() => shownTitles(page)).toEqual(["CPU by host"]);

  // Several tags: the dashboards having all of them. Removing a chip widens the list again.
  await search.fill("");
  await table.getByRole("button", { name: "Filter by tag hosts" }).first().click();
  await expect.poll(() => shownTitles(page)).toEqual(["CPU by host"]);
  await expect(page).toHaveURL(/[?&]tag=prod&tag=hosts$/);
  await page.getByRole("button", { name: "Remove tag filter prod" }).click();
  await expect.poll(() => shownTitles(page)).toEqual(["CPU by host", "Host overview", "Memory pressure"]);
  await expect(page).toHaveURL(/[?&]tag=hosts$/);
  await expect(search).toBeFocused();

  // Nothing matching says so, and Clear filters shows everything again.
  await search.fill("checkout");
  const none = page.getByTestId("dashboards-no-match");
  await expect(none).toContainText("No dashboard with the tag hosts matches “checkout”.");
  await expect(count).toHaveText("0 of 5 dashboards");
  await none.getByRole("button", { name: "Clear filters" }).click();
  await expect.poll(() => shownTitles(page)).toHaveLength(5);
  await expect(search).toHaveValue("");
  await expect(page.getByRole("button", { name: "Clear filters" })).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`/w/${own.workspaceId}/dashboards$`));
});
