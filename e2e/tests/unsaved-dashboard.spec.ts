import { expect, test } from "@playwright/test";
import { createOwnWorkspace } from "../fixtures/api";
import { ConfirmDialog } from "../pages/ConfirmDialog";
import { signInAndCreateDashboard } from "../pages/DashboardPage";
import { testIds } from "../selectors";

test("the app asks before it throws edits away: a panel's changes, a panel, a dashboard left unsaved", async ({
  page,
  request,
}, testInfo) => {
  const own = await createOwnWorkspace(request, "unsaved");
  const { dash } = await signInAndCreateDashboard(page, own, "Unsaved");
  const confirmation = new ConfirmDialog(page);
  await dash.startEditing();

  // Panel editor: Escape with changes asks; Escape in the question keeps the editor open.
  await page.getByRole("button", { name: "Edit CPU user %" }).click();
  await dash.editor.getByLabel("Title").fill("CPU, renamed");
  await page.keyboard.press("Escape");
  await expect(confirmation.dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.screenshot({ path: testInfo.outputPath("confirm-discard-panel.png") });
  await confirmation.dismiss("Discard the changes to this panel?");
  await expect(dash.editor).toBeVisible();
  await expect(dash.editor.getByLabel("Title")).toBeFocused();
  await expect(dash.editor.getByLabel("Title")).toHaveValue("CPU, renamed");
  await dash.editor.getByRole("button", { name: "Discard" }).click();
  await confirmation.confirm("Discard the changes to this panel?", "Discard");
  await expect(dash.editor).toBeHidden();
  await expect(dash.panel("CPU user %")).toBeVisible();
  await expect(dash.saveState).toHaveText("Saved · v1");

  // A panel added and then discarded in the editor leaves nothing behind.
  await page.getByTestId(testIds.addPanel).click();
  await expect(dash.editor).toBeVisible();
  // The editor is modal: Tab does not reach the page behind it.
  await dash.editor.getByRole("button", { name: "Discard" }).focus();
  await page.keyboard.press("Shift+Tab");
  expect(await dash.editor.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  await page.keyboard.press("Tab");
  await expect(dash.editor.getByRole("button", { name: "Discard" })).toBeFocused();
  await dash.editor.getByRole("button", { name: "Discard" }).click();
  await expect(dash.editor).toBeHidden();
  await expect(page.getByTestId(testIds.addPanel)).toBeFocused();
  await expect(page.getByTestId(testIds.panel)).toHaveCount(1);
  await expect(dash.saveState).toHaveText("Saved · v1");

  // Removing a panel asks; confirmed, it goes (until saved).
  await page.getByRole("button", { name: "Remove CPU user %" }).click();
  await confirmation.confirm('Remove the panel "CPU user %"?', "Remove");
  await expect(page.getByTestId(testIds.panel)).toHaveCount(0);
  await expect(dash.saveState).toHaveText("Unsaved changes");

  // Leaving with unsaved changes asks: Stay keeps the page and the changes, Leave goes.
  await page.getByRole("link", { name: "Dashboards" }).first().click();
  await expect(confirmation.dialog).toHaveAccessibleDescription(
    "This dashboard has unsaved changes. They are lost if you leave.",
  );
  await confirmation.dialog.getByRole("button", { name: "Stay" }).click();
  await expect(confirmation.dialog).toBeHidden();
  await expect(page).toHaveURL(/\/dashboards\/[0-9a-f-]{36}$/);
  await expect(dash.saveState).toHaveText("Unsaved changes");
  await page.getByRole("link", { name: "Dashboards" }).first().click();
  await confirmation.confirm("Leave without saving?", "Leave");
  await expect(page).toHaveURL(new RegExp(`/w/${own.workspaceId}/dashboards$`));
  // Nothing was saved: the dashboard still has its panel.
  await page.getByRole("link", { name: "Unsaved", exact: true }).click();
  await expect(page.getByTestId(testIds.panel)).toHaveCount(1);
});
