import { readFile } from "node:fs/promises";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { cpuLines, createOwnWorkspace, pushLines, type OwnWorkspace } from "../fixtures/api";
import { uniqueSuffix } from "../fixtures/env";
import { linkFromMail, waitForMail } from "../fixtures/mail";
import { ConfirmDialog } from "../pages/ConfirmDialog";
import { ExplorePage } from "../pages/ExplorePage";
import { LoginPage } from "../pages/LoginPage";
import { testIds } from "../selectors";

/** Records every Content-Security-Policy violation the page reports, from its first script on. */
async function watchCsp(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" && /Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      const w = window as unknown as { __csp?: string[] };
      (w.__csp ??= []).push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  return violations;
}

async function cspReported(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []);
}

async function createDashboard(request: APIRequestContext, own: OwnWorkspace, spec: unknown): Promise<string> {
  const res = await request.post(`/api/v1/workspaces/${own.workspaceId}/dashboards`, {
    headers: { Authorization: `Bearer ${own.token}` },
    data: { title: `Security ${uniqueSuffix()}`, spec },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

test("every answer carries the security headers, and the UI runs under its CSP without one violation", async ({
  page,
  request,
}) => {
  test.slow(); // it walks through many pages
  const own = await createOwnWorkspace(request, "csp");
  expect(await pushLines(request, own.ingestKey, cpuLines("alpha", 5))).toBe(204);
  const violations = await watchCsp(page);

  const login = await page.goto("/login");
  const headers = login?.headers() ?? {};
  const csp = headers["content-security-policy"] ?? "";
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("script-src 'self';");
  expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("no-referrer");
  expect(headers["x-frame-options"]).toBe("DENY");
  // the API's answers too
  const api = await request.get("/api/v1/auth/me");
  expect(api.headers()["x-content-type-options"]).toBe("nosniff");
  expect(api.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");

  // The policy is enforced, and the watch sees it: an injected inline script does not run.
  await page.addScriptTag({ content: "window.__inlineRan = true" }).catch(() => undefined);
  expect(await page.evaluate(() => (window as unknown as { __inlineRan?: boolean }).__inlineRan)).toBeUndefined();
  await expect.poll(() => cspReported(page)).toEqual([expect.stringMatching(/^script-src/)]);
  await expect.poll(() => violations.length).toBe(1);
  violations.length = 0;

  // The pages that do the most: charts (ECharts), the editor (CodeMirror), Markdown, dialogs.
  await page.reload();
  await new LoginPage(page).signIn(own.email, own.password);
  const explore = new ExplorePage(page);
  await explore.goto(own.workspaceId, "M::cpu:(avg(usage_user)) [15m::1m] BY host");
  await expect(async () => {
    await explore.run();
    await expect(page.getByTestId(testIds.chart)).toHaveAttribute("data-series-count", "1", { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  const text = await createDashboard(request, own, {
    schema_version: 1,
    panels: [
      {
        id: "notes",
        type: "text",
        title: "Notes",
        grid: { x: 0, y: 0, w: 12, h: 6 },
        content: "## Runbook\n\n| host | dc |\n|---|---|\n| alpha | eu |\n\n![logo](data:image/gif;base64,R0lGODlhAQABAAAAACw=)",
      },
      { id: "cpu", type: "timeseries", title: "CPU", grid: { x: 12, y: 0, w: 12, h: 6 }, queries: [{ query: "M::cpu:(avg(usage_user)) BY host" }] },
    ],
  });
  await page.goto(`/w/${own.workspaceId}/dashboards/${text}`);
  await expect(page.getByRole("heading", { name: "Runbook" })).toBeVisible();
  await expect(page.locator("[data-ready='true']").first()).toBeVisible();
  for (const path of ["account", "settings/members", "settings/keys", "settings/audit", "dashboards"]) {
    await page.goto(`/w/${own.workspaceId}/${path}`);
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
    expect(await cspReported(page), path).toEqual([]);
  }
  expect(violations).toEqual([]);

  // No other site may frame it (clickjacking): the frame stays empty.
  const framing = await page.context().newPage();
  await framing.setContent(`<iframe id="vigil" src="${new URL("/login", page.url()).href}" width="800" height="600"></iframe>`);
  const frame = framing.frameLocator("#vigil");
  await expect(frame.getByRole("heading", { name: "Sign in" })).toHaveCount(0, { timeout: 5_000 });
  await framing.close();
});

test("a text panel shows crafted variable values as text: no link, no image, the author's links intact", async ({
  page,
  request,
}) => {
  const own = await createOwnWorkspace(request, "markdown");
  // a tag value an agent can send: Markdown for a tracking image
  const crafted = "![t](https://tracker.example/p.gif)";
  expect(await pushLines(request, own.ingestKey, `cpu,host=${crafted} usage_user=1 ${Date.now()}`)).toBe(204);
  const id = await createDashboard(request, own, {
    schema_version: 1,
    variables: [
      { name: "server", type: "query", query: "show_tag_value(from=['cpu'], keyin=['host'])" },
      { name: "host", type: "custom", options: ["web-1"], multi: true },
    ],
    panels: [
      {
        id: "notes",
        type: "text",
        title: "On call",
        grid: { x: 0, y: 0, w: 24, h: 6 },
        content: "Server: $server\n\nHost: $host\n\nSee [the runbook of $host](https://wiki.example.com/runbooks/$host).",
      },
    ],
  });
  await new LoginPage(page).goto();
  await new LoginPage(page).signIn(own.email, own.password);
  // a link someone sends: its var-host is a phishing link and an image
  const phishing = "[Your session expired, sign in again](https://evil.example/login)";
  const pixel = '<img src="https://tracker.example/q.gif">';
  const search = new URLSearchParams([
    ["var-host", phishing],
    ["var-host", pixel],
  ]);
  await page.goto(`/w/${own.workspaceId}/dashboards/${id}?${search}`);
  const panel = page.getByRole("region", { name: "On call" });
  await expect(panel).toContainText(`Host: ${phishing}, ${pixel}`);
  // the agent's tag value, once the variable has its values
  await expect(async () => {
    await page.reload();
    await expect(panel).toContainText(`Server: ${crafted}`, { timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await expect(panel.locator("img")).toHaveCount(0);
  const links = panel.getByRole("link");
  await expect(links).toHaveCount(1);
  const href = (await links.first().getAttribute("href")) ?? "";
  expect(new URL(href).origin).toBe("https://wiki.example.com");
  expect(href).not.toContain("evil.example/login");
  await expect(links.first()).toHaveText(`the runbook of ${phishing}, ${pixel}`);
});

test("CSV downloads neutralise cells a spreadsheet would run as formulas", async ({ page, request }) => {
  const own = await createOwnWorkspace(request, "csv");
  // a tag value that is a formula: Excel would call the attacker's server with the sheet's data
  const now = Date.now();
  expect(await pushLines(request, own.ingestKey, `cpu,host=\\=1+2 usage_user=-5 ${now}\ncpu,host=@SUM(A1) usage_user=3 ${now}`)).toBe(204);
  await new LoginPage(page).goto();
  await new LoginPage(page).signIn(own.email, own.password);
  const explore = new ExplorePage(page);
  await explore.goto(own.workspaceId, "M::cpu:(usage_user) [15m] BY host");
  await page.getByRole("radio", { name: "Table" }).click();
  await expect(async () => {
    await explore.run();
    await expect(page.getByTestId(testIds.resultTable).locator("tbody tr")).toHaveCount(2, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("result-csv").click()]);
  const csv = await readFile((await download.path()) ?? "", "utf8");
  const rows = csv.trim().split("\n").slice(1).map((line) => line.split(","));
  const cells = rows.flat();
  expect(cells).toContain("'=1+2");
  expect(cells).toContain("'@SUM(A1)");
  // numbers stay numbers
  expect(cells).toContain("-5");
  expect(cells.some((c) => /^[=+@]/.test(c))).toBe(false);
});

test("a forgotten password is reset by email, and the account's sessions are listed and ended", async ({
  page,
  request,
  browser,
}, testInfo) => {
  const own = await createOwnWorkspace(request, "reset");
  // Signing up with an address that has an account tells nothing more than a new one would.
  const taken = await request.post("/api/v1/auth/signup", { data: { email: own.email } });
  const fresh = await request.post("/api/v1/auth/signup", { data: { email: `e2e-new-${uniqueSuffix()}@example.com` } });
  expect(taken.status()).toBe(202);
  expect(fresh.status()).toBe(202);
  await waitForMail(request, own.email, "You already have a Vigil account");

  // Another browser is signed in: the reset ends its session.
  const elsewhere = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
  const other = await elsewhere.newPage();
  await new LoginPage(other).goto();
  await new LoginPage(other).signIn(own.email, own.password);

  await new LoginPage(page).goto();
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await page.getByLabel("Email").fill(own.email);
  await page.getByRole("button", { name: "Email me a link" }).click();
  await expect(page.getByTestId("reset-sent")).toContainText("Check your inbox");
  const link = await linkFromMail(request, own.email, "/reset-password");
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  await expect(page).toHaveURL(/\/reset-password$/);
  const newPassword = `marmalade quokka ${uniqueSuffix()}`;
  await page.getByLabel("New password", { exact: true }).fill(newPassword);
  await page.getByLabel("New password again").fill(newPassword);
  await page.getByRole("button", { name: "Set password and sign in" }).click();
  await expect(page.getByTestId(testIds.workspacePicker)).toBeVisible();
  await waitForMail(request, own.email, "Your Vigil password was changed");
  // the old password no longer works; the other browser was signed out
  expect((await request.post("/api/v1/auth/login", { data: { email: own.email, password: own.password } })).status()).toBe(401);
  await other.goto(`/w/${own.workspaceId}/dashboards`);
  await expect(other).toHaveURL(/\/login/);

  // A new sign-in elsewhere shows up in the sessions, and is signed out from here.
  await new LoginPage(other).signIn(own.email, newPassword);
  await page.getByTestId(testIds.userEmail).click();
  const sessions = page.getByTestId("sessions-table");
  await expect(sessions.getByRole("row")).toHaveCount(3); // header + 2 sessions
  await expect(sessions.getByText("this browser")).toHaveCount(1);
  await page.screenshot({ path: testInfo.outputPath("account-sessions.png"), fullPage: true });
  await page.getByRole("button", { name: "Sign out other sessions" }).click();
  await new ConfirmDialog(page).confirm("Sign out every other session?", "Sign out others");
  await expect(page.getByTestId("sessions-ended")).toHaveText("1 other session was signed out.");
  await expect(sessions.getByRole("row")).toHaveCount(2);
  await other.goto(`/w/${own.workspaceId}/dashboards`);
  await expect(other).toHaveURL(/\/login/);
  await elsewhere.close();

  // The security log says what happened.
  const log = page.getByTestId("security-log-table");
  await expect(log).toContainText("Every other session was signed out");
  await expect(log).toContainText("Password reset from an emailed link");
  await expect(log).toContainText("Someone asked to create an account with your address");
});
