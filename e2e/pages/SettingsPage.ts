import { expect, type Locator, type Page } from "@playwright/test";

export type SettingsSection = "general" | "members" | "invitations" | "keys" | "limits" | "audit";

/** Workspace settings: one sub-page per section under `/w/:id/settings/…`. */
export class SettingsPage {
  readonly nav: Locator;

  constructor(private readonly page: Page) {
    this.nav = page.getByRole("navigation", { name: "Settings" });
  }

  async goto(workspaceId: string, section: SettingsSection, search = ""): Promise<void> {
    await this.page.goto(`/w/${workspaceId}/settings/${section}${search}`);
    await expect(this.page.getByRole("heading", { name: /^Settings · / })).toBeVisible();
  }

  /** Creates an invitation and returns the link shown once. */
  async invite(email: string, role: string): Promise<string> {
    const form = this.page.getByRole("form", { name: "Invite someone" });
    await form.getByLabel("Email").fill(email);
    await form.getByLabel("Role").selectOption(role);
    await form.getByRole("button", { name: "Create invitation" }).click();
    const link = this.page.getByTestId("invite-link");
    await expect(link).toHaveValue(/\/invite\?code=/);
    return link.inputValue();
  }

  memberRow(email: string): Locator {
    return this.page.getByTestId("members-table").getByRole("row").filter({ hasText: email });
  }

  limitInput(label: string): Locator {
    return this.page.getByRole("form", { name: "Limits" }).getByLabel(label, { exact: true });
  }

  auditRows(): Locator {
    return this.page.getByTestId("audit-table").locator("tbody").getByRole("row");
  }
}
