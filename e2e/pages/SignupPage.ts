import { expect, type Page } from "@playwright/test";

/** `/signup`, then the first-workspace form `/` shows to a user without any workspace. */
export class SignupPage {
  constructor(private readonly page: Page) {}

  async goto(): Promise<void> {
    await this.page.goto("/signup");
  }

  /** Fills and sends the sign-up form (already open, e.g. reached from an invitation). */
  async signUp(fullName: string, email: string, password: string): Promise<void> {
    await expect(this.page.getByRole("heading", { name: "Create your account" })).toBeVisible();
    await this.page.getByLabel("Full name").fill(fullName);
    await this.page.getByLabel("Email").fill(email);
    await this.page.getByLabel("Password").fill(password);
    await this.page.getByRole("button", { name: "Sign up" }).click();
  }

  /**
   * Sends the sign-up form reached from an invitation: the invited address is already there
   * and cannot be changed, so only the name and the password are typed.
   */
  async signUpInvited(fullName: string, invitedEmail: string, password: string): Promise<void> {
    await expect(this.page.getByRole("heading", { name: "Create your account" })).toBeVisible();
    const email = this.page.getByLabel("Email");
    await expect(email).toHaveValue(invitedEmail);
    await expect(email).not.toBeEditable();
    await this.page.getByLabel("Full name").fill(fullName);
    await this.page.getByLabel("Password").fill(password);
    await this.page.getByRole("button", { name: "Sign up" }).click();
  }

  async createFirstWorkspace(name: string): Promise<string> {
    await expect(this.page.getByRole("heading", { name: "Create your first workspace" })).toBeVisible();
    await this.page.getByLabel("Workspace name").fill(name);
    await this.page.getByRole("button", { name: "Create workspace" }).click();
    await expect(this.page).toHaveURL(/\/w\/[0-9a-f-]{36}\/get-started$/);
    return new URL(this.page.url()).pathname.split("/")[2];
  }
}
