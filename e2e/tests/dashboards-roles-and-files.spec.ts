import { readFile } from "node:fs/promises";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { addMember, createOwnWorkspace, type OwnWorkspace } from "../fixtures/api";
import { ConfirmDialog } from "../pages/ConfirmDialog";
import { DashboardPage } from "../pages/DashboardPage";
import { LoginPage } from "../pages/LoginPage";
import { testIds } from "../selectors";

async function hostOverviewId(request: APIRequestContext, own: OwnWorkspace): Promise<string> {
  const res = await request.get(`/api/v1/workspaces/${own.workspaceId}/dashboards`, {
    headers: { Authorization: `Bearer ${own.token}` },
  });
  expect(res.status()).toBe(200);
  const list = (await res.json()) as { data: { id: string; title: string }[] };
  const d = list.data.find((x) => x.title === "Host overview");
  expect(d, "every workspace ships a Host overview dashboard").toBeDefined();
  return d!.id;
}

test("a viewer sees dashboards without any edit control, and the API refuses their changes", async ({
  page,
  request,
}, testInfo) => {
  const own = await createOwnWorkspace(request, "dashviewer");
  const viewer = await addMember(request, own, "viewer");
  const dashboardId = await hostOverviewId(request, own);

  await new LoginPage(page).goto();
  await new LoginPage(page).signIn(viewer.email, viewer.password);
  await page.goto(`/w/${own.workspaceId}/dashboards`);
  await expect(page.getByRole("link", { name: "Host overview" })).toBeVisible();
  await expect(page.getByLabel("New dashboard title")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Import JSON" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^(Delete|Duplicate) / })).toHaveCount(0);

  await page.getByRole("link", { name: "Host overview" }).click();
  const dash = new DashboardPage(page);
  await expect(page.getByTestId(testIds.viewOnly)).toHaveText("View only");
  await expect(dash.panel("CPU usage")).toBeVisible();
  await expect(page.getByRole("button", { name: "Edit", exact: true })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Save" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Settings", exact: true })).toHaveCount(0);
  await expect(page.getByTestId(testIds.dashboardSettings)).toHaveCount(0);
  await expect(dash.saveState).toHaveCount(0);
  // Viewing stays available: history (without restore) and export.
  await page.getByRole("button", { name: "History" }).click();
  const history = page.getByRole("dialog", { name: "Version history" });
  await expect(history.getByTestId(testIds.versionRow)).toHaveCount(1);
  await expect(history.getByRole("button", { name: /^Restore/ })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("viewer-history.png") });
  await page.keyboard.press("Escape");
  await expect(history).toBeHidden();
  await page.screenshot({ path: testInfo.outputPath("viewer-dashboard.png") });

  const login = await request.post("/api/v1/auth/login", { data: { email: viewer.email, password: viewer.password } });
  expect(login.status()).toBe(200);
  const { access_token: viewerToken } = (await login.json()) as { access_token: string };
  const patch = await request.patch(`/api/v1/workspaces/${own.workspaceId}/dashboards/${dashboardId}`, {
    headers: { Authorization: `Bearer ${viewerToken}` },
    data: { title: "Taken over" },
  });
  expect(patch.status()).toBe(403);
});

test("export, import the file back, refuse a broken document, then restore an older version", async ({
  page,
  request,
}, testInfo) => {
  const own = await createOwnWorkspace(request, "dashfiles");
  const dashboardId = await hostOverviewId(request, own);
  await new LoginPage(page).goto();
  await new LoginPage(page).signIn(own.email, own.password);
  const dash = new DashboardPage(page);
  await dash.goto(own.workspaceId, dashboardId);
  await expect(page.getByRole("heading", { name: "Host overview" })).toBeVisible();
  const panelCount = await page.getByTestId(testIds.panel).count();
  expect(panelCount).toBeGreaterThan(4);

  // Export downloads the backend's export document.
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Export JSON" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe("host-overview.dashboard.json");
  const file = testInfo.outputPath("host-overview.dashboard.json");
  await download.saveAs(file);
  const doc = JSON.parse(await readFile(file, "utf8")) as { format: string; title: string; spec: { panels: unknown[] } };
  expect(doc.format).toBe("vigil.dashboard");
  expect(doc.spec.panels).toHaveLength(panelCount);

  // A broken document: the backend's 422 message is shown as it names the problem.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboards" }).click();
  await page.getByRole("button", { name: "Import JSON" }).click();
  const form = page.getByRole("form", { name: "Import dashboard" });
  const broken = { ...doc, title: "Broken", spec: { ...doc.spec, panels: [{ ...(doc.spec.panels[0] as object), grid: { x: 20, y: 0, w: 8, h: 4 } }] } };
  await form.getByLabel("Or paste the exported JSON").fill(JSON.stringify(broken));
  await form.getByRole("button", { name: "Import" }).click();
  await expect(form.getByTestId(testIds.importError)).toContainText("x + w must be at most 24");
  await form.getByLabel("Or paste the exported JSON").fill("{ not json");
  await form.getByRole("button", { name: "Import" }).click();
  await expect(form.getByTestId(testIds.importError)).toContainText("This is not valid JSON");
  await page.screenshot({ path: testInfo.outputPath("import-error.png") });

  // The exported file imports as a new dashboard with the same panels; its title is taken,
  // so the form says so and proposes "(imported)" rather than a second "Host overview".
  await form.getByLabel("JSON file").setInputFiles(file);
  await expect(form.getByLabel("Title", { exact: true })).toHaveValue("Host overview (imported)");
  await expect(form.getByLabel("Title", { exact: true })).toHaveAccessibleDescription(
    /A dashboard called "Host overview" already exists in this workspace/,
  );
  await page.screenshot({ path: testInfo.outputPath("import-title-taken.png") });
  await form.getByRole("button", { name: "Import" }).click();
  await expect(page).not.toHaveURL(new RegExp(dashboardId));
  await expect(page).toHaveURL(/\/dashboards\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name: "Host overview (imported)" })).toBeVisible();
  await expect(page.getByTestId(testIds.panel)).toHaveCount(panelCount);

  // Rename and save (v2), then restore v1 from the history: saved as v3 with the old title.
  await dash.startEditing();
  await page.getByLabel("Dashboard title").fill("Hosts, renamed");
  await page.getByLabel("Version note").fill("rename");
  await dash.save();
  await expect(dash.saveState).toHaveText("Saved · v2");
  await page.getByRole("button", { name: "History" }).click();
  const history = page.getByRole("dialog", { name: "Version history" });
  await expect(history.getByTestId(testIds.versionRow)).toHaveCount(2);
  await expect(history.getByTestId(testIds.versionRow).first()).toContainText("rename");
  await expect(history.getByTestId(testIds.versionRow).first()).toContainText("E2E dashfiles");
  await page.screenshot({ path: testInfo.outputPath("version-history.png") });
  await history.getByRole("button", { name: "Restore version 1" }).click();
  await new ConfirmDialog(page).confirm("Restore version 1?", "Restore");
  await expect(history).toBeHidden();
  await expect(dash.saveState).toHaveText("Saved · v3");
  await page.getByRole("button", { name: "Done editing" }).click();
  await expect(page.getByRole("heading", { name: "Host overview (imported)" })).toBeVisible();
});
