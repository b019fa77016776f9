import { fileURLToPath } from "node:url";
import { expect, test, type Page } from "@playwright/test";
import { createOwnWorkspace, type OwnWorkspace } from "../fixtures/api";
import { nodeExporterSeries, pushRemoteWrite } from "../fixtures/remoteWrite";
import { DashboardPage } from "../pages/DashboardPage";
import { ExplorePage } from "../pages/ExplorePage";
import { LoginPage } from "../pages/LoginPage";
import { chartAttrs, testIds } from "../selectors";

const NODE_EXPORTER_FULL = fileURLToPath(new URL("../../backend/tests/fixtures/grafana/node-exporter-full.json", import.meta.url));
const HOSTS = ["node-a:9100", "node-b:9100"];
const BUSY = 'sum by (instance) (rate(node_cpu_seconds_total{mode!="idle"}[$__rate_interval]))';

/** The names of the series the chart's legend lists, in order. */
async function legendNames(page: Page): Promise<string[]> {
  return page.getByRole("list", { name: /legend$/ }).getByRole("button").allTextContents();
}

test.describe("Grafana dashboards in Vigil: PromQL panels and imports", () => {
  let own: OwnWorkspace;

  test.beforeEach(async ({ page, request }) => {
    own = await createOwnWorkspace(request, "grafana");
    expect(await pushRemoteWrite(request, own.ingestKey, nodeExporterSeries(HOSTS))).toBe(204);
    const login = new LoginPage(page);
    await login.goto();
    await login.signIn(own.email, own.password);
  });

  test("Explore runs PromQL with completion and legends, and adds it to a dashboard panel", async ({ page, request }, testInfo) => {
    test.setTimeout(120_000);
    const explore = new ExplorePage(page);
    await explore.gotoSearch(own.workspaceId, [["q", ""]]);
    await page.getByLabel("Language", { exact: true }).selectOption("PromQL");
    const editor = page.getByLabel("PromQL query", { exact: true });
    await editor.click();

    // completion from the workspace's own metric names (the Prometheus label endpoints)
    await page.keyboard.insertText("node_lo");
    await page.keyboard.press("Control+Space");
    await expect(page.getByRole("option", { name: /node_load5/ })).toBeVisible();
    await page.keyboard.press("Escape");
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.insertText(BUSY);
    await page.keyboard.press("Escape");
    await page.getByLabel("Legend", { exact: true }).fill("busy {{instance}}");

    // The consumer writes asynchronously: run until both hosts are there.
    await expect(async () => {
      await editor.click();
      await page.keyboard.press("Control+Enter");
      await expect(explore.chart).toHaveAttribute(chartAttrs.seriesCount, "2", { timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await expect.poll(() => legendNames(page)).toEqual(HOSTS.map((h) => `busy ${h}`));
    const url = new URL(page.url());
    expect(url.searchParams.get("q")).toBe(BUSY);
    expect(url.searchParams.get("lang")).toBe("promql");
    await expect(explore.chart).toHaveAttribute(chartAttrs.ready, "true");
    await page.screenshot({ path: testInfo.outputPath("explore-promql.png"), fullPage: true });

    // The link reopens PromQL, not DQL.
    await page.reload();
    await expect(page.getByLabel("Language", { exact: true })).toHaveValue("promql");
    await expect(explore.chart).toHaveAttribute(chartAttrs.seriesCount, "2");

    // Add to dashboard: a new dashboard whose panel is the PromQL query, drawn the same.
    await page.getByRole("button", { name: "Add to dashboard" }).click();
    const dialog = page.getByTestId("add-to-dashboard-dialog");
    await dialog.getByLabel("Dashboard", { exact: true }).selectOption({ label: "A new dashboard…" });
    await dialog.getByLabel("New dashboard title").fill("CPU in PromQL");
    await dialog.getByRole("button", { name: "Add panel" }).click();
    await expect(page).toHaveURL(/\/dashboards\/[0-9a-f-]+\?/);
    const dashboardId = new URL(page.url()).pathname.split("/").pop();
    const res = await request.get(`/api/v1/workspaces/${own.workspaceId}/dashboards/${dashboardId}`, {
      headers: { Authorization: `Bearer ${own.token}` },
    });
    expect(res.status()).toBe(200);
    const saved = (await res.json()) as { spec: { panels: { title: string; queries: Record<string, unknown>[] }[] } };
    expect(saved.spec.panels[0].title).toBe("node_cpu_seconds_total");
    expect(saved.spec.panels[0].queries).toEqual([
      expect.objectContaining({ ref_id: "A", language: "promql", query: BUSY, legend_format: "busy {{instance}}" }),
    ]);
    const dash = new DashboardPage(page);
    await expect(dash.chartOf("node_cpu_seconds_total")).toHaveAttribute(chartAttrs.seriesCount, "2");
  });

  test("a Grafana dashboard imported through the UI lists what it left out and draws its panels", async ({ page }, testInfo) => {
    test.setTimeout(150_000);
    await page.goto(`/w/${own.workspaceId}/dashboards`);
    await page.getByRole("button", { name: "Import JSON" }).click();
    const form = page.getByRole("form", { name: "Import dashboard" });
    await form.getByLabel("JSON file").setInputFiles(NODE_EXPORTER_FULL);
    await expect(form.getByTestId("import-grafana")).toContainText("A Grafana dashboard");
    await expect(form.getByLabel("Title", { exact: true })).toHaveValue("Node Exporter Full");
    await form.getByRole("button", { name: "Import" }).click();

    const report = page.getByTestId("grafana-import-report");
    await expect(report.getByRole("heading", { name: "Imported “Node Exporter Full”" })).toBeFocused();
    await expect(report).toContainText("17 panels and 4 variables were carried over from Grafana.");
    const unmapped = report.getByRole("list", { name: "Not carried over" }).getByRole("listitem");
    await expect(unmapped).toHaveCount(7);
    await expect(unmapped).toContainText([
      "Variable Filters: variables of type 'adhoc' are not supported",
      "Panel Uptime: value mappings are not supported: values are shown as numbers",
      "Panel CPU Basic: 2 field override(s) are not supported",
      "Panel CPU Basic: 100% stacking is drawn as normal stacking",
      "Panel Filesystem details: transformations are not supported (organize)",
      "Panel Network packets by device: panel type 'piechart' has no Vigil equivalent",
      "Dashboard Node Exporter Full: 1 dashboard link(s) are not imported",
    ]);
    await page.screenshot({ path: testInfo.outputPath("grafana-import-report.png"), fullPage: true });
    await report.getByRole("button", { name: "Open the dashboard" }).click();
    await expect(page).toHaveURL(/\/dashboards\/[0-9a-f-]{36}/);

    // The variables take their values from label_values(): the job, then its first host.
    await expect(page.getByTestId(testIds.variable("job"))).toHaveValue("node");
    await expect(page.getByTestId(testIds.variable("node"))).toHaveValue(HOSTS[0]);
    const dash = new DashboardPage(page);
    // the four visible queries of CPU Basic, the four of Memory Basic (the fifth is hidden)
    await expect(dash.chartOf("CPU Basic")).toHaveAttribute(chartAttrs.seriesCount, "4");
    await expect.poll(async () => Number(await dash.chartOf("CPU Basic").getAttribute(chartAttrs.pointCount))).toBeGreaterThan(4);
    await expect(dash.chartOf("Memory Basic")).toHaveAttribute(chartAttrs.seriesCount, "4");
    await expect(dash.chartOf("Network Traffic Basic")).toHaveAttribute(chartAttrs.seriesCount, "2");
    // the panel repeated for $cpu (All): one copy per core
    await expect(dash.chartOf("CPU core 0")).toHaveAttribute(chartAttrs.seriesCount, "3");
    await expect(dash.chartOf("CPU core 1")).toHaveAttribute(chartAttrs.seriesCount, "3");
    await expect(dash.panel("CPU Busy").getByRole("meter")).toHaveCount(1);
    await expect(dash.panel("RAM Total")).toContainText("8 GiB");

    // the last half hour, where the pushed data is, for the picture: a page tall enough for
    // the first two rows, every chart drawn
    await page.setViewportSize({ width: 1400, height: 1500 });
    await page.goto(`${page.url().split("?")[0]}?from=now-30m&to=now&var-job=node&var-node=${encodeURIComponent(HOSTS[0])}`);
    for (const title of ["CPU Basic", "Memory Basic", "Network Traffic Basic", "Disk Space Used Basic"]) {
      await expect(dash.chartOf(title)).toHaveAttribute(chartAttrs.ready, "true");
    }
    // a busy CPU between 0 and 100 %, as the counters say (idle 55–60 % of each core)
    await expect(dash.panel("CPU Busy").getByRole("meter")).toHaveAttribute("aria-valuenow", /^(3\d|4\d)(\.\d+)?$/);
    await page.screenshot({ path: testInfo.outputPath("grafana-node-exporter-full.png") });
  });
});
