import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { cpuLines, createOwnWorkspace, pushLines, type OwnWorkspace } from "../fixtures/api";
import { DashboardPage, signInAndCreateDashboard, type GridPos } from "../pages/DashboardPage";
import { LoginPage } from "../pages/LoginPage";
import { testIds } from "../selectors";

const DAY = 86_400_000;

interface SavedPanel {
  id: string;
  type: string;
  title: string;
  grid: GridPos;
  unit?: string;
  thresholds?: { value: number; color: string }[];
}

async function savedPanels(request: APIRequestContext, own: OwnWorkspace, dashboardId: string): Promise<SavedPanel[]> {
  const res = await request.get(`/api/v1/workspaces/${own.workspaceId}/dashboards/${dashboardId}`, {
    headers: { Authorization: `Bearer ${own.token}` },
  });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { spec: { panels: SavedPanel[] } }).spec.panels;
}

/**
 * A new user's workspace with CPU points of hosts alpha and beta (and beta one day earlier,
 * 20 points higher, for the comparison), signed in, with a new dashboard `title` whose
 * starter panel charts both hosts once the consumer wrote the points.
 */
async function newHostsDashboard(
  page: Page,
  request: APIRequestContext,
  label: string,
  title: string,
): Promise<{ own: OwnWorkspace; dashboardId: string; dash: DashboardPage }> {
  const own = await createOwnWorkspace(request, label);
  const now = Date.now();
  const yesterday = cpuLines("beta", 5, now - DAY).replace(/usage_user=(\d+)/g, (_, v: string) => `usage_user=${Number(v) + 20}`);
  const lines = [cpuLines("alpha", 5, now), cpuLines("beta", 5, now), yesterday].join("\n");
  expect(await pushLines(request, own.ingestKey, lines)).toBe(204);

  const { dash, dashboardId } = await signInAndCreateDashboard(page, own, title);
  await expect(async () => {
    await page.reload();
    await expect(dash.chartOf("CPU user %")).toHaveAttribute("data-series-count", "2", { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  return { own, dashboardId, dash };
}

test("build a dashboard: variable, time shift, panel editor, drag and resize, then share the link", async ({
  page,
  request,
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const { own, dashboardId, dash } = await newHostsDashboard(page, request, "dashbuild", "Hosts");
  await expect(dash.saveState).toHaveText("Saved · v1");

  // Variable and time shift go to the URL; the past series is drawn on the same chart.
  await page.getByTestId(testIds.variable("host")).selectOption(["beta"]);
  await expect(page).toHaveURL(/var-host=beta/);
  await expect(dash.chartOf("CPU user %")).toHaveAttribute("data-series-count", "1");
  await page.getByTestId(testIds.timeShift).selectOption("1d");
  await expect(page).toHaveURL(/compare=1d/);
  await expect(dash.chartOf("CPU user %")).toHaveAttribute("data-series-count", "2");

  // A custom shift is validated before it is applied.
  await page.getByTestId(testIds.timeShift).selectOption("__custom");
  await page.getByLabel("Shift by").fill("2 days");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByRole("alert")).toContainText('"2 days" is not a duration');
  await page.getByTestId(testIds.timeShift).selectOption("1d");

  // Add a stat panel in the editor; the preview follows the edits.
  await dash.startEditing();
  await page.getByTestId(testIds.addPanel).click();
  await expect(dash.editor).toBeVisible();
  await dash.editor.getByLabel("Title").fill("Beta CPU now");
  const editorQuery = dash.editor.getByTestId(testIds.dqlEditor);
  await editorQuery.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("M::cpu:(last(usage_user)) {host = '$host'} BY host");
  await dash.editor.getByRole("radio", { name: "Stat" }).click();
  await dash.editor.getByLabel("Unit").selectOption("percent");
  await dash.editor.getByRole("button", { name: "Add threshold" }).click();
  await dash.editor.getByLabel("Value of threshold 1").fill("12");
  // The preview re-runs once the edits settle: one tile, beta's last value (10, 11, … 14),
  // above the threshold, so in its colour.
  await expect(dash.editor.getByTestId(testIds.statItem)).toHaveCount(1);
  const statValue = dash.editor.getByTestId(testIds.statItem).locator(".stat-value");
  await expect(statValue).toHaveText("14%");
  await expect(statValue).toHaveAttribute("data-color", "#ff9830");
  await page.screenshot({ path: testInfo.outputPath("panel-editor.png") });
  await dash.editor.getByRole("button", { name: "Apply" }).click();
  await expect(dash.editor).toBeHidden();
  await expect(dash.saveState).toHaveText("Unsaved changes");
  await expect(dash.panel("Beta CPU now").getByTestId(testIds.statItem)).toHaveText(/14%/);

  // Drag the new panel to the top left, resize the chart: both persist once saved.
  const statBefore = await dash.gridPos("Beta CPU now");
  expect(statBefore).toEqual({ x: 12, y: 0, w: 12, h: 8 });
  await dash.dragPanel("Beta CPU now", -900, 0);
  await expect.poll(() => dash.gridPos("Beta CPU now")).toMatchObject({ x: 0, y: 0 });
  const chartPos = await dash.gridPos("CPU user %");
  await dash.resizePanel("CPU user %", 300, 120);
  await expect.poll(async () => (await dash.gridPos("CPU user %")).w).toBeGreaterThan(chartPos.w);
  const resized = await dash.gridPos("CPU user %");
  expect(resized.h).toBeGreaterThan(chartPos.h);
  await page.getByLabel("Version note").fill("stat panel and layout");
  await page.screenshot({ path: testInfo.outputPath("dashboard-editing.png") });
  await dash.save();
  await expect(dash.saveState).toHaveText("Saved · v2");

  const saved = await savedPanels(request, own, dashboardId);
  expect(saved.map((p) => [p.title, p.type])).toEqual([
    ["CPU user %", "timeseries"],
    ["Beta CPU now", "stat"],
  ]);
  expect(saved[1]).toMatchObject({ unit: "percent", thresholds: [{ value: 12, color: "#ff9830" }], grid: { x: 0, y: 0 } });
  expect(saved[0].grid).toEqual(resized);

  await page.reload();
  await expect(dash.panel("Beta CPU now")).toBeVisible();
  expect(await dash.gridPos("Beta CPU now")).toMatchObject({ x: 0, y: 0 });
  expect(await dash.gridPos("CPU user %")).toEqual(resized);

  // The link is the view: Share gives it (here with the time range locked to the minutes
  // shown), and a new tab shows the same variable, comparison, panels and layout.
  await expect(page.getByRole("button", { name: "Edit", exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Share", exact: true }).click();
  const share = page.getByRole("dialog", { name: /^Share “/ });
  await expect(share.getByTestId("share-link")).toBeFocused();
  await share.getByLabel("Lock the time range").check();
  const link = await share.getByTestId("share-link").inputValue();
  expect(link).toMatch(/var-host=beta/);
  expect(link).toMatch(/compare=1d/);
  expect(new URL(link).searchParams.get("from")).toMatch(/^\d{13}$/);
  expect(new URL(link).searchParams.get("to")).toMatch(/^\d{13}$/);
  await share.getByRole("button", { name: "Done" }).click();
  await expect(share).toBeHidden();
  // A colleague opening it signs in first and lands on the same view.
  const colleague = await browser.newContext();
  const shared = await colleague.newPage();
  await shared.goto(link);
  await new LoginPage(shared).signIn(own.email, own.password);
  await expect(shared).toHaveURL(link);
  const sharedDash = new DashboardPage(shared);
  await expect(shared.getByTestId(testIds.variable("host"))).toHaveValues(["beta"]);
  await expect(shared.getByTestId(testIds.timeShift)).toHaveValue("1d");
  await expect(sharedDash.chartOf("CPU user %")).toHaveAttribute("data-series-count", "2");
  await expect(sharedDash.panel("Beta CPU now").getByTestId(testIds.statItem)).toHaveText(/14%/);
  expect(await sharedDash.gridPos("CPU user %")).toEqual(resized);
  await shared.screenshot({ path: testInfo.outputPath("dashboard-shared.png"), fullPage: true });
  await colleague.close();
});

test("keyboard layout editing, unsaved-state and a save that would overwrite someone else's", async ({ page, request }) => {
  const own = await createOwnWorkspace(request, "dashconflict");
  const { dash, dashboardId } = await signInAndCreateDashboard(page, own, "Shared");

  // Arrow keys on the move handle move the panel; Shift + arrows resize it.
  await dash.startEditing();
  const handle = page.getByRole("button", { name: /^Move CPU user %/ });
  await handle.focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("Shift+ArrowDown");
  await expect.poll(() => dash.gridPos("CPU user %")).toEqual({ x: 2, y: 0, w: 12, h: 9 });
  await expect(dash.saveState).toHaveText("Unsaved changes");
  await page.getByRole("button", { name: "Discard" }).click();
  await expect(dash.saveState).toHaveText("Saved · v1");
  expect(await dash.gridPos("CPU user %")).toEqual({ x: 0, y: 0, w: 12, h: 8 });

  // Someone else saves meanwhile: our save is refused, then replaces theirs when confirmed.
  await handle.focus();
  await page.keyboard.press("ArrowRight");
  const theirs = await request.patch(`/api/v1/workspaces/${own.workspaceId}/dashboards/${dashboardId}`, {
    headers: { Authorization: `Bearer ${own.token}` },
    data: { title: "Renamed elsewhere" },
  });
  expect(theirs.status()).toBe(200);
  await page.getByTestId(testIds.saveDashboard).click();
  await expect(page.getByRole("alert")).toContainText("Someone saved this dashboard meanwhile");
  await page.getByRole("button", { name: "Save anyway" }).click();
  await expect(dash.saveState).toHaveText("Saved · v3");
  expect(await dash.gridPos("CPU user %")).toMatchObject({ x: 1 });
});

test("Explore shows the same stat view: the last value of each series with a sparkline", async ({ page, request }) => {
  const own = await createOwnWorkspace(request, "explorestat");
  expect(await pushLines(request, own.ingestKey, `${cpuLines("alpha", 5)}\n${cpuLines("beta", 3)}`)).toBe(204);
  await new LoginPage(page).goto();
  await new LoginPage(page).signIn(own.email, own.password);
  const query = "M::cpu:(avg(usage_user)) [15m::1m] BY host";
  const stats = page.getByRole("group", { name: `Last values of ${query}` }).getByTestId(testIds.statItem);
  await expect(async () => {
    await page.goto(`/w/${own.workspaceId}/explore?${new URLSearchParams({ q: query, view: "stat" }).toString()}`);
    await expect(stats).toHaveCount(2, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.getByRole("radio", { name: "Stat" })).toBeChecked();
  // alpha: 10 … 14, beta: 10 … 12.
  // each tile reads as the series' name, then its value
  await expect(stats.nth(0)).toHaveText(/^alpha\s*14$/);
  await expect(stats.nth(1)).toHaveText(/^beta\s*12$/);
  await expect(stats.getByTestId(testIds.statSparkline)).toHaveCount(2);
});

test("dashboard settings: a variable made in the UI filters a panel, and the saved default comparison opens with it", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const { own, dashboardId, dash } = await newHostsDashboard(page, request, "dashvars", "Fleet");

  // Viewing, there are no settings; in edit mode they open above the variable bar.
  await expect(page.getByRole("button", { name: "Settings", exact: true })).toHaveCount(0);
  await dash.startEditing();
  const settings = await dash.openSettings();
  await expect(settings.getByTestId(testIds.variableRow)).toHaveCount(1);

  // A new variable: the measurement and tag key are suggested, the preview lists the values.
  await settings.getByRole("button", { name: "Add variable" }).click();
  const form = settings.getByRole("form", { name: "New variable" });
  await form.getByLabel("Name").fill("server name");
  await expect(form.getByText("A name starts with a letter or _")).toBeVisible();
  await form.getByLabel("Name").fill("server");
  await form.getByLabel("Label").fill("Server");
  const suggestions = (label: string): Promise<string[]> =>
    form.getByLabel(label).evaluate((input) =>
      [...((input as HTMLInputElement).list?.options ?? [])].map((o) => o.value),
    );
  await expect.poll(() => suggestions("Measurement")).toContain("cpu");
  await form.getByLabel("Measurement").fill("cpu");
  await expect.poll(() => suggestions("Tag key")).toEqual(["host"]);
  await form.getByLabel("Tag key").fill("host");
  await expect(form.getByTestId(testIds.variablePreview).getByRole("listitem")).toHaveText(["alpha", "beta"]);
  await form.getByLabel("Default value").selectOption("beta");
  await page.screenshot({ path: testInfo.outputPath("dashboard-settings.png"), fullPage: true });
  await form.getByRole("button", { name: "Add" }).click();
  await expect(form).toBeHidden();

  // The variable bar has it at once; moving it up puts it first; the old one can go.
  const bar = page.getByRole("group", { name: "Variables" });
  await expect(page.getByTestId(testIds.variable("server"))).toHaveValue("beta");
  await settings.getByRole("button", { name: "Move variable server up" }).click();
  await expect(bar).toHaveText(/^Server.*Host/);

  // A panel query uses it.
  await page.getByRole("button", { name: "Edit CPU user %" }).click();
  await dash.editor.getByTestId(testIds.dqlEditor).click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("M::cpu:(avg(usage_user)) {host = '$server'} [15m::1m] BY host");
  await dash.editor.getByRole("button", { name: "Apply" }).click();
  await expect(dash.editor).toBeHidden();
  await expect(dash.chartOf("CPU user %")).toHaveAttribute("data-series-count", "1");
  await settings.getByRole("button", { name: "Remove variable host" }).click();
  await expect(page.getByTestId(testIds.variable("host"))).toHaveCount(0);

  // The comparison the dashboard opens with applies at once, without touching the URL.
  await settings.getByTestId(testIds.defaultTimeShift).selectOption("1d");
  await expect(page.getByTestId(testIds.timeShift)).toHaveValue("1d");
  await expect(dash.chartOf("CPU user %")).toHaveAttribute("data-series-count", "2");
  expect(page.url()).not.toMatch(/compare=/);
  await page.getByLabel("Version note").fill("server variable, compare with yesterday");
  await dash.save();
  await expect(dash.saveState).toHaveText("Saved · v2");
  await page.getByRole("button", { name: "History" }).click();
  const history = page.getByRole("dialog", { name: "Version history" });
  await expect(history.getByTestId(testIds.versionRow).first()).toContainText("server variable, compare with yesterday");
  await page.keyboard.press("Escape");
  await expect(history).toBeHidden();

  const res = await request.get(`/api/v1/workspaces/${own.workspaceId}/dashboards/${dashboardId}`, {
    headers: { Authorization: `Bearer ${own.token}` },
  });
  const saved = (await res.json()) as { spec: { time_shift: string | null; variables: Record<string, unknown>[] } };
  expect(saved.spec.time_shift).toBe("1d");
  expect(saved.spec.variables).toEqual([
    {
      name: "server",
      label: "Server",
      language: "dql",
      regex: null,
      type: "query",
      query: "show_tag_value(from=['cpu'], keyin=['host'])",
      options: [],
      default: ["beta"],
      multi: false,
      include_all: false,
    },
  ]);

  // Reopened without parameters: the variable, its default and the saved comparison.
  await dash.goto(own.workspaceId, dashboardId);
  await expect(page.getByTestId(testIds.variable("server"))).toHaveValue("beta");
  await expect(page.getByTestId(testIds.timeShift)).toHaveValue("1d");
  await expect(dash.chartOf("CPU user %")).toHaveAttribute("data-series-count", "2");

  // The link can switch the comparison off, or choose another; the saved default stays.
  await page.getByTestId(testIds.timeShift).selectOption("");
  await expect(page).toHaveURL(/compare=off/);
  await expect(dash.chartOf("CPU user %")).toHaveAttribute("data-series-count", "1");
  await page.reload();
  await expect(page.getByTestId(testIds.timeShift)).toHaveValue("");
  await expect(dash.chartOf("CPU user %")).toHaveAttribute("data-series-count", "1");
  await dash.goto(own.workspaceId, dashboardId, "compare=1w");
  await expect(page.getByTestId(testIds.timeShift)).toHaveValue("1w");
  await page.getByTestId(testIds.timeShift).selectOption("1d");
  await expect(page).not.toHaveURL(/compare=/);
  await expect(dash.chartOf("CPU user %")).toHaveAttribute("data-series-count", "2");
});
