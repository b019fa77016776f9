import { expect, type Locator, type Page } from "@playwright/test";
import { chartAttrs, testIds } from "../selectors";

export class ExplorePage {
  readonly chart: Locator;

  constructor(private readonly page: Page) {
    this.chart = page.getByTestId(testIds.chart);
  }

  /** Opens Explore in a workspace, optionally with a query and range in the URL. */
  async goto(workspaceId: string, query?: string, from = "now-15m"): Promise<void> {
    const params = new URLSearchParams({ from, to: "now" });
    if (query) params.set("q", query);
    await this.page.goto(`/w/${workspaceId}/explore?${params.toString()}`);
  }

  /** Opens Explore with these search parameters (`q`, `q.B`, `legend.B`, `hide` …) over the last 15 minutes. */
  async gotoSearch(workspaceId: string, params: [string, string][]): Promise<void> {
    const search = new URLSearchParams([["from", "now-15m"], ["to", "now"], ...params]);
    await this.page.goto(`/w/${workspaceId}/explore?${search.toString()}`);
  }

  async run(): Promise<void> {
    await this.page.getByTestId(testIds.runQuery).click();
  }

  /** Waits until the chart holds at least one series with at least `minPoints` points. */
  async expectChartWithData(minPoints = 1): Promise<void> {
    await expect(this.chart).toBeVisible();
    await expect
      .poll(async () => Number(await this.chart.getAttribute(chartAttrs.seriesCount)))
      .toBeGreaterThanOrEqual(1);
    await expect
      .poll(async () => Number(await this.chart.getAttribute(chartAttrs.pointCount)))
      .toBeGreaterThanOrEqual(minPoints);
  }
}
