import { defineConfig, devices } from "@playwright/test";

/**
 * Browser journeys against a running Vigil stack (`make up`). Debian's Chromium is used
 * directly; Playwright's own browser download is not needed.
 */
const baseURL = process.env.VIGIL_BASE_URL ?? "http://127.0.0.1:8000";
const chromium = process.env.VIGIL_CHROMIUM ?? "/usr/bin/chromium";

export default defineConfig({
  testDir: "./tests",
  outputDir: "./test-results",
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [["list"], ["html", { outputFolder: "playwright-report", open: "never" }]],
  use: {
    baseURL,
    screenshot: "on",
    trace: "retain-on-failure",
    video: "off",
    viewport: { width: 1400, height: 900 },
    timezoneId: process.env.VIGIL_E2E_TZ ?? "Europe/Paris",
    launchOptions: {
      executablePath: chromium,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], viewport: { width: 1400, height: 900 } } }],
});
