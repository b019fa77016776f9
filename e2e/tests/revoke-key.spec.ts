import { expect, test } from "@playwright/test";
import { cpuLines, createOwnWorkspace, pushLines } from "../fixtures/api";
import { uniqueSuffix } from "../fixtures/env";
import { ConfirmDialog } from "../pages/ConfirmDialog";
import { LoginPage } from "../pages/LoginPage";
import { testIds } from "../selectors";

test("an ingest key created in settings works until it is revoked", async ({ page, request }, testInfo) => {
  const own = await createOwnWorkspace(request, "revoke");
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(own.email, own.password);
  await page.goto(`/w/${own.workspaceId}/settings`);

  const keyName = `agent ${uniqueSuffix()}`;
  await page.getByLabel("Key name").fill(keyName);
  await page.getByLabel("Scope").selectOption("ingest");
  await page.getByRole("button", { name: "Create key" }).click();
  const secret = (await page.getByTestId(testIds.newKeyValue).textContent())?.trim() ?? "";
  expect(secret).toMatch(/^vgi_/);
  await page.screenshot({ path: testInfo.outputPath("key-created.png"), fullPage: true });

  expect(await pushLines(request, secret, cpuLines(`e2e-${uniqueSuffix()}`, 1))).toBe(204);

  // Revoking asks first, in the app's own dialog (here in the dark theme): Escape keeps the key.
  await page.emulateMedia({ colorScheme: "dark" });
  const revoke = page.getByRole("button", { name: `Revoke key ${keyName}` });
  const confirmation = new ConfirmDialog(page);
  await revoke.click();
  await expect(confirmation.dialog).toHaveAccessibleDescription("Agents using it will be refused within seconds.");
  await expect(confirmation.dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.screenshot({ path: testInfo.outputPath("confirm-revoke-dark.png") });
  await confirmation.dismiss(`Revoke "${keyName}"?`);
  await expect(revoke).toBeFocused();
  await expect(page.getByRole("row", { name: new RegExp(keyName) })).toContainText("active");
  await page.emulateMedia({ colorScheme: "light" });
  await revoke.click();
  await page.screenshot({ path: testInfo.outputPath("confirm-revoke.png") });
  await confirmation.confirm(`Revoke "${keyName}"?`, "Revoke");
  await expect(page.getByRole("row", { name: new RegExp(keyName) })).toContainText("revoked");

  // The gateway caches key lookups for a few seconds; a revoked key is refused within 10 s.
  await expect
    .poll(() => pushLines(request, secret, cpuLines(`e2e-${uniqueSuffix()}`, 1)), { timeout: 20_000, intervals: [1_000] })
    .toBe(401);
  await page.screenshot({ path: testInfo.outputPath("key-revoked.png"), fullPage: true });
});
