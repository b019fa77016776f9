import { expect, test, type APIRequestContext } from "@playwright/test";
import { apiToken, cpuLines, createOwnWorkspace, pushLines } from "../fixtures/api";
import { expectAccessible } from "../fixtures/a11y";
import { operatorCredentials, uniqueSuffix } from "../fixtures/env";
import { ConfirmDialog } from "../pages/ConfirmDialog";
import { LoginPage } from "../pages/LoginPage";
import { SettingsPage } from "../pages/SettingsPage";

/** A DQL query of `workspaceId` as its owner; the HTTP status and the body's `code`. */
async function ownerQuery(request: APIRequestContext, token: string, workspaceId: string): Promise<[number, string]> {
  const res = await request.post(`/api/v1/workspaces/${workspaceId}/query/raw`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { queries: [{ query: "M::cpu:(avg(usage_user)) [15m]" }] },
  });
  const body = (await res.json()) as { code?: string };
  return [res.status(), body.code ?? ""];
}

test("an operator moves a workspace to a smaller plan, suspends and resumes it; its owner cannot go above the plan", async ({
  page,
  browser,
  request,
}, testInfo) => {
  // a long journey: two browsers, and the gateway's key cache to wait out twice
  test.setTimeout(180_000);
  const own = await createOwnWorkspace(request, "operated");
  expect(await pushLines(request, own.ingestKey, cpuLines(`e2e-${uniqueSuffix()}`, 3))).toBe(204);
  const operator = operatorCredentials();
  const planName = `e2e small ${uniqueSuffix()}`;
  const confirmation = new ConfirmDialog(page);

  // The operator signs in and lands in the Operator area: totals, top workspaces, health.
  const login = new LoginPage(page);
  await login.goto();
  await login.signInAsOperator(operator.email, operator.password);
  await expect(page.getByRole("heading", { name: "Platform overview", level: 1 })).toBeVisible();
  const health = page.getByTestId("platform-health");
  for (const component of ["postgres", "kafka", "storage", "gateway", "consumer"]) {
    await expect(health.getByRole("row", { name: new RegExp(`^${component}`) })).toBeVisible();
  }
  await expect(page.getByTestId("operator-totals")).toContainText("Workspaces");
  await page.screenshot({ path: testInfo.outputPath("operator-overview.png"), fullPage: true });

  // A smaller plan, made in the UI from a copy of the default.
  await page.getByRole("navigation", { name: "Operator" }).getByRole("link", { name: "Plans" }).click();
  await page.getByRole("button", { name: "New plan" }).click();
  const form = page.getByRole("dialog", { name: "New plan" });
  await form.getByLabel("Name", { exact: true }).fill(planName);
  await form.getByLabel("Ingest rate", { exact: true }).fill("1,000");
  await form.getByLabel("Retention", { exact: true }).fill("7");
  await form.getByRole("button", { name: "Create plan" }).click();
  await expect(page.getByTestId("plans-saved")).toHaveText(`The plan ${planName} was created.`);
  await expect(page.getByRole("row", { name: new RegExp(planName) })).toContainText("1,000 points/s");

  // The workspace, found by its owner's email, moves to it: the limits above come down.
  await page.getByRole("navigation", { name: "Operator" }).getByRole("link", { name: "Workspaces" }).click();
  await page.getByRole("search").getByLabel("Search").fill(own.email);
  await page.getByRole("search").getByRole("button", { name: "Search" }).click();
  const row = page.getByTestId("operator-workspace").filter({ hasText: own.workspaceName });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(own.email);
  await row.getByRole("combobox", { name: `Plan of ${own.workspaceName}` }).selectOption({ label: planName });
  await confirmation.confirm(`Move ${own.workspaceName} to the plan ${planName}?`, "Change plan");
  await expect(page.getByTestId("operator-outcome")).toHaveText(
    `${own.workspaceName} is on the plan ${planName}. Limits lowered: Ingest rate 100,000 → 1,000 points/s; Retention 30 → 7 days.`,
  );

  // Suspended: the gateway refuses its ingest key (within its 5 s key cache), the query API
  // its owner, and the owner's pages say why.
  await row.getByRole("button", { name: `Suspend ${own.workspaceName}` }).click();
  const suspend = page.getByRole("dialog", { name: `Suspend ${own.workspaceName}?` });
  await suspend.getByLabel("Reason").fill("Payment overdue");
  await suspend.getByRole("button", { name: "Suspend" }).click();
  await expect(row.getByText("suspended", { exact: true })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("operator-suspended.png"), fullPage: true });
  await expect
    .poll(() => pushLines(request, own.ingestKey, cpuLines(`e2e-${uniqueSuffix()}`, 1)), { timeout: 20_000, intervals: [1_000] })
    .toBe(403);
  const ownerToken = await apiToken(request, own.email, own.password);
  expect(await ownerQuery(request, ownerToken, own.workspaceId)).toEqual([403, "workspace_suspended"]);

  const ownerContext = await browser.newContext();
  const ownerPage = await ownerContext.newPage();
  const ownerLogin = new LoginPage(ownerPage);
  await ownerLogin.goto();
  await ownerLogin.signIn(own.email, own.password);
  const settings = new SettingsPage(ownerPage);
  await settings.goto(own.workspaceId, "limits");
  await expect(ownerPage.getByTestId("workspace-suspended")).toContainText("Payment overdue");

  // The owner sees the plan and cannot set a limit above its ceiling: refused before sending.
  await expect(ownerPage.getByTestId("limits-plan")).toContainText(`Plan ${planName}`);
  const rate = settings.limitInput("Ingest rate");
  await expect(rate).toHaveValue("1000");
  await rate.fill("1001");
  await expect(rate).toHaveAccessibleDescription(
    `Ingest rate can be at most 1,000 points/s, the ceiling of the plan ${planName}; a platform operator sets the plan.`,
  );
  await expect(ownerPage.getByRole("button", { name: "Save limits" })).toBeDisabled();
  // …and the API refuses it too.
  const refused = await request.patch(`/api/v1/workspaces/${own.workspaceId}/limits`, {
    headers: { Authorization: `Bearer ${ownerToken}` },
    data: { ingest_points_per_second: 1001 },
  });
  expect(refused.status()).toBe(422);
  expect(((await refused.json()) as { code: string }).code).toBe("plan_ceiling");
  await rate.fill("500");
  await ownerPage.getByRole("button", { name: "Save limits" }).click();
  await expect(ownerPage.getByTestId("limits-saved")).toBeVisible();
  await ownerPage.screenshot({ path: testInfo.outputPath("owner-limits-within-plan.png"), fullPage: true });
  await expectAccessible(ownerPage, "settings limits with a plan, suspended");

  // Resumed: writes and queries are accepted again, and the owner's banner is gone.
  await row.getByRole("button", { name: `Resume ${own.workspaceName}` }).click();
  await confirmation.confirm(`Resume ${own.workspaceName}?`, "Resume");
  await expect(row.getByText("active", { exact: true })).toBeVisible();
  await expect
    .poll(() => pushLines(request, own.ingestKey, cpuLines(`e2e-${uniqueSuffix()}`, 1)), { timeout: 20_000, intervals: [1_000] })
    .toBe(204);
  expect((await ownerQuery(request, ownerToken, own.workspaceId))[0]).toBe(200);
  await ownerPage.reload();
  await expect(settings.limitInput("Ingest rate")).toHaveValue("500");
  await expect(ownerPage.getByTestId("workspace-suspended")).toHaveCount(0);
  await ownerContext.close();

  // Every step is in the operator audit log.
  await page.getByRole("navigation", { name: "Operator" }).getByRole("link", { name: "Audit log" }).click();
  const audit = page.getByTestId("operator-audit");
  await expect(audit.getByRole("row").filter({ hasText: "workspace.resume" }).first()).toContainText(operator.email);
  await expect(audit.getByRole("row").filter({ hasText: "Payment overdue" }).first()).toContainText("workspace.suspend");
  await expect(audit.getByRole("row").filter({ hasText: planName }).first()).toBeVisible();
  await expectAccessible(page, "operator audit log");

  // Leave the platform as it was: the workspace back on the default plan, the test plan gone.
  const opToken = await apiToken(request, operator.email, operator.password);
  const headers = { Authorization: `Bearer ${opToken}` };
  const plans = (await (await request.get("/api/v1/operator/plans", { headers })).json()) as {
    data: { id: string; name: string; is_default: boolean }[];
  };
  const defaultPlan = plans.data.find((p) => p.is_default)!;
  const testPlan = plans.data.find((p) => p.name === planName)!;
  expect(
    (await request.put(`/api/v1/operator/workspaces/${own.workspaceId}/plan`, { headers, data: { plan_id: defaultPlan.id } })).status(),
  ).toBe(200);
  expect((await request.delete(`/api/v1/operator/plans/${testPlan.id}`, { headers })).status()).toBe(200);
});

test("the operator area and API are not there for anyone else", async ({ page, request }) => {
  const own = await createOwnWorkspace(request, "not-operator");
  const res = await request.get("/api/v1/operator/workspaces", { headers: { Authorization: `Bearer ${own.token}` } });
  expect(res.status()).toBe(404);
  expect(await res.json()).toEqual({ detail: "No such endpoint: /api/v1/operator/workspaces", code: "not_found" });
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(own.email, own.password);
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Operator" })).toHaveCount(0);
  await page.goto("/operator/workspaces");
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
});
