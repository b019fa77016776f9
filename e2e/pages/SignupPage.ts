import { expect, type Page } from "@playwright/test";
import { linkFromMail } from "../fixtures/mail";

/**
 * Signing up as people do: `/signup` takes the address, the emailed link (read from the mail
 * sink) opens `/signup/complete`, where the name and password are chosen; then the
 * first-workspace form `/` shows to a user without any workspace.
 */
export class SignupPage {
  constructor(private readonly page: Page) {}

  async goto(): Promise<void> {
    await this.page.goto("/signup");
  }

  /** Asks for the link (the form already open, e.g. reached from an invitation). */
  async requestLink(email?: string): Promise<void> {
    await expect(this.page.getByRole("heading", { name: "Create your account" })).toBeVisible();
    if (email !== undefined) await this.page.getByLabel("Email").fill(email);
    await this.page.getByRole("button", { name: "Email me a link" }).click();
    await expect(this.page.getByTestId("signup-sent")).toContainText("Check your inbox");
  }

  /** Opens the link emailed to `email`: the page that finishes the sign-up. */
  async openEmailedLink(email: string): Promise<void> {
    const link = await linkFromMail(this.page.request, email, "/signup/complete");
    await this.page.goto(link);
    await expect(this.page.getByRole("heading", { name: "Finish creating your account" })).toBeVisible();
    await expect(this.page.getByLabel("Email")).toHaveValue(email);
    // the token has left the address bar
    await expect(this.page).toHaveURL(/\/signup\/complete$/);
  }

  /** On the page of the emailed link: the name and the password, then the account is made. */
  async choosePassword(fullName: string, password: string): Promise<void> {
    await this.page.getByLabel("Full name").fill(fullName);
    await this.page.getByLabel("Password", { exact: true }).fill(password);
    await this.page.getByLabel("Password again").fill(password);
    await this.page.getByRole("button", { name: "Create account" }).click();
  }

  /** Opens the link emailed to `email` and chooses the name and password there. */
  async finishFromEmail(email: string, fullName: string, password: string): Promise<void> {
    await this.openEmailedLink(email);
    await this.choosePassword(fullName, password);
  }

  /** The whole sign-up from `/signup`. */
  async signUp(fullName: string, email: string, password: string): Promise<void> {
    await this.requestLink(email);
    await this.finishFromEmail(email, fullName, password);
  }

  /**
   * Signs up from the form reached from an invitation: the invited address is already there
   * and cannot be changed; the link leads back to the invitation.
   */
  async signUpInvited(fullName: string, invitedEmail: string, password: string): Promise<void> {
    await expect(this.page.getByRole("heading", { name: "Create your account" })).toBeVisible();
    const email = this.page.getByLabel("Email");
    await expect(email).toHaveValue(invitedEmail);
    await expect(email).not.toBeEditable();
    await this.requestLink();
    await this.finishFromEmail(invitedEmail, fullName, password);
  }

  async createFirstWorkspace(name: string): Promise<string> {
    await expect(this.page.getByRole("heading", { name: "Create your first workspace" })).toBeVisible();
    await this.page.getByLabel("Workspace name").fill(name);
    await this.page.getByRole("button", { name: "Create workspace" }).click();
    await expect(this.page).toHaveURL(/\/w\/[0-9a-f-]{36}\/get-started$/);
    return new URL(this.page.url()).pathname.split("/")[2];
  }
}
