import { expect, test } from "@playwright/test";
import { addMember, apiToken, createOwnWorkspace } from "../fixtures/api";
import { uniqueSuffix } from "../fixtures/env";
import { ConfirmDialog } from "../pages/ConfirmDialog";
import { LoginPage } from "../pages/LoginPage";
import { SettingsPage } from "../pages/SettingsPage";
import { SignupPage } from "../pages/SignupPage";
import { WorkspaceSwitcher } from "../pages/WorkspaceSwitcher";

test("an owner creates a second workspace from the switcher, renames it in General and deletes it", async ({
  page,
  request,
  baseURL,
}, testInfo) => {
  const suffix = uniqueSuffix();
  const email = `e2e-general-${suffix}@example.com`;
  const password = `pw-${suffix}-Secret!`;
  const signup = new SignupPage(page);
  await signup.goto();
  await signup.signUp("Grace General", email, password);
  const name = `Team ${suffix}`;
  const firstId = await signup.createFirstWorkspace(name);

  // A second workspace with the same name, from the header's menu: it opens on its getting-started page.
  const switcher = new WorkspaceSwitcher(page);
  const secondId = await switcher.createWorkspace(name);
  expect(secondId).not.toBe(firstId);
  await expect(page.getByRole("heading", { name: `Welcome to ${name}` })).toBeVisible();
  // Same names: a short id tells them apart, on the button and in the menu.
  await expect(switcher.button).toHaveAccessibleName(`Workspace: ${name} (${secondId.slice(0, 8)})`);
  await switcher.open();
  expect(await switcher.entries()).toEqual(
    [`${name} (${firstId.slice(0, 8)}), owner`, `${name} (${secondId.slice(0, 8)}), owner`].sort(),
  );
  await expect(switcher.menu.getByRole("menuitemradio", { checked: true })).toHaveAccessibleName(
    `${name} (${secondId.slice(0, 8)}), owner`,
  );
  await page.screenshot({ path: testInfo.outputPath("switcher-same-names.png") });
  await page.keyboard.press("Escape");
  await expect(switcher.menu).toBeHidden();

  // General comes first in the settings; it shows the id, which copies.
  const settings = new SettingsPage(page);
  await settings.goto(secondId, "general");
  await expect(settings.nav.getByRole("link").first()).toHaveText("General");
  await expect(page.getByRole("textbox", { name: "Workspace ID" })).toHaveValue(secondId);
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  await page.getByRole("button", { name: "Copy workspace ID" }).click();
  await expect(page.getByRole("button", { name: "Copy workspace ID" })).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secondId);

  // Rename: the API's validation error shows at the field; a valid name is saved everywhere.
  const nameField = page.getByRole("form", { name: "Rename the workspace" }).getByLabel("Workspace name");
  await nameField.fill("x".repeat(101));
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(nameField).toHaveAttribute("aria-invalid", "true");
  await expect(nameField).toHaveAccessibleDescription("String should have at most 100 characters");
  const renamed = `${name} staging`;
  await nameField.fill(renamed);
  await expect(nameField).not.toHaveAttribute("aria-invalid");
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByTestId("rename-saved")).toHaveText("Saved.");
  await expect(page.getByRole("heading", { name: `Settings · ${renamed}` })).toBeVisible();
  // The names differ now: no short ids.
  await expect(switcher.button).toHaveAccessibleName(`Workspace: ${renamed}`);
  const token = await apiToken(request, email, password);
  const headers = { Authorization: `Bearer ${token}` };
  const afterRename = await request.get(`/api/v1/workspaces/${secondId}`, { headers });
  expect(afterRename.status()).toBe(200);
  expect((await afterRename.json()).name).toBe(renamed);

  await page.screenshot({ path: testInfo.outputPath("workspace-general.png"), fullPage: true });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: testInfo.outputPath("workspace-general-dark.png"), fullPage: true });
  await page.emulateMedia({ colorScheme: "light" });

  // Delete: the app's dialog says what goes and asks for the name.
  await page.getByRole("button", { name: "Delete workspace" }).click();
  const confirm = new ConfirmDialog(page);
  await expect(confirm.dialog).toContainText("all its metrics data, dashboards, saved queries, API keys and invitations");
  await expect(confirm.dialog).toContainText("Ingestion stops");
  await page.screenshot({ path: testInfo.outputPath("workspace-delete-confirm.png") });
  await confirm.confirmTyped(`Delete workspace "${renamed}"?`, renamed, "Delete workspace");

  // The user lands on their other workspace; the menu no longer lists the deleted one.
  await expect(page).toHaveURL(new RegExp(`/w/${firstId}/explore`));
  await expect(switcher.button).toHaveAccessibleName(`Workspace: ${name}`);
  await switcher.open();
  expect(await switcher.entries()).toEqual([`${name}, owner`]);
  await page.keyboard.press("Escape");

  // And the API agrees: the workspace is gone.
  expect((await request.get(`/api/v1/workspaces/${secondId}`, { headers })).status()).toBe(404);
  const list = await request.get("/api/v1/workspaces", { headers });
  expect((await list.json()).data.map((w: { id: string }) => w.id)).toEqual([firstId]);
});

test("a viewer sees General read-only, with who may rename or delete", async ({ page, request }, testInfo) => {
  const own = await createOwnWorkspace(request, "general-viewer");
  const viewer = await addMember(request, own, "viewer");
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(viewer.email, viewer.password);

  const settings = new SettingsPage(page);
  await settings.goto(own.workspaceId, "general");
  await expect(page.getByTestId("general-read-only")).toHaveText(
    "You are a viewer here: only owners and admins can rename this workspace, and only owners can delete it.",
  );
  await expect(page.getByRole("textbox", { name: "Workspace name" })).toHaveValue(own.workspaceName);
  await expect(page.getByRole("textbox", { name: "Workspace name" })).toHaveAttribute("readonly", "");
  await expect(page.getByRole("textbox", { name: "Workspace ID" })).toHaveValue(own.workspaceId);
  await expect(page.getByRole("button", { name: "Save name" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Delete workspace" })).toHaveCount(0);
  await expect(page.getByTestId("delete-owners-only")).toHaveText("Only owners can delete a workspace.");
  await page.screenshot({ path: testInfo.outputPath("viewer-general.png"), fullPage: true });

  // The API refuses the viewer too.
  const token = await apiToken(request, viewer.email, viewer.password);
  const res = await request.patch(`/api/v1/workspaces/${own.workspaceId}`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { name: "taken over" },
  });
  expect(res.status()).toBe(403);
});
