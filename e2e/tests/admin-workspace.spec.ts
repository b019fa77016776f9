import { expect, test } from "@playwright/test";
import { addMember, cpuLines, createOwnWorkspace, pushLines } from "../fixtures/api";
import { uniqueSuffix } from "../fixtures/env";
import { ConfirmDialog } from "../pages/ConfirmDialog";
import { LoginPage } from "../pages/LoginPage";
import { SettingsPage } from "../pages/SettingsPage";
import { SignupPage } from "../pages/SignupPage";
import { chartAttrs } from "../selectors";

test("an owner invites a viewer, who signs up from the link and sees the settings read-only", async ({
  page,
  browser,
  request,
}, testInfo) => {
  const own = await createOwnWorkspace(request, "invite");
  await new LoginPage(page).goto();
  await new LoginPage(page).signIn(own.email, own.password);
  const settings = new SettingsPage(page);
  await settings.goto(own.workspaceId, "invitations");

  const viewerEmail = `e2e-viewer-${uniqueSuffix()}@example.com`;
  const link = await settings.invite(viewerEmail, "viewer");
  const invitations = page.getByTestId("invitations-table");
  await expect(invitations.getByRole("row").filter({ hasText: viewerEmail })).toContainText("pending");
  await page.screenshot({ path: testInfo.outputPath("invitations.png"), fullPage: true });

  // The invitee has no account yet: the link leads through sign-up and back to accept.
  const context = await browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    viewport: testInfo.project.use.viewport,
    timezoneId: testInfo.project.use.timezoneId,
  });
  const viewer = await context.newPage();
  await viewer.goto(link);
  await expect(viewer.getByRole("heading", { name: "Join a workspace" })).toBeVisible();
  // The link names who invites, to which workspace and with which role, before any sign-in.
  await expect(viewer.getByTestId("invite-summary")).toContainText(
    `E2E invite (${own.email}) invited you to join ${own.workspaceName} as a viewer.`,
  );
  await expect(viewer).toHaveTitle(`Join ${own.workspaceName} · Vigil`);
  await viewer.getByRole("link", { name: "Create an account" }).click();
  // The sign-up form comes with the invited address filled in.
  await expect(viewer.getByTestId("auth-invite-note")).toContainText(`You are joining ${own.workspaceName}`);
  await expect(viewer).toHaveTitle("Create an account · Vigil");
  await viewer.screenshot({ path: testInfo.outputPath("invite-signup.png"), fullPage: true });
  await new SignupPage(viewer).signUpInvited("Vera Viewer", viewerEmail, `pw-${uniqueSuffix()}-Secret!`);
  await expect(viewer.getByTestId("invite-user")).toHaveText(viewerEmail);
  await viewer.screenshot({ path: testInfo.outputPath("accept-invitation.png"), fullPage: true });
  await viewer.getByRole("button", { name: "Accept invitation" }).click();
  await expect(viewer).toHaveURL(new RegExp(`/w/${own.workspaceId}/explore`));
  // Opened again, the used link says so instead of offering to accept.
  await viewer.goto(link);
  await expect(viewer.getByTestId("invite-state")).toContainText("This invitation has already been used");
  await expect(viewer.getByRole("button", { name: "Accept invitation" })).toHaveCount(0);

  // Read-only settings: roles as text, no remove, limits not editable, admin pages explained.
  const viewerSettings = new SettingsPage(viewer);
  await viewerSettings.goto(own.workspaceId, "members");
  await expect(viewer.getByTestId("settings-read-only")).toHaveText("Read-only: you are a viewer");
  await expect(viewer).toHaveTitle(`Members · Settings · ${own.workspaceName} · Vigil`);
  await expect(viewerSettings.memberRow(own.email)).toContainText("owner");
  await expect(viewerSettings.memberRow(viewerEmail)).toContainText("viewer");
  await expect(viewer.getByRole("combobox", { name: /^Role of / })).toHaveCount(0);
  await expect(viewer.getByRole("button", { name: /^Remove / })).toHaveCount(0);
  await viewer.screenshot({ path: testInfo.outputPath("viewer-members.png"), fullPage: true });

  await viewerSettings.nav.getByRole("link", { name: /Limits & usage/ }).click();
  await expect(viewerSettings.limitInput("Ingest rate")).toHaveAttribute("readonly", "");
  await expect(viewer.getByRole("button", { name: "Save limits" })).toHaveCount(0);
  await expect(viewer.getByText("Usage figures are visible to owners and admins.")).toBeVisible();
  await viewer.screenshot({ path: testInfo.outputPath("viewer-limits.png"), fullPage: true });
  await viewerSettings.nav.getByRole("link", { name: /API keys/ }).click();
  await expect(viewer.getByText("Only owners and admins can see, create or revoke keys.")).toBeVisible();
  await viewerSettings.nav.getByRole("link", { name: /Audit log/ }).click();
  await expect(viewer.getByText("Only owners and admins can read the audit log.")).toBeVisible();
  await context.close();

  await page.reload();
  await expect(invitations.getByRole("row").filter({ hasText: viewerEmail })).toContainText("accepted");
  await settings.nav.getByRole("link", { name: "Members" }).click();
  await expect(page.getByRole("combobox", { name: `Role of ${viewerEmail}` })).toHaveValue("viewer");

  // Revoking an invitation asks first; its link then says it was revoked.
  await settings.nav.getByRole("link", { name: "Invitations" }).click();
  const revokedEmail = `e2e-revoked-${uniqueSuffix()}@example.com`;
  const revokedLink = await settings.invite(revokedEmail, "editor");
  await page.getByRole("button", { name: `Revoke invitation for ${revokedEmail}` }).click();
  await new ConfirmDialog(page).confirm(`Revoke the invitation for ${revokedEmail}?`, "Revoke");
  await expect(invitations.getByRole("row").filter({ hasText: revokedEmail })).toContainText("revoked");
  await page.goto(revokedLink);
  await expect(page.getByTestId("invite-summary")).toContainText(`invited you to join ${own.workspaceName} as an editor.`);
  await expect(page.getByTestId("invite-state")).toContainText("This invitation was revoked");
  await page.screenshot({ path: testInfo.outputPath("invite-revoked.png"), fullPage: true });
});

test("the last owner cannot be demoted, a changed limit shows in usage, and the audit log filters it", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(150_000);
  const own = await createOwnWorkspace(request, "admin");
  expect(await pushLines(request, own.ingestKey, cpuLines(`admin-${uniqueSuffix()}`, 5))).toBe(204);
  const member = await addMember(request, own, "viewer");
  await new LoginPage(page).goto();
  await new LoginPage(page).signIn(own.email, own.password);
  const settings = new SettingsPage(page);

  // Members: the backend refuses to leave the workspace without an owner, and says so.
  await settings.goto(own.workspaceId, "members");
  await page.getByRole("combobox", { name: `Role of ${own.email}` }).selectOption("admin");
  await new ConfirmDialog(page).confirm("Change your own role to admin?", "Change role");
  await expect(page.getByTestId("members-error")).toHaveText("A workspace needs at least one owner");
  await expect(page.getByRole("combobox", { name: `Role of ${own.email}` })).toHaveValue("owner");
  await page.screenshot({ path: testInfo.outputPath("last-owner.png"), fullPage: true });
  await page.getByRole("combobox", { name: `Role of ${member.email}` }).selectOption("editor");
  await expect(settings.memberRow(member.email).getByRole("combobox")).toHaveValue("editor");

  // Limits: edit, save, and the saved value survives a reload; usage charts draw the limit.
  await settings.nav.getByRole("link", { name: "Limits & usage" }).click();
  await expect(page).toHaveURL(/\/settings\/limits$/);
  await settings.limitInput("Ingest rate").fill("12,345");
  await settings.limitInput("Active series").fill("1000");
  await page.getByRole("button", { name: "Save limits" }).click();
  await expect(page.getByTestId("limits-saved")).toBeVisible();
  await page.reload();
  await expect(settings.limitInput("Ingest rate")).toHaveValue("12345");
  const ingestChart = page.getByTestId("usage-ingest-chart");
  // The consumer stores the pushed points asynchronously: reload until storage counts them.
  await expect(async () => {
    await page.reload();
    await expect(ingestChart).toHaveAttribute(chartAttrs.seriesCount, "2", { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.getByTestId("usage-active-series")).toContainText("of 1,000 allowed");
  await expect(page.getByTestId("usage-ingest-rate")).toContainText("of 12,345 allowed");
  // Storage records active series every 2 s in the test stack, once a minute in the dev stack
  // (`make up`): reload until the first record is there.
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("usage-series-chart")).toHaveAttribute(chartAttrs.seriesCount, "2", { timeout: 3_000 });
  }).toPass({ timeout: 80_000 });
  await page.screenshot({ path: testInfo.outputPath("limits-usage.png"), fullPage: true });

  // Audit log: filter by action, then actor, then an action family; the URL keeps the filters.
  await settings.nav.getByRole("link", { name: "Audit log" }).click();
  await page.getByLabel("Action").selectOption("limits.update");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/action=limits\.update/);
  await expect(settings.auditRows()).toHaveCount(1);
  await expect(settings.auditRows()).toContainText("ingest_points_per_second");
  await expect(settings.auditRows()).toContainText("12345");
  await page.reload();
  await expect(settings.auditRows()).toHaveCount(1);
  await page.screenshot({ path: testInfo.outputPath("audit-limits.png"), fullPage: true });

  await page.getByLabel("Action").selectOption("");
  await page.getByLabel("Actor").fill(member.email.split("@")[0]);
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(settings.auditRows()).toHaveCount(1);
  await expect(settings.auditRows()).toContainText("invitation.accept");

  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page).not.toHaveURL(/actor=/);
  await page.getByLabel("Action").selectOption("member.*");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(settings.auditRows()).toHaveCount(1);
  await expect(settings.auditRows()).toContainText(`user ${member.email}`);
  await expect(settings.auditRows()).toContainText("viewer → editor");
  await expect(page.getByTestId("audit-summary")).toHaveText("Showing 1–1 of 1");
  await page.screenshot({ path: testInfo.outputPath("audit-members.png"), fullPage: true });

  // A target in the table filters by it: the member's events, whatever the action.
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page).not.toHaveURL(/action=/);
  await page.getByRole("button", { name: `user ${member.email}` }).click();
  await expect(page).toHaveURL(new RegExp(`target_type=user&target_id=${member.id}`));
  await expect(settings.auditRows()).toHaveCount(1);
  await expect(page.getByLabel("Target id")).toHaveValue(member.id);

  // The dark theme follows the system.
  await page.emulateMedia({ colorScheme: "dark" });
  await settings.nav.getByRole("link", { name: "Limits & usage" }).click();
  await expect(page.getByTestId("usage-ingest-chart")).toHaveAttribute(chartAttrs.seriesCount, "2");
  await page.screenshot({ path: testInfo.outputPath("limits-usage-dark.png"), fullPage: true });
});
