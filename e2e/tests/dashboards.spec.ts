import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { expectAccessible } from "../fixtures/a11y";
import { cpuLines, createOwnWorkspace, pushLines } from "../fixtures/api";
import { DashboardPage, signInAndCreateDashboard } from "../pages/DashboardPage";
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

test("a panel's menu: the panel alone in the link, its data in tables and as CSV, its query in Explore", async ({
  page,
  request,
}, testInfo) => {
  const own = await createOwnWorkspace(request, "panelmenu");
  expect(await pushLines(request, own.ingestKey, `${cpuLines("alpha", 5)}\n${cpuLines("beta", 5)}`)).toBe(204);
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(own.email, own.password);
  await page.getByRole("link", { name: "Dashboards" }).click();
  await page.getByLabel("New dashboard title").fill("Hosts");
  await page.getByRole("button", { name: "Create dashboard" }).click();
  await expect(page.getByRole("heading", { name: "Hosts" })).toBeVisible();
  const chart = page.getByTestId(testIds.panelChart);
  await expect(async () => {
    await page.reload();
    await expect(chart).toHaveAttribute(chartAttrs.seriesCount, "2", { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  const panel = page.getByTestId("panel");
  const title = (await panel.getByRole("heading").textContent()) ?? "";
  const menuButton = page.getByRole("button", { name: `Menu of ${title}` });

  // View: the panel alone over the page, in a link of its own; Escape brings the dashboard back
  await menuButton.click();
  await page.getByRole("menuitem", { name: "View" }).click();
  await expect(page).toHaveURL(/viewPanel=/);
  await expect(page.getByTestId("panel-view").getByTestId(testIds.panelChart)).toHaveAttribute(chartAttrs.seriesCount, "2");
  await expect(page.getByRole("button", { name: "Back to the dashboard" })).toBeFocused();
  await page.screenshot({ path: testInfo.outputPath("panel-view.png") });
  const viewLink = page.url();
  await page.keyboard.press("Escape");
  await expect(page).not.toHaveURL(/viewPanel=/);
  await expect(page.getByTestId("dashboard-grid")).toBeVisible();
  await page.goto(viewLink);
  await expect(page.getByTestId("panel-view")).toBeVisible();
  await page.getByRole("button", { name: "Back to the dashboard" }).click();
  // the same by keyboard: v on the panel with the focus, v again to go back
  await expect(menuButton).toBeFocused();
  await page.keyboard.press("v");
  await expect(page.getByTestId("panel-view")).toBeVisible();
  await page.keyboard.press("v");
  await expect(page.getByTestId("dashboard-grid")).toBeVisible();

  // Inspect data, by keyboard: the numbers as tables, one per host, and the same as a CSV file
  await menuButton.focus();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("menuitem", { name: "Inspect data" })).toBeFocused();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: `Data of ${title}` });
  await expect(dialog.getByRole("table")).toHaveCount(2);
  await expect(dialog.locator("caption")).toHaveText([/host=alpha/, /host=beta/]);
  await page.screenshot({ path: testInfo.outputPath("panel-inspect.png") });
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    dialog.getByRole("button", { name: "Download CSV" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  const csv = await readFile(await download.path(), "utf8");
  const [header, ...rows] = csv.trim().split("\n");
  expect(header).toMatch(/^series,host,time,/);
  expect(rows.some((r) => r.split(",")[1] === "alpha")).toBe(true);
  expect(rows.some((r) => r.split(",")[1] === "beta")).toBe(true);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(menuButton).toBeFocused();

  // Explore: the panel's query, over the dashboard's time range
  await menuButton.click();
  await page.getByRole("menuitem", { name: "Explore" }).click();
  await expect(page).toHaveURL(/\/explore\?q=/);
  await expect(page.getByRole("heading", { name: "Explore" })).toBeVisible();
  await expect(page.getByTestId(testIds.chart)).toHaveAttribute(chartAttrs.seriesCount, "2");
});

/** vigil-agent style CPU points (`cpu=cpu-total`), `usage_user` = `value` once a minute up to now. */
function cpuTotalLines(host: string, value: number, points = 5, now = Date.now()): string {
  return Array.from({ length: points }, (_, i) => {
    const t = now - (points - 1 - i) * 60_000;
    return `cpu,host=${host},cpu=cpu-total usage_user=${value},usage_system=2,usage_iowait=1 ${t}`;
  }).join("\n");
}

test("Host overview: the Busiest hosts top list ranks hosts as bars, and the dashboard refreshes on its interval", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const own = await createOwnWorkspace(request, "hostoverview");
  const lines = [cpuTotalLines("alpha", 30), cpuTotalLines("beta", 70), cpuTotalLines("gamma", 50)].join("\n");
  expect(await pushLines(request, own.ingestKey, lines)).toBe(204);
  const list = await request.get(`/api/v1/workspaces/${own.workspaceId}/dashboards`, {
    headers: { Authorization: `Bearer ${own.token}` },
  });
  const dashboardId = ((await list.json()) as { data: { id: string; title: string }[] }).data.find(
    (d) => d.title === "Host overview",
  )!.id;

  await new LoginPage(page).goto();
  await new LoginPage(page).signIn(own.email, own.password);
  const dash = new DashboardPage(page);
  // The saved auto refresh (30s) is what the picker shows when the link does not choose one.
  await dash.goto(own.workspaceId, dashboardId);
  await expect(page.getByLabel("Auto refresh")).toHaveValue("30s");
  await expect(page).toHaveTitle(`Host overview · Dashboards · ${own.workspaceName} · Vigil`);

  // Busiest hosts: one bar per host, largest first, values in percent; no line chart.
  const busiest = dash.panel("Busiest hosts (CPU user %)");
  const rows = busiest.getByTestId("toplist-row");
  await expect(async () => {
    await page.reload();
    await expect(rows).toHaveCount(3, { timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  // What it shows is said beside its title, and to screen readers as its description.
  await expect(busiest).toHaveAccessibleDescription(/the ten with the highest average CPU user time/);
  await busiest.getByRole("button", { name: "About Busiest hosts (CPU user %)" }).click();
  await expect(busiest.locator(".panel-description-text")).toContainText("whatever the Host variable says");
  await page.keyboard.press("Escape");
  await expect(busiest.locator(".panel-description-text")).toHaveCount(0);
  await expect(rows).toHaveText([/^beta\s*70%$/, /^gamma\s*50%$/, /^alpha\s*30%$/]);
  await expect(busiest.getByTestId(testIds.panelChart)).toHaveCount(0);
  const widths = await busiest
    .getByTestId("toplist-bar")
    .evaluateAll((bars) => bars.map((b) => Math.round(b.getBoundingClientRect().width)));
  expect(widths[0]).toBeGreaterThan(widths[1]);
  expect(widths[1]).toBeGreaterThan(widths[2]);
  expect(widths[2]).toBeGreaterThan(0);
  await busiest.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("host-overview-toplist.png"), fullPage: true });

  // With refresh=10s every panel asks again, together, about every 10 seconds.
  const sent: number[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && r.url().includes(`/workspaces/${own.workspaceId}/query/raw`)) sent.push(Date.now());
  });
  await dash.goto(own.workspaceId, dashboardId, "refresh=10s");
  await expect(page.getByLabel("Auto refresh")).toHaveValue("10s");
  await expect(rows).toHaveCount(3);
  await expect.poll(() => sent.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
  const opened = sent.length;
  await expect.poll(() => sent.length, { timeout: 25_000, intervals: [1_000] }).toBeGreaterThanOrEqual(opened + 2);
  // one batch per refresh, not one request per panel
  expect(sent.length - opened).toBeLessThanOrEqual(4);

  // The Refresh button asks now; `off` in the link stops the clock over the saved 30s.
  const before = sent.length;
  await page.getByRole("button", { name: "Refresh", exact: true }).click();
  await expect.poll(() => sent.length).toBeGreaterThan(before);
  await page.getByLabel("Auto refresh").selectOption("Off");
  await expect(page).toHaveURL(/refresh=off/);
});

test("a variable value from the link that is not among the options is shown as it is", async ({ page, request }) => {
  const own = await createOwnWorkspace(request, "varzzz");
  expect(await pushLines(request, own.ingestKey, `${cpuLines("alpha", 3)}\n${cpuLines("beta", 3)}`)).toBe(204);
  await signInAndCreateDashboard(page, own, "Hosts");
  const host = page.getByTestId(testIds.variable("host"));
  await expect(async () => {
    await page.goto(`${page.url().split("?")[0]}?var-host=zzz`);
    await expect(host.getByRole("option", { name: "beta" })).toHaveCount(1, { timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await expect(host).toHaveValues(["zzz"]);
  await expect(host.getByRole("option", { name: "zzz (no such value)" })).toHaveCount(1);
});

test("a heatmap panel: chosen in the panel editor, saved, one row per host, readable in light and dark", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const own = await createOwnWorkspace(request, "heatmap");
  // three hosts, 10 minutes each, at different levels: alpha 10–19, beta 40–49, gamma 70–79
  const lines = [cpuLines("alpha", 10), cpuLines("beta", 10), cpuLines("gamma", 10)]
    .map((l, h) => l.replace(/usage_user=(\d+)/g, (_, v: string) => `usage_user=${Number(v) + 30 * h}`))
    .join("\n");
  expect(await pushLines(request, own.ingestKey, lines)).toBe(204);

  const { dash, dashboardId } = await signInAndCreateDashboard(page, own, "Heat");
  await expect(async () => {
    await page.reload();
    await expect(dash.chartOf("CPU user %")).toHaveAttribute(chartAttrs.seriesCount, "3", { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });

  // A new panel keeps its query when it becomes a heatmap; the preview draws one row per host.
  await dash.startEditing();
  await page.getByTestId(testIds.addPanel).click();
  await expect(dash.editor).toBeVisible();
  await dash.editor.getByLabel("Title").fill("CPU by host");
  await dash.editor.getByRole("radio", { name: "Heatmap" }).click();
  await dash.editor.getByLabel("Unit").selectOption("percent");
  await dash.editor.getByLabel("Colours").selectOption("Blues");
  await expect(dash.editor.getByRole("group", { name: "Thresholds" })).toHaveCount(0);
  const preview = dash.editor.getByTestId(testIds.heatmap);
  await expect(preview).toHaveAttribute(chartAttrs.rowCount, "3");
  await expect(preview.getByTestId(testIds.panelChart)).toHaveAttribute(chartAttrs.ready, "true");
  await page.screenshot({ path: testInfo.outputPath("heatmap-editor.png") });
  await dash.editor.getByRole("button", { name: "Apply" }).click();
  await expect(dash.editor).toBeHidden();
  await dash.save();

  const res = await request.get(`/api/v1/workspaces/${own.workspaceId}/dashboards/${dashboardId}`, {
    headers: { Authorization: `Bearer ${own.token}` },
  });
  const saved = (await res.json()) as { spec: { panels: { title: string; type: string; color_scheme?: string; queries: unknown[] }[] } };
  const panel = saved.spec.panels.find((p) => p.title === "CPU by host");
  expect(panel).toMatchObject({ type: "heatmap", color_scheme: "blues", queries: [{ query: expect.stringContaining("BY host") }] });

  // Reopened: rows alpha, beta, gamma (named to screen readers with the range of values),
  // each host's minutes as cells; the line panel beside it is unchanged.
  await page.reload();
  const heatmap = dash.panel("CPU by host").getByTestId(testIds.heatmap);
  const chart = dash.chartOf("CPU by host");
  await expect(heatmap).toHaveAttribute(chartAttrs.rowCount, "3");
  await expect(chart).toHaveAttribute(chartAttrs.ready, "true");
  await expect(chart).toHaveAttribute("aria-label", /^CPU by host heatmap: 3 series, 1\d(\.\d)?% to 79%$/);
  await expect.poll(async () => Number(await chart.getAttribute(chartAttrs.pointCount))).toBeGreaterThanOrEqual(27);
  expect(Number(await chart.getAttribute(chartAttrs.pointCount))).toBeLessThanOrEqual(30);
  await expect(dash.chartOf("CPU user %")).toHaveAttribute(chartAttrs.seriesCount, "3");

  // Pointing at a cell of the middle row names the host and the value in the unit.
  const box = await chart.boundingBox();
  if (!box) throw new Error("the heatmap is not visible");
  await page.mouse.move(box.x + box.width - 60, box.y + box.height / 2);
  await page.mouse.move(box.x + box.width - 50, box.y + box.height / 2 - 20);
  await expect(chart).toContainText(/beta\s*4\d(\.\d)?%/);
  await page.screenshot({ path: testInfo.outputPath("heatmap-light.png"), fullPage: true });

  // The dark theme draws the chart again, in its own colours.
  await page.mouse.move(0, 0);
  await chart.locator("canvas").first().evaluate((c) => c.setAttribute("data-light", ""));
  await page.emulateMedia({ colorScheme: "dark" });
  await expect(chart.locator("canvas[data-light]")).toHaveCount(0);
  await expect(chart).toHaveAttribute(chartAttrs.ready, "true");
  await expect(heatmap).toHaveAttribute(chartAttrs.rowCount, "3");
  await page.screenshot({ path: testInfo.outputPath("heatmap-dark.png"), fullPage: true });
  await page.emulateMedia({ colorScheme: "light" });
});

test("a gauge panel: one dial per host in the panel editor, coloured by thresholds, saved and readable", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(90_000);
  const own = await createOwnWorkspace(request, "gauge");
  // alpha ends at 14, beta at 84: under and over a threshold at 50
  const lines = [cpuLines("alpha", 5), cpuLines("beta", 5).replace(/usage_user=(\d+)/g, (_, v: string) => `usage_user=${Number(v) + 70}`)].join("\n");
  expect(await pushLines(request, own.ingestKey, lines)).toBe(204);
  const { dash, dashboardId } = await signInAndCreateDashboard(page, own, "Dials");
  await expect(async () => {
    await page.reload();
    await expect(dash.chartOf("CPU user %")).toHaveAttribute(chartAttrs.seriesCount, "2", { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });

  await dash.startEditing();
  await page.getByRole("button", { name: "Edit CPU user %" }).click();
  await dash.editor.getByRole("radio", { name: "Gauge" }).click();
  await dash.editor.getByRole("button", { name: "Add threshold" }).click();
  await dash.editor.getByLabel("Value of threshold 1").fill("50");
  await expect(dash.editor.getByRole("meter", { name: "beta" })).toHaveAttribute("aria-valuenow", "84");
  await dash.editor.getByRole("button", { name: "Apply" }).click();
  await dash.save();

  const res = await request.get(`/api/v1/workspaces/${own.workspaceId}/dashboards/${dashboardId}`, {
    headers: { Authorization: `Bearer ${own.token}` },
  });
  const saved = (await res.json()) as { spec: { panels: { type: string; reduce?: string; thresholds?: { value: number }[] }[] } };
  expect(saved.spec.panels[0]).toMatchObject({ type: "gauge", reduce: "last", thresholds: [{ value: 50 }] });

  await page.reload();
  const dials = dash.panel("CPU user %");
  const alpha = dials.getByRole("meter", { name: "alpha" });
  const beta = dials.getByRole("meter", { name: "beta" });
  await expect(alpha).toHaveAttribute("aria-valuetext", "14% (0% to 100%)");
  await expect(beta).toHaveAttribute("aria-valuenow", "84");
  // below the threshold the base colour, above it the threshold's
  await expect(alpha).toHaveAttribute("data-color", "#3ba272");
  expect(await beta.getAttribute("data-color")).not.toBe("#3ba272");
  await page.screenshot({ path: testInfo.outputPath("gauge.png") });
  await expectAccessible(page, "a gauge panel");
});

test("a text panel: Markdown from the panel editor, the variables' values in it, nothing in it runs", async ({
  page,
  request,
}, testInfo) => {
  const own = await createOwnWorkspace(request, "notes");
  const { dash, dashboardId } = await signInAndCreateDashboard(page, own, "On call");

  await dash.startEditing();
  await page.getByTestId(testIds.addPanel).click();
  await expect(dash.editor).toBeVisible();
  await dash.editor.getByLabel("Title").fill("Runbook");
  await dash.editor.getByRole("radio", { name: "Text" }).click();
  await expect(dash.editor.getByLabel("Panel query")).toHaveCount(0);
  await expect(dash.editor.getByLabel("Unit")).toHaveCount(0);
  const markdown = [
    "# Hosts: $host",
    "",
    "1. Check **disk** on each host",
    "2. Page the [database team](https://wiki.example.com/db)",
    "",
    "| host | role |",
    "|---|---|",
    "| alpha | primary |",
    "",
    '<img src="/nothing.png" alt="diagram" onerror="window.__ran = 1">',
    "<script>window.__ran = 2</script>",
    "[not a link](javascript:window.__ran=3)",
  ].join("\n");
  await dash.editor.getByLabel("Text (Markdown)").fill(markdown);
  // the preview draws it, the variable read as All (nothing selected)
  const preview = dash.editor.getByRole("region", { name: "Preview of Runbook" });
  await expect(preview.getByRole("heading", { name: "Hosts: All", level: 3 })).toBeVisible();
  await dash.editor.getByRole("button", { name: "Apply" }).click();
  await expect(dash.editor).toBeHidden();
  await dash.save();

  const res = await request.get(`/api/v1/workspaces/${own.workspaceId}/dashboards/${dashboardId}`, {
    headers: { Authorization: `Bearer ${own.token}` },
  });
  const saved = (await res.json()) as { spec: { panels: Record<string, unknown>[] } };
  const stored = saved.spec.panels.find((p) => p.title === "Runbook");
  expect(stored).toMatchObject({ type: "text", content: markdown });
  expect(stored).not.toHaveProperty("queries");

  // Opened from a link with two hosts: the heading lists them, the list, link and table are
  // there, and nothing from the text ran.
  await dash.goto(own.workspaceId, dashboardId, "var-host=alpha&var-host=beta");
  const panel = dash.panel("Runbook");
  await expect(panel.getByRole("heading", { name: "Hosts: alpha, beta", level: 3 })).toBeVisible();
  await expect(panel.getByRole("listitem")).toHaveText(["Check disk on each host", "Page the database team"]);
  const link = panel.getByRole("link", { name: "database team" });
  await expect(link).toHaveAttribute("target", "_blank");
  await expect(link).toHaveAttribute("rel", "noopener noreferrer");
  await expect(panel.getByRole("cell", { name: "primary" })).toBeVisible();
  await expect(panel.getByRole("img", { name: "diagram" })).toHaveCount(1);
  await expect(panel.getByText("not a link")).toBeVisible();
  await expect(panel.locator('[href^="javascript"], [onerror], script')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __ran?: number }).__ran)).toBeUndefined();
  await page.screenshot({ path: testInfo.outputPath("text-panel.png"), fullPage: true });

  // its menu shows it alone or shares it: there is no data to inspect
  await panel.getByRole("button", { name: "Menu of Runbook" }).click();
  await expect(page.getByRole("menuitem")).toHaveText(["View", "Share"]);
  await page.keyboard.press("Escape");
});

test("a panel of two queries: each series named by its query's legend, a query hidden and shown again", async ({
  page,
  request,
}) => {
  const own = await createOwnWorkspace(request, "legends");
  expect(await pushLines(request, own.ingestKey, [cpuLines("alpha", 5), cpuLines("beta", 5)].join("\n"))).toBe(204);
  const { dash } = await signInAndCreateDashboard(page, own, "Two queries");

  await dash.startEditing();
  await page.getByTestId(testIds.addPanel).click();
  await expect(dash.editor).toBeVisible();
  await dash.editor.getByLabel("Title").fill("User and idle");
  await dash.editor.getByRole("radio", { name: "Stat" }).click();
  await dash.editor.getByLabel("Panel query").click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("M::cpu:(last(usage_user)) BY host");
  await dash.editor.getByLabel("Legend", { exact: true }).fill("user {{host}}");
  await dash.editor.getByRole("button", { name: "Add query" }).click();
  await dash.editor.getByLabel("Panel query B").click();
  await page.keyboard.type("M::cpu:(last(usage_idle)) BY host");
  await dash.editor.getByLabel("Legend of query B").fill("idle {{host}}");

  const preview = dash.editor.getByRole("region", { name: "Preview of User and idle" });
  const names = (region: typeof preview) => region.getByTestId(testIds.statItem);
  await expect(names(preview)).toHaveCount(4);
  for (const name of ["user alpha", "user beta", "idle alpha", "idle beta"]) await expect(preview).toContainText(name);
  // hidden, query B is not drawn, and comes back as it was
  await dash.editor.getByLabel("Hide query B").check();
  await expect(names(preview)).toHaveCount(2);
  await expect(preview).not.toContainText("idle alpha");
  await dash.editor.getByLabel("Hide query B").uncheck();
  await expect(names(preview)).toHaveCount(4);
  await dash.editor.getByRole("button", { name: "Apply" }).click();
  await dash.save();

  await page.reload();
  const panel = dash.panel("User and idle");
  await expect(names(panel)).toHaveCount(4);
  await expect(panel).toContainText("idle beta");
  await expect(panel).toContainText("user alpha");
});
