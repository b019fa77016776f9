import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { createOwnWorkspace } from "../fixtures/api";
import { uniqueSuffix } from "../fixtures/env";
import { ConfirmDialog } from "../pages/ConfirmDialog";
import { LoginPage } from "../pages/LoginPage";
import { testIds } from "../selectors";

const session = (page: Page) =>
  page.evaluate(() => ({
    token: window.sessionStorage.getItem("vigil.session.token"),
    refresh: window.sessionStorage.getItem("vigil.session.refresh"),
  }));

async function meStatus(request: APIRequestContext, token: string | null): Promise<number> {
  return (await request.get("/api/v1/auth/me", { headers: { Authorization: `Bearer ${token}` } })).status();
}

test("a session renews itself, the password changes with a strength check, and signing out ends sessions on the server", async ({
  page,
  request,
}, testInfo) => {
  const own = await createOwnWorkspace(request, "account");
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(own.email, own.password);

  // The bearer token lasts 15 minutes; a minute before it expires the next request renews it
  // (the refresh token rotating with it) instead of ending the session.
  const before = await session(page);
  await page.evaluate(() => window.sessionStorage.setItem("vigil.session.expires", String(Date.now() + 30_000)));
  await page.getByRole("link", { name: "Dashboards" }).click();
  await expect(page.getByRole("heading", { name: "Dashboards" })).toBeVisible();
  await expect.poll(async () => (await session(page)).token).not.toBe(before.token);
  const renewed = await session(page);
  expect(renewed.refresh).not.toBe(before.refresh);
  expect(await meStatus(request, renewed.token)).toBe(200);

  // Your account: the email at the top right
  await page.getByTestId(testIds.userEmail).click();
  await expect(page.getByRole("heading", { name: "Your account" })).toBeVisible();
  await expect(page.getByTestId("account-email")).toHaveText(own.email);

  const changeTo = async (next: string) => {
    await page.getByLabel("Current password").fill(own.password);
    await page.getByLabel("New password", { exact: true }).fill(next);
    await page.getByLabel("New password again").fill(next);
    await page.getByRole("button", { name: "Change password" }).click();
  };
  await changeTo("password1");
  await expect(page.getByLabel("New password", { exact: true })).toHaveAccessibleDescription(/too easy to guess/);
  await page.screenshot({ path: testInfo.outputPath("account-weak-password.png"), fullPage: true });

  const other = await request.post("/api/v1/auth/login", { data: { email: own.email, password: own.password } });
  const otherToken = ((await other.json()) as { access_token: string }).access_token;
  const newPassword = `tangerine quorum ${uniqueSuffix()}`;
  await changeTo(newPassword);
  await expect(page.getByTestId("password-changed")).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("account-password-changed.png"), fullPage: true });
  // every other session ended; this one goes on
  expect(await meStatus(request, otherToken)).toBe(401);
  expect(await meStatus(request, (await session(page)).token)).toBe(200);

  // Signing out revokes the session on the server, not only in this tab.
  const signedIn = await session(page);
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/login/);
  expect(await meStatus(request, signedIn.token)).toBe(401);
  const refreshed = await request.post("/api/v1/auth/refresh", { data: { refresh_token: signedIn.refresh } });
  expect(refreshed.status()).toBe(401);

  // Sign out everywhere ends the sessions of other browsers too.
  await login.signIn(own.email, newPassword);
  const elsewhere = await request.post("/api/v1/auth/login", { data: { email: own.email, password: newPassword } });
  const elsewhereToken = ((await elsewhere.json()) as { access_token: string }).access_token;
  await page.getByTestId(testIds.userEmail).click();
  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  await new ConfirmDialog(page).confirm("Sign out everywhere?", "Sign out everywhere");
  await expect(page).toHaveURL(/\/login/);
  expect(await meStatus(request, elsewhereToken)).toBe(401);
});
