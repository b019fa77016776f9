import { expect, test, type Page } from "@playwright/test";
import { expectAccessible } from "../fixtures/a11y";
import { createOwnWorkspace, pushLines, type OwnWorkspace } from "../fixtures/api";
import { uploadBenchmarkRun, type UploadedRun } from "../fixtures/benchmarks";
import { uniqueSuffix } from "../fixtures/env";
import { ConfirmDialog } from "../pages/ConfirmDialog";
import { DashboardPage } from "../pages/DashboardPage";
import { ExplorePage } from "../pages/ExplorePage";
import { LoginPage } from "../pages/LoginPage";
import { SettingsPage } from "../pages/SettingsPage";
import { SignupPage } from "../pages/SignupPage";
import { WorkspaceSwitcher } from "../pages/WorkspaceSwitcher";
import { chartAttrs, testIds } from "../selectors";

/**
 * The product's accessibility bar, checked by axe-core (WCAG 2.1 A and AA, and axe's best
 * practices) on every main page with real content, in the light and the dark theme: names for
 * screen readers, contrast, valid ARIA, landmarks and headings. A failure lists each rule,
 * where, and what to fix (`fixtures/a11y.ts`).
 */

const HOSTS = ["alpha", "beta", "gamma"];

/** What vigil-agent sends for a host, once a minute up to now: enough for every Host overview panel. */
function hostLines(host: string, level: number, points = 6, now = Date.now()): string {
  return Array.from({ length: points }, (_, i) => {
    const t = now - (points - 1 - i) * 60_000;
    const v = level + i;
    return [
      `cpu,host=${host},cpu=cpu-total usage_user=${v},usage_system=${v / 4},usage_iowait=1 ${t}`,
      `system,host=${host} uptime=${86_400 + i * 60}i,load1=${v / 20},load5=${v / 25},load15=${v / 30} ${t}`,
      `mem,host=${host} used_percent=${v + 20},used=${(v + 20) * 1e8}i,available=${(80 - v) * 1e8}i ${t}`,
      `disk,host=${host},path=/ used_percent=${v + 10} ${t}`,
    ].join("\n");
  }).join("\n");
}

async function hostOverviewId(page: Page, own: OwnWorkspace): Promise<string> {
  const list = await page.request.get(`/api/v1/workspaces/${own.workspaceId}/dashboards`, {
    headers: { Authorization: `Bearer ${own.token}` },
  });
  expect(list.status()).toBe(200);
  const found = ((await list.json()) as { data: { id: string; title: string }[] }).data.find(
    (d) => d.title === "Host overview",
  );
  if (!found) throw new Error("the shipped Host overview dashboard is missing");
  return found.id;
}

/** Every chart on the page has drawn its current data (after the theme changed, say). */
async function chartsReady(page: Page): Promise<void> {
  await expect
    .poll(() => page.locator(`[${chartAttrs.ready}]`).evaluateAll((els) => els.map((el) => el.getAttribute("data-ready"))))
    .not.toContain("false");
}

test.describe("accessibility (axe: WCAG 2.1 AA and best practices, light and dark)", () => {
  test("sign-in, password reset, sign-up by email, the first workspace and its getting-started page", async ({ page }) => {
    test.slow(); // eight pages, each scanned in both colour schemes
    const login = new LoginPage(page);
    await login.goto();
    await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
    await expectAccessible(page, "sign-in");
    // the same form showing its field errors
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
    await expectAccessible(page, "sign-in with errors");
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await expect(page.getByRole("heading", { name: "Reset your password" })).toBeVisible();
    await expectAccessible(page, "forgot password");

    const signup = new SignupPage(page);
    await signup.goto();
    await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
    await expectAccessible(page, "sign-up");

    const suffix = uniqueSuffix();
    const email = `e2e-a11y-${suffix}@example.com`;
    await signup.requestLink(email);
    await expectAccessible(page, "sign-up link sent");
    await signup.openEmailedLink(email);
    await expectAccessible(page, "finish sign-up");
    await signup.choosePassword("Ally Axe", `pw-${suffix}-Secret!`);
    await expect(page.getByRole("heading", { name: "Create your first workspace" })).toBeVisible();
    await expectAccessible(page, "first workspace");

    await signup.createFirstWorkspace(`Axe ${suffix}`);
    await expect(page.getByRole("link", { name: "Open Host overview" })).toBeVisible();
    await expectAccessible(page, "getting started");
    await page.getByRole("button", { name: "Create an ingest key" }).click();
    await expect(page.getByTestId(testIds.newKeyValue)).toHaveText(/^vgi_/);
    await expectAccessible(page, "getting started with a new key");
  });

  test.describe("a workspace with hosts, dashboards and a benchmark run", () => {
    let own: OwnWorkspace;
    let run: UploadedRun;
    // each test scans four to eight pages and popovers, in both colour schemes
    test.beforeEach(() => test.slow());

    test.beforeAll(async ({ request }) => {
      own = await createOwnWorkspace(request, "a11y");
      const lines = HOSTS.map((h, i) => hostLines(h, 10 + 30 * i)).join("\n");
      expect(await pushLines(request, own.ingestKey, lines)).toBe(204);
      run = await uploadBenchmarkRun(request, own.token, own.workspaceId, "benchmark-run-small-1.json");
      const invite = await request.post(`/api/v1/workspaces/${own.workspaceId}/invitations`, {
        headers: { Authorization: `Bearer ${own.token}` },
        data: { email: `e2e-a11y-invitee-${uniqueSuffix()}@example.com`, role: "editor" },
      });
      expect(invite.status()).toBe(201);
    });

    test.beforeEach(async ({ page }) => {
      const login = new LoginPage(page);
      await login.goto();
      await login.signIn(own.email, own.password);
    });

    test("Explore: a chart with its legend, the table and stat views, and the popovers over them", async ({ page }) => {
      const explore = new ExplorePage(page);
      await explore.goto(own.workspaceId, "M::cpu:(avg(usage_user)) [15m::1m] BY host");
      // The consumer writes asynchronously: re-run until every host is drawn.
      await expect(async () => {
        await explore.run();
        await expect(explore.chart).toHaveAttribute(chartAttrs.seriesCount, String(HOSTS.length), { timeout: 2_000 });
      }).toPass({ timeout: 30_000 });
      await expect(page.getByRole("list", { name: /legend$/ }).getByRole("button")).toHaveCount(HOSTS.length);
      await expectAccessible(page, "Explore chart", { ready: () => chartsReady(page) });
      // a series switched off in the legend stays readable
      const legend = page.getByRole("list", { name: /legend$/ });
      await legend.getByRole("button", { name: HOSTS[1] }).click();
      await expect(legend.getByRole("button", { name: HOSTS[1] })).toHaveAttribute("aria-pressed", "false");
      await expectAccessible(page, "Explore chart with a series hidden", { ready: () => chartsReady(page) });

      await page.getByRole("radio", { name: "Table" }).click();
      await expect(page.getByTestId(testIds.resultTable).locator("tbody tr").first()).toBeVisible();
      await expectAccessible(page, "Explore table");

      await page.getByRole("radio", { name: "Stat" }).click();
      await expect(page.getByTestId(testIds.statItem)).toHaveCount(HOSTS.length);
      await expectAccessible(page, "Explore stat");

      // Popovers and menus over the page: only what they add is scanned again.
      await page.getByRole("button", { name: "Save query" }).click();
      await expect(page.getByRole("form", { name: "Save query" })).toBeVisible();
      await expectAccessible(page, "Explore save query", { include: 'form[aria-label="Save query"]' });
      await page.getByRole("button", { name: "Save query" }).click();

      await page.getByRole("button", { name: "Add to dashboard" }).click();
      await expect(page.getByTestId("add-to-dashboard-dialog").getByRole("option").first()).toBeAttached();
      await expectAccessible(page, "Explore add to dashboard", { include: '[data-testid="add-to-dashboard-dialog"]' });
      await page.keyboard.press("Escape");

      await page.getByTestId(testIds.timeRangeButton).click();
      await expect(page.getByRole("dialog", { name: "Time range" })).toBeVisible();
      await expectAccessible(page, "Explore time range", { include: '[role="dialog"][aria-label="Time range"]' });
      await page.keyboard.press("Escape");

      const switcher = new WorkspaceSwitcher(page);
      await switcher.open();
      await expectAccessible(page, "workspace menu", { include: '[role="menu"][aria-label="Workspaces"]' });
      await page.keyboard.press("Escape");

      // two queries, each with its editor, legend, Hide and Remove, drawn together
      await explore.gotoSearch(own.workspaceId, [
        ["q", "M::cpu:(avg(usage_user)) [15m::1m] BY host"],
        ["legend", "user {{host}}"],
        ["q.B", "M::cpu:(avg(usage_system)) [15m::1m] BY host"],
        ["legend.B", "system {{host}}"],
      ]);
      await expect(explore.chart).toHaveAttribute(chartAttrs.seriesCount, String(2 * HOSTS.length));
      await expectAccessible(page, "Explore two queries", { ready: () => chartsReady(page) });
      // query B refused: its error under it, A still drawn
      await page.getByLabel("Query B", { exact: true }).click();
      await page.keyboard.press("End");
      await page.keyboard.insertText(" }");
      await page.getByRole("button", { name: "Run queries" }).click();
      await expect(page.getByTestId(testIds.queryError)).toContainText("Query B could not run");
      await expect(explore.chart).toHaveAttribute(chartAttrs.seriesCount, String(HOSTS.length));
      await expectAccessible(page, "Explore two queries, B refused", { ready: () => chartsReady(page) });
    });

    test("dashboards: the list, Host overview, the panel editor and the settings", async ({ page }) => {
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboards" }).click();
      await expect(page.getByRole("link", { name: "Host overview" })).toBeVisible();
      await expectAccessible(page, "dashboards list");
      await page.getByRole("button", { name: "Import JSON" }).click();
      await expect(page.getByRole("form", { name: "Import dashboard" })).toBeVisible();
      await expectAccessible(page, "dashboards import", { include: 'form[aria-label="Import dashboard"]' });
      // the app's confirmation before anything destructive
      await page.getByRole("button", { name: "Delete Host overview" }).click();
      await expect(page.getByRole("alertdialog")).toBeVisible();
      await expectAccessible(page, "confirmation dialog", { include: '[role="alertdialog"]' });
      await new ConfirmDialog(page).dismiss('Delete "Host overview"?');

      const dash = new DashboardPage(page);
      await dash.goto(own.workspaceId, await hostOverviewId(page, own));
      const busiest = dash.panel("Busiest hosts (CPU user %)");
      // Points become queryable once the consumer wrote them: reload until the ranking is there.
      await expect(async () => {
        await page.reload();
        await expect(busiest.getByTestId("toplist-row")).toHaveCount(HOSTS.length, { timeout: 3_000 });
      }).toPass({ timeout: 30_000 });
      await expectAccessible(page, "Host overview", { ready: () => chartsReady(page) });

      // a panel's menu, its data and the panel alone
      await page.getByRole("button", { name: "Menu of Busiest hosts (CPU user %)" }).click();
      await expect(page.getByRole("menu")).toBeVisible();
      await expectAccessible(page, "panel menu", { include: '[role="menu"]' });
      await page.getByRole("menuitem", { name: "Inspect data" }).click();
      await expect(page.getByTestId("panel-inspect")).toBeVisible();
      await expectAccessible(page, "panel data", { include: '[data-testid="panel-inspect"]' });
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: "Menu of Busiest hosts (CPU user %)" }).click();
      await page.getByRole("menuitem", { name: "View" }).click();
      await expect(busiest.getByTestId("toplist-row")).toHaveCount(HOSTS.length);
      await expectAccessible(page, "one panel alone");
      await page.getByRole("button", { name: "Back to the dashboard" }).click();

      await page.getByRole("button", { name: "Share", exact: true }).click();
      await page.getByLabel("Lock the time range").check();
      await expect(page.getByTestId("share-dialog")).toBeVisible();
      await expectAccessible(page, "share dialog", { include: '[data-testid="share-dialog"]' });
      await page.getByRole("button", { name: "Done" }).click();

      await page.getByRole("button", { name: "History", exact: true }).click();
      await expect(page.getByRole("dialog", { name: /history/i })).toBeVisible();
      await expectAccessible(page, "dashboard history", { include: ".drawer" });
      await page.getByRole("button", { name: "Close version history" }).click();

      await dash.startEditing();
      const first = page.getByTestId(testIds.panel).first();
      const title = (await first.getAttribute("aria-label")) ?? "";
      await page.getByRole("button", { name: `Edit ${title}`, exact: true }).click();
      await expect(dash.editor).toBeVisible();
      // the editor covers the page; the dashboard in edit mode behind it is scanned with the settings
      await expectAccessible(page, "panel editor", { include: '[data-testid="panel-editor"]' });
      // two queries, and a text panel's Markdown and its preview
      await dash.editor.getByRole("button", { name: "Add query" }).click();
      await expectAccessible(page, "panel editor with two queries", { include: '[data-testid="panel-editor"]' });
      await dash.editor.getByRole("radio", { name: "Text" }).click();
      await dash.editor.getByLabel("Text (Markdown)").fill("## Runbook\n\n- [wiki](https://wiki.example.com)\n\n| a | b |\n|---|---|\n| 1 | 2 |");
      await expect(dash.editor.getByRole("heading", { name: "Runbook" })).toBeVisible();
      await expectAccessible(page, "text panel editor", { include: '[data-testid="panel-editor"]' });
      await dash.editor.getByRole("button", { name: "Discard", exact: true }).click();
      await new ConfirmDialog(page).confirm("Discard the changes to this panel?", "Discard");
      await expect(dash.editor).toBeHidden();

      const settings = await dash.openSettings();
      await expect(settings.getByTestId(testIds.variableRow).first()).toBeVisible();
      await expectAccessible(page, "Host overview in edit mode, with its settings");
    });

    test("workspace settings: general, members, invitations, API keys, limits & usage, audit log", async ({ page }) => {
      const settings = new SettingsPage(page);
      await settings.goto(own.workspaceId, "general");
      await expectAccessible(page, "settings general");

      await settings.goto(own.workspaceId, "members");
      await expect(settings.memberRow(own.email)).toBeVisible();
      await expectAccessible(page, "settings members");

      await settings.goto(own.workspaceId, "invitations");
      await expect(page.getByTestId("invitations-table").getByRole("row").filter({ hasText: "pending" })).toHaveCount(1);
      await expectAccessible(page, "settings invitations");

      await settings.goto(own.workspaceId, "keys");
      await expect(page.getByTestId(testIds.keysTable).getByRole("row").filter({ hasText: "e2e ingest" })).toBeVisible();
      await expectAccessible(page, "settings API keys");

      await settings.goto(own.workspaceId, "limits");
      const ingestChart = page.getByTestId("usage-ingest-chart");
      // Storage counts the pushed points asynchronously: reload until the usage is drawn.
      await expect(async () => {
        await page.reload();
        await expect(ingestChart).toHaveAttribute(chartAttrs.seriesCount, /^[1-9]/, { timeout: 2_000 });
      }).toPass({ timeout: 30_000 });
      await expectAccessible(page, "settings limits & usage", { ready: () => chartsReady(page) });

      await settings.goto(own.workspaceId, "audit");
      await expect(settings.auditRows().first()).toBeVisible();
      await expectAccessible(page, "settings audit log");
    });

    test("account, benchmarks list and a benchmark report", async ({ page }) => {
      await page.getByTestId(testIds.userEmail).click();
      await expect(page.getByRole("heading", { name: "Your account" })).toBeVisible();
      await expectAccessible(page, "account");
      await page.getByRole("button", { name: "Keyboard shortcuts" }).click();
      await expect(page.getByTestId("shortcuts-dialog")).toBeVisible();
      await expectAccessible(page, "keyboard shortcuts", { include: '[data-testid="shortcuts-dialog"]' });
      await page.keyboard.press("Escape");

      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Benchmarks" }).click();
      await expect(page.getByTestId(testIds.benchmarksTable).getByRole("link", { name: run.run_id })).toBeVisible();
      await expectAccessible(page, "benchmarks list");

      await page.getByRole("link", { name: run.run_id }).click();
      await expect(page.getByRole("heading", { name: `Benchmark run ${run.run_id}` })).toBeVisible();
      await expect(page.getByTestId(testIds.summaryTable)).toBeVisible();
      await expectAccessible(page, "benchmark report", { ready: () => chartsReady(page) });
    });
  });
});
