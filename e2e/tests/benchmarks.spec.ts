import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { createOwnWorkspace } from "../fixtures/api";
import { benchmarkFixture, uploadBenchmarkRun } from "../fixtures/benchmarks";
import { ConfirmDialog } from "../pages/ConfirmDialog";
import { LoginPage } from "../pages/LoginPage";
import { chartAttrs, testIds } from "../selectors";

const RUN_1 = "20261121T060800Z-all";
const RUN_2 = "small-all-final";

async function chartSeries(page: Page, title: string): Promise<number> {
  const figure = page.getByTestId(testIds.benchFigure).filter({ has: page.getByText(title, { exact: true }) });
  const chart = figure.getByTestId(testIds.benchChart);
  await expect(chart).toHaveAttribute("data-ready", "true");
  return Number(await chart.getAttribute(chartAttrs.seriesCount));
}

test("an uploaded benchmark run is listed, reported, compared, exported and deleted", async ({ page, request }, testInfo) => {
  const own = await createOwnWorkspace(request, "bench");
  const first = await uploadBenchmarkRun(request, own.token, own.workspaceId, "benchmark-run-small-1.json");
  const second = await uploadBenchmarkRun(request, own.token, own.workspaceId, "benchmark-run-small-2.json");
  expect(first.run_id).toBe(RUN_1);

  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(own.email, own.password);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Benchmarks" }).click();

  // The list: newest first, with each scenario's headline ratio.
  const table = page.getByTestId(testIds.benchmarksTable);
  await expect(table.getByRole("link")).toHaveText([RUN_2, RUN_1]);
  const row1 = table.getByRole("row").filter({ has: page.getByRole("link", { name: RUN_1 }) });
  await expect(row1).toContainText("1 · write-cost");
  await expect(row1).toContainText("vigil-storage 1.94× influxdb");
  await expect(row1).toContainText("vigil, vigil-storage, victoriametrics, influxdb, postgres");
  await page.getByLabel("Scenario").selectOption("write-cost");
  await expect(page).toHaveURL(/scenario=write-cost/);
  await expect(table.getByRole("link")).toHaveText([RUN_2, RUN_1]);
  await page.screenshot({ path: testInfo.outputPath("benchmarks-list.png"), fullPage: true });

  // The report of the first run, scenario 1: table of figures with ratios to the reference.
  await page.getByRole("link", { name: RUN_1 }).click();
  await expect(page.getByRole("heading", { name: `Benchmark run ${RUN_1}` })).toBeVisible();
  await expect(page.getByRole("tab", { name: "1 · write-cost" })).toHaveAttribute("aria-selected", "true");
  const summary = page.getByTestId(testIds.summaryTable);
  await expect(summary.getByRole("columnheader")).toHaveText([
    "Metric",
    "vigil",
    "vigil-storage (reference)",
    "victoriametrics",
    "influxdb",
    "postgres",
  ]);
  const cpuRow = summary.getByRole("row").filter({ has: page.getByRole("rowheader", { name: /cpu percent/ }) });
  // influxdb used 1.7 % of a core against vigil-storage's 3.29 %
  await expect(cpuRow.getByRole("cell").nth(3)).toHaveText("1.7 %0.52×");
  await page.getByTestId(testIds.referenceSelect).selectOption("influxdb");
  await expect(page).toHaveURL(/ref=influxdb/);
  await expect(summary.getByRole("columnheader", { name: "influxdb (reference)" })).toBeVisible();
  await expect(cpuRow.getByRole("cell").nth(1)).toHaveText("3.29 %1.94×");

  // Plots: CPU stacked by process (gateway, kafka, consumer, storage, and one server each).
  expect(await chartSeries(page, "cpu percent")).toBe(5);
  expect(await chartSeries(page, "CPU % over time")).toBe(5);
  const environment = page.getByTestId(testIds.benchEnvironment);
  await expect(environment).toContainText("AMD EPYC");
  await expect(environment.getByRole("definition").filter({ hasText: /^2\.36$/ })).toBeVisible();
  await expect(environment).toContainText("InfluxDB v1.8.10");
  await expect(environment).toContainText("vigil-bench all --small");
  await expect(page.getByTestId(testIds.benchNotes)).toContainText("generators:");
  await page.screenshot({ path: testInfo.outputPath("benchmark-write-cost.png"), fullPage: true });

  // Scenario 5: lines over the batch size, one per system.
  await page.getByRole("tab", { name: "5 · batch-size" }).click();
  await expect(page.getByRole("heading", { name: /Batch-size sweep/ })).toBeVisible();
  expect(await chartSeries(page, "rows per second")).toBe(5);
  await expect(summary.getByRole("columnheader", { name: "batch rows" })).toBeVisible();

  // Compare with the other run of the same scenario: figures side by side, with the change.
  await page.getByLabel("Other run of batch-size").selectOption(second.id);
  await expect(page).toHaveURL(new RegExp(`compare=${second.id}`));
  const compare = page.getByTestId(testIds.compareTable);
  await expect(compare.getByRole("row").nth(1)).toContainText("rows per second");
  await expect(compare.getByRole("cell", { name: /^[+−±]\d/ }).first()).toBeVisible();
  await expect(page.getByTestId(testIds.compareChart)).toHaveCount(2);
  await page.screenshot({ path: testInfo.outputPath("benchmark-compare.png"), fullPage: true });

  // Scenario 6 keeps the comparison per scenario.
  await page.getByRole("tab", { name: "6 · concurrency" }).click();
  expect(await chartSeries(page, "ops per second — aggregate")).toBe(4);
  await page.screenshot({ path: testInfo.outputPath("benchmark-concurrency.png"), fullPage: true });

  // Exports come from the backend: the text `vigil-bench export` wrote for the same document.
  const csvDownload = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  const csv = await csvDownload;
  expect(csv.suggestedFilename()).toBe(`${RUN_1}.csv`);
  expect(readFileSync(await csv.path(), "utf8")).toBe(benchmarkFixture("benchmark-run-small-1.csv"));
  const mdDownload = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export Markdown" }).click();
  const md = await mdDownload;
  expect(md.suggestedFilename()).toBe(`${RUN_1}.md`);
  expect(readFileSync(await md.path(), "utf8")).toBe(benchmarkFixture("benchmark-run-small-1.md"));

  // Delete asks first; the run leaves the list.
  await page.getByRole("button", { name: "Delete" }).click();
  await new ConfirmDialog(page).confirm(`Delete benchmark run "${RUN_1}"?`, "Delete");
  await expect(page).toHaveURL(new RegExp(`/w/${own.workspaceId}/benchmarks$`));
  await expect(table.getByRole("link")).toHaveText([RUN_2]);
  const gone = await request.get(`/api/v1/workspaces/${own.workspaceId}/benchmarks/${first.id}`, {
    headers: { Authorization: `Bearer ${own.token}` },
  });
  expect(gone.status()).toBe(404);
});

test("a malformed document is refused with the reason, and the empty list says how to upload", async ({ page, request }) => {
  const own = await createOwnWorkspace(request, "bench-empty");
  const doc = JSON.parse(benchmarkFixture("benchmark-run-small-1.json")) as { schema_version: number };
  doc.schema_version = 2;
  const res = await request.post(`/api/v1/workspaces/${own.workspaceId}/benchmarks`, {
    headers: { Authorization: `Bearer ${own.token}` },
    data: doc,
  });
  expect(res.status()).toBe(422);
  expect((await res.json()).detail).toContain("unsupported schema_version 2");

  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(own.email, own.password);
  await page.goto(`/w/${own.workspaceId}/benchmarks`);
  await expect(page.getByTestId(testIds.benchmarksEmpty)).toContainText(`--workspace ${own.workspaceId}`);
  await page.goto(`/w/${own.workspaceId}/benchmarks/00000000-0000-0000-0000-000000000000`);
  await expect(page.getByRole("alert")).toContainText("Benchmark run not found");
});
