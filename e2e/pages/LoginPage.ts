import { expect, type Page } from "@playwright/test";
import { testIds } from "../selectors";

export class LoginPage {
  constructor(private readonly page: Page) {}

  async goto(): Promise<void> {
    await this.page.goto("/login");
  }

  async signIn(email: string, password: string): Promise<void> {
    await this.page.getByLabel("Email").fill(email);
    await this.page.getByLabel("Password").fill(password);
    await this.page.getByRole("button", { name: "Sign in" }).click();
    await expect(this.page.getByTestId(testIds.workspacePicker)).toBeVisible();
  }

  /** Signs in a platform operator who is a member of no workspace: they land in the Operator area. */
  async signInAsOperator(email: string, password: string): Promise<void> {
    await this.page.getByLabel("Email").fill(email);
    await this.page.getByLabel("Password").fill(password);
    await this.page.getByRole("button", { name: "Sign in" }).click();
    await expect(this.page.getByRole("navigation", { name: "Operator" })).toBeVisible();
  }
}
