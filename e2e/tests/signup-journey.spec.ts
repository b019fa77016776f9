import { expect, test } from "@playwright/test";
import { cpuLines, pushLines } from "../fixtures/api";
import { gatewayURL, uniqueSuffix } from "../fixtures/env";
import { ExplorePage } from "../pages/ExplorePage";
import { SignupPage } from "../pages/SignupPage";
import { chartAttrs, testIds } from "../selectors";

test("sign up, create a workspace, ingest with a new key, explore, save the query and reopen it", async ({
  page,
  request,
}, testInfo) => {
  const suffix = uniqueSuffix();
  const email = `e2e-signup-${suffix}@example.com`;
  const signup = new SignupPage(page);
  await signup.goto();
  await signup.signUp("Ada Signup", email, `pw-${suffix}-Secret!`);
  await expect(page.getByTestId(testIds.userEmail)).toHaveCount(0);
  const workspaceId = await signup.createFirstWorkspace(`Ada's ${suffix}`);
  await expect(page.getByTestId(testIds.userEmail)).toHaveText(email);

  // The new workspace opens on its getting-started page: the shipped dashboard and a key prompt.
  await expect(page.getByRole("heading", { name: `Welcome to Ada's ${suffix}` })).toBeVisible();
  await expect(page.getByRole("link", { name: "Open Host overview" })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("get-started.png"), fullPage: true });
  await expect(page).toHaveTitle(`Get started · Ada's ${suffix} · Vigil`);
  await page.getByRole("button", { name: "Create an ingest key" }).click();
  const key = (await page.getByTestId(testIds.newKeyValue).textContent())?.trim() ?? "";
  expect(key).toMatch(/^vgi_/);
  // The agent command names the real gateway, not a placeholder to edit.
  await expect(page.getByTestId("agent-command")).toHaveText(`VIGIL_INGEST_KEY=${key} vigil-agent -gateway.url=${gatewayURL}`);
  await expect(page.getByTestId("new-key")).toContainText("Your ingest key “agent”");
  await page.screenshot({ path: testInfo.outputPath("get-started-key.png"), fullPage: true });
  // Back on the page, it counts the key instead of offering a first one again.
  await page.reload();
  await expect(page.getByTestId("existing-keys")).toContainText("This workspace has 1 ingest key — manage them.");
  await expect(page.getByRole("button", { name: "Create another ingest key" })).toBeVisible();

  const host = `signup-${suffix}`;
  expect(await pushLines(request, key, cpuLines(host, 5))).toBe(204);

  const query = `M::cpu:(avg(usage_user)) {host='${host}'} [15m::1m] BY host`;
  const explore = new ExplorePage(page);
  await explore.goto(workspaceId, query);
  await expect(async () => {
    await explore.run();
    await expect(explore.chart).toHaveAttribute(chartAttrs.pointCount, "5", { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });

  // Save it for the workspace.
  await page.getByRole("button", { name: "Save query" }).click();
  await page.getByLabel("Name", { exact: true }).fill("CPU of the signup host");
  await page.getByLabel("Description").fill("Five points pushed by the sign-up journey");
  await page.getByRole("button", { name: "Save as new query" }).click();
  await expect(page.getByTestId("saved-query-status")).toHaveText("Saved “CPU of the signup host”");

  // Elsewhere in Explore, find it again and open it: the URL carries it, the chart shows it.
  await explore.goto(workspaceId);
  await expect(page.getByTestId("saved-query-status")).toHaveText("");
  await page.getByRole("button", { name: "Saved queries (1)" }).click();
  await page.getByLabel("Search saved queries").fill("signup host");
  await expect(page.getByTestId("saved-queries-list").getByRole("listitem")).toHaveCount(1);
  await page.screenshot({ path: testInfo.outputPath("saved-queries.png"), fullPage: true });
  await page.getByRole("button", { name: "Open saved query CPU of the signup host" }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get("q")).toBe(query);
  await expect(explore.chart).toHaveAttribute(chartAttrs.pointCount, "5");
  await expect(page.getByTestId("saved-query-status")).toHaveText("Saved as “CPU of the signup host”");

  // Rename it, then the shipped dashboard is one click away from the start page.
  await page.getByRole("button", { name: "Saved queries (1)" }).click();
  await page.getByRole("button", { name: "Rename CPU of the signup host" }).click();
  await page.getByLabel("New name").fill("Signup host CPU");
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByRole("button", { name: "Open saved query Signup host CPU" })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("saved-query-renamed.png"), fullPage: true });
  // Escape closes the panel and gives the focus back to the button that opened it.
  await page.keyboard.press("Escape");
  await expect(page.getByRole("button", { name: "Saved queries (1)" })).toBeFocused();
  await expect(page.getByTestId("saved-queries-list")).toHaveCount(0);

  // Add it to a new dashboard, drawn as an area chart, and land on that dashboard.
  await page.getByRole("radiogroup", { name: "Visualisation" }).getByRole("radio", { name: "Area" }).click();
  await page.getByRole("button", { name: "Add to dashboard" }).click();
  const addDialog = page.getByRole("dialog", { name: "Add to dashboard" });
  await expect(addDialog.getByLabel("Dashboard", { exact: true })).toHaveValue(/.+/);
  await addDialog.getByLabel("Dashboard", { exact: true }).selectOption({ label: "A new dashboard…" });
  await addDialog.getByLabel("New dashboard title").fill("Signup host");
  await expect(addDialog.getByLabel("Panel title")).toHaveValue("cpu avg(usage_user)");
  await addDialog.getByRole("button", { name: "Add panel" }).click();
  await expect(page.getByRole("heading", { name: "Signup host", level: 1 })).toBeVisible();
  const added = page.getByRole("region", { name: "cpu avg(usage_user)", exact: true });
  await expect(added.getByTestId("panel-chart")).toHaveAttribute(chartAttrs.pointCount, "5");

  await page.goto(`/w/${workspaceId}/get-started`);
  await page.getByRole("link", { name: "Open Host overview" }).click();
  await expect(page.getByRole("heading", { name: "Host overview" })).toBeVisible();
});
