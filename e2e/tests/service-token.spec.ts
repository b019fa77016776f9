import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { createOwnWorkspace } from "../fixtures/api";
import { uniqueSuffix } from "../fixtures/env";
import { ConfirmDialog } from "../pages/ConfirmDialog";
import { LoginPage } from "../pages/LoginPage";
import { testIds } from "../selectors";

// The dashboard file docs/automation.md applies (dashboards as code).
const EXAMPLE = readFileSync(new URL("../../docs/examples/dashboards/web-hosts.json", import.meta.url), "utf8");

test("a service token made on the keys page applies a dashboard file until it is revoked", async ({ page, request }, testInfo) => {
  const own = await createOwnWorkspace(request, "token");
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(own.email, own.password);
  await page.goto(`/w/${own.workspaceId}/settings/keys`);

  const name = `ci ${uniqueSuffix()}`;
  await page.getByLabel("Key name").fill(name);
  await page.getByLabel("Scope").selectOption("editor");
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByTestId("new-key")).toContainText("Copy this token now — it will not be shown again");
  const token = (await page.getByTestId(testIds.newKeyValue).textContent())?.trim() ?? "";
  expect(token).toMatch(/^vgs_[A-Za-z0-9_-]{43}$/);
  await expect(page.getByRole("button", { name: "Copy token" })).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(name) })).toContainText("editor token");
  await expect(page.getByRole("row", { name: new RegExp(name) })).toContainText("never");
  await page.screenshot({ path: testInfo.outputPath("token-created.png"), fullPage: true });

  // A script applies the dashboard file with it (twice: the second time changes nothing).
  const apply = () =>
    request.post(`/api/v1/workspaces/${own.workspaceId}/dashboards/import?overwrite=true`, {
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      data: EXAMPLE,
    });
  expect((await apply()).status()).toBe(201);
  expect((await apply()).status()).toBe(200);
  await page.goto(`/w/${own.workspaceId}/dashboards`);
  await expect(page.getByRole("link", { name: "Web hosts" })).toBeVisible();

  // The keys page says it was used; revoking it stops the script at once.
  await page.goto(`/w/${own.workspaceId}/settings/keys`);
  const row = page.getByRole("row", { name: new RegExp(name) });
  await expect(row).not.toContainText("never");
  await page.getByRole("button", { name: `Revoke key ${name}` }).click();
  const confirmation = new ConfirmDialog(page);
  await expect(confirmation.dialog).toHaveAccessibleDescription(/Scripts using it will be refused at once/);
  await confirmation.confirm(`Revoke "${name}"?`, "Revoke");
  await expect(row).toContainText("revoked");
  const refused = await apply();
  expect(refused.status()).toBe(401);
  expect(await refused.json()).toEqual({ detail: "API key is invalid or revoked", code: "invalid_key" });
});
