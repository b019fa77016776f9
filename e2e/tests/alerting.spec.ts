import { expect, test, type Page } from "@playwright/test";
import { expectAccessible } from "../fixtures/a11y";
import { addMember, createOwnWorkspace, pushLines, type OwnWorkspace } from "../fixtures/api";
import { uniqueSuffix } from "../fixtures/env";
import { mailTo, type Mail } from "../fixtures/mail";
import { startWebhookReceiver, type ReceivedHook, type WebhookReceiver } from "../fixtures/webhook";
import { ExplorePage } from "../pages/ExplorePage";
import { LoginPage } from "../pages/LoginPage";
import { chartAttrs, testIds } from "../selectors";

/**
 * Alerting from end to end on the real stack: points pushed through the gateway cross a
 * threshold; a monitor created from an Explore query (every 10 s, the default plan's floor)
 * fires, shows in the list and the header's badge, and a real webhook receiver started
 * here and the stack's SMTP mail sink get the notification; a silence made from the monitor's page mutes the group, and the
 * next transition is recorded muted and not sent. The new pages pass axe in both themes, and a
 * dashboard panel of the same query shows where it fired.
 */

/** `cpu` points for `host`, one a minute up to now, every one `value`. */
function cpuAt(host: string, value: number, points = 5, now = Date.now()): string {
  return Array.from({ length: points }, (_, i) => `cpu,host=${host} usage_user=${value} ${now - (points - 1 - i) * 60_000}`).join(
    "\n",
  );
}

const mailsOf = (mails: Mail[], kind: string): Mail[] => mails.filter((m) => m.headers["X-Vigil-Event"] === kind);

const hooksOf = (r: WebhookReceiver, kind: string, host?: string): ReceivedHook[] =>
  r.received.filter(
    (h) => h.body.kind === kind && (host === undefined || (h.body.group as { tags?: Record<string, string> })?.tags?.host === host),
  );

/** Every chart on the page has drawn its current data (after the theme changed, say). */
async function chartsReady(page: Page): Promise<void> {
  await expect
    .poll(() => page.locator(`[${chartAttrs.ready}]`).evaluateAll((els) => els.map((el) => el.getAttribute("data-ready"))))
    .not.toContain("false");
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(name), fullPage: true });
}

test.describe("alerting", () => {
  let receiver: WebhookReceiver;
  test.beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  test.afterAll(async () => {
    await receiver.close();
  });

  test("a monitor made from an Explore query fires, notifies a webhook, and is silenced", async ({ page, request }) => {
    // the evaluator, the webhook and two transitions, on a shared machine: minutes, not seconds
    test.setTimeout(600_000);
    const own: OwnWorkspace = await createOwnWorkspace(request, "alerting");
    const suffix = uniqueSuffix();
    const hot = `al-hot-${suffix}`;
    const cool = `al-cool-${suffix}`;
    expect(await pushLines(request, own.ingestKey, `${cpuAt(hot, 95)}\n${cpuAt(cool, 20)}`)).toBe(204);
    const query = `M::cpu:(avg(usage_user)) {host = re'al-.*-${suffix}'} [15m::1m] BY host`;

    const login = new LoginPage(page);
    await login.goto();
    await login.signIn(own.email, own.password);

    // a webhook channel to the receiver, tested from the Channels page
    await page.goto(`/w/${own.workspaceId}/alerts/channels`);
    await expect(page.getByRole("heading", { level: 1, name: "Channels" })).toBeVisible();
    await page.getByRole("button", { name: "New channel" }).click();
    const dialog = page.getByTestId("channel-dialog");
    await dialog.getByLabel("Name").fill("E2E hook");
    await dialog.getByLabel("URL").fill(receiver.url);
    await dialog.getByLabel("Signing secret (optional)").fill(`secret-${suffix}-0123456789`);
    await dialog.getByRole("button", { name: "Create channel" }).click();
    await expect(dialog).toBeHidden();
    const channelRow = page.getByTestId("channel-row").filter({ hasText: "E2E hook" });
    await expect(channelRow).toContainText("signed (has secret)");
    await channelRow.getByRole("button", { name: "Send a test notification to E2E hook" }).click();
    await expect(channelRow.getByTestId("channel-test-result")).toHaveText("Test notification delivered (HTTP 200).");
    expect(hooksOf(receiver, "test")).toHaveLength(1);
    expect(hooksOf(receiver, "test")[0].headers["x-vigil-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);

    // an email channel, its test caught by the stack's SMTP mail sink
    const mailbox = `alerts-${suffix}@example.com`;
    await page.getByRole("button", { name: "New channel" }).click();
    await dialog.getByRole("radio", { name: "Email" }).check();
    await dialog.getByLabel("Name").fill("E2E mail");
    await dialog.getByLabel("Addresses").fill(mailbox);
    await dialog.getByRole("button", { name: "Create channel" }).click();
    await expect(dialog).toBeHidden();
    const mailRow = page.getByTestId("channel-row").filter({ hasText: "E2E mail" });
    await expect(mailRow).toContainText(mailbox);
    await mailRow.getByRole("button", { name: "Send a test notification to E2E mail" }).click();
    await expect(mailRow.getByTestId("channel-test-result")).toHaveText("Test notification delivered.");
    const testMails = mailsOf(await mailTo(request, mailbox), "test");
    expect(testMails).toHaveLength(1);
    expect(testMails[0].subject).toBe("Test notification from Vigil (E2E mail)");
    await shot(page, "alerting-channels.png");
    await expectAccessible(page, "alerting: channels");

    // Explore: the query charted, then "Create monitor"
    const explore = new ExplorePage(page);
    await explore.goto(own.workspaceId, query);
    await expect(async () => {
      await explore.run();
      await expect(explore.chart).toHaveAttribute(chartAttrs.seriesCount, "2", { timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await page.getByTestId("create-monitor").click();

    // the editor, prefilled with the query; the preview shows where it would have fired
    await expect(page.getByRole("heading", { level: 1, name: "New monitor" })).toBeVisible();
    await expect(page.getByTestId(testIds.dqlEditor)).toHaveText(query);
    await page.getByRole("textbox", { name: "Name" }).fill(`CPU hot ${suffix}`);
    await page.getByRole("textbox", { name: "Evaluate every" }).fill("10s");
    // the window reaches back past the points pushed at the start, however long the steps before took
    await page.getByRole("textbox", { name: "Over the last" }).fill("15m");
    await expect(page.getByRole("textbox", { name: "Critical threshold" })).toHaveValue("90");
    await page.getByTestId("routes-critical").getByRole("checkbox", { name: /E2E hook/ }).check();
    await page.getByTestId("routes-critical").getByRole("checkbox", { name: /E2E mail/ }).check();
    await expect(page.getByTestId("preview-summary")).toContainText("Would have fired once in the last 24 hours; firing now.");
    const previewChart = page.getByTestId("preview-chart");
    await expect(previewChart).toHaveAttribute(chartAttrs.seriesCount, "2");
    await expect(previewChart).toHaveAttribute(chartAttrs.ready, "true");
    await shot(page, "alerting-monitor-editor.png");
    await expectAccessible(page, "alerting: monitor editor", { ready: () => chartsReady(page) });
    await page.getByRole("button", { name: "Create monitor" }).click();

    // its page: the hot group fires, the cool one is ok
    await expect(page).toHaveURL(/\/alerts\/monitors\/[0-9a-f-]{36}$/, { timeout: 60_000 });
    const monitorUrl = page.url();
    await expect(page.getByTestId("monitor-header").getByTestId("monitor-status")).toHaveAttribute("data-status", "firing", {
      timeout: 60_000,
    });
    const hotRow = page.getByTestId("group-row").filter({ hasText: `host=${hot}` });
    await expect(hotRow.getByTestId("monitor-status")).toHaveText("Firing");
    await expect(hotRow).toContainText("95");
    await expect(page.getByTestId("group-row").filter({ hasText: `host=${cool}` }).getByTestId("monitor-status")).toHaveText("OK");
    // the header's badge counts it
    await expect(page.getByTestId("alerts-badge")).toHaveText("1", { timeout: 30_000 });
    await expect(page.getByTestId("alerts-nav")).toHaveAccessibleName("Alerts (1 firing)");

    // the webhook got the firing notification, once, for the hot group
    await expect.poll(() => hooksOf(receiver, "firing", hot).length, { timeout: 60_000 }).toBe(1);
    const firing = hooksOf(receiver, "firing", hot)[0].body;
    expect(firing).toMatchObject({ severity: "critical", monitor: { name: `CPU hot ${suffix}` }, value: 95, condition: "> 90" });
    expect((firing.links as { alert: string }).alert).toMatch(new RegExp(`/w/${own.workspaceId}/alerts/events/[0-9a-f-]{36}$`));
    expect(hooksOf(receiver, "firing", cool)).toHaveLength(0);
    // and one email
    await expect.poll(async () => mailsOf(await mailTo(request, mailbox), "firing").length, { timeout: 60_000 }).toBe(1);
    const firingMail = mailsOf(await mailTo(request, mailbox), "firing")[0];
    expect(firingMail.text).toContain(`Group:     host=${hot}`);
    expect(firingMail.text).toMatch(/Value: +95 +\(condition > 90\)/);
    await expect(page.getByTestId("preview-chart")).toHaveAttribute(chartAttrs.ready, "true");
    await shot(page, "alerting-monitor-firing.png");
    await page.emulateMedia({ colorScheme: "dark" });
    await chartsReady(page);
    await shot(page, "alerting-monitor-firing-dark.png");
    await expectAccessible(page, "alerting: monitor page", { ready: () => chartsReady(page) });

    // the list and the firing-now page show it
    await page.getByRole("navigation", { name: "Alerting" }).getByRole("link", { name: "Monitors" }).click();
    const monitorRow = page.getByTestId("monitor-row").filter({ hasText: `CPU hot ${suffix}` });
    await expect(monitorRow.getByTestId("monitor-status")).toHaveText("Firing");
    await expect(monitorRow.getByTestId("severity")).toHaveText("Critical");
    await expect(monitorRow).toContainText("1 firing · 1 ok");
    await page.getByRole("button", { name: /^Firing 1$/ }).click();
    await expect(page).toHaveURL(/status=firing/);
    await expect(page.getByTestId("monitor-row")).toHaveCount(1);
    await shot(page, "alerting-monitors.png");
    await expectAccessible(page, "alerting: monitors list");
    await page.getByTestId("alerts-nav").click();
    await expect(page.getByRole("heading", { level: 1, name: "Firing now" })).toBeVisible();
    await expect(page.getByTestId("active-alert-row")).toHaveCount(1);
    await expect(page.getByTestId("active-alert-row")).toContainText(`host=${hot}`);
    await shot(page, "alerting-firing-now.png");
    await expectAccessible(page, "alerting: firing now");

    // silence the hot group from the monitor's page (prefilled: the monitor and its tags)
    await page.goto(monitorUrl);
    await page.getByRole("button", { name: `Silence host=${hot}` }).click();
    const silenceDialog = page.getByTestId("silence-dialog");
    await expect(silenceDialog.getByLabel("Monitor")).toHaveValue(/[0-9a-f-]{36}/);
    await expect(silenceDialog.getByLabel("Tag 1")).toHaveValue("host");
    await expect(silenceDialog.getByLabel("Value 1")).toHaveValue(hot);
    await silenceDialog.getByLabel("Comment").fill("e2e maintenance");
    await expectAccessible(page, "alerting: silence dialog", { include: "[data-testid='silence-dialog']" });
    await silenceDialog.getByRole("button", { name: "Create silence" }).click();
    await expect(page.getByTestId("silence-created")).toContainText("Silence created (active): e2e maintenance");
    await expect(hotRow.getByTestId("muted")).toBeVisible();
    await expect(page.getByTestId("monitor-header").getByTestId("muted")).toBeVisible();

    // the next transition (the hot host cools down) is recorded muted, and not sent
    expect(await pushLines(request, own.ingestKey, `cpu,host=${hot} usage_user=10 ${Date.now()}`)).toBe(204);
    const resolvedRow = page.getByTestId("event-row").filter({ hasText: "Resolved" }).filter({ hasText: `host=${hot}` });
    await expect(resolvedRow).toBeVisible({ timeout: 90_000 });
    await expect(resolvedRow.getByTestId("muted")).toBeVisible();
    await resolvedRow.getByTestId("event-link").click();
    await expect(page).toHaveURL(/\/alerts\/events\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId("event-muted")).toContainText("Yes: nothing was sent. Silence “e2e maintenance”");
    await expect(page.getByTestId("notifications-empty")).toContainText("A silence muted it");
    await expect(page.getByTestId("event-group")).toHaveText(`host=${hot}`);
    const exploreHref = await page.getByTestId("event-explore").getAttribute("href");
    const exploreParams = new URL(exploreHref ?? "", "http://x").searchParams;
    expect(exploreParams.get("q")).toBe(query);
    expect(Number(exploreParams.get("to")) - Number(exploreParams.get("from"))).toBeGreaterThan(3_600_000);
    await shot(page, "alerting-event-muted.png");
    await expectAccessible(page, "alerting: event page");
    expect(hooksOf(receiver, "resolved")).toHaveLength(0);
    expect(mailsOf(await mailTo(request, mailbox), "resolved")).toHaveLength(0);

    // the firing event's page lists its notification, delivered
    await page.goto(`/w/${own.workspaceId}/alerts/events?kind=firing`);
    await page.getByTestId("event-row").filter({ hasText: `host=${hot}` }).getByTestId("event-link").click();
    const delivered = page.getByTestId("notification-row").filter({ hasText: "E2E hook" });
    await expect(delivered.getByTestId("notification-status")).toHaveText("Sent");
    await expect(page.getByTestId("notification-row").filter({ hasText: "E2E mail" }).getByTestId("notification-status")).toHaveText(
      "Sent",
    );
    await page.getByTestId("event-explore").click();
    await explore.expectChartWithData();
    await expect(page.getByTestId(testIds.dqlEditor)).toHaveText(query);

    // the timeline, filtered by kind and kept in the link
    await page.goto(`/w/${own.workspaceId}/alerts/events`);
    await expect(page.getByTestId("event-row").first()).toBeVisible();
    const filters = page.getByRole("form", { name: "Event filters" });
    await filters.getByRole("checkbox", { name: "Resolved" }).check();
    await filters.getByLabel("Tags").fill(`host=${hot}`);
    await filters.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(/kind=resolved&tag=host%3D/);
    await expect(page.getByTestId("event-row")).toHaveCount(1);
    await shot(page, "alerting-events.png");
    await expectAccessible(page, "alerting: events");

    // the silence is listed; ended now, it expires
    await page.goto(`/w/${own.workspaceId}/alerts/silences`);
    const silenceRow = page.getByTestId("silence-row").filter({ hasText: "e2e maintenance" });
    await expect(silenceRow.getByTestId("silence-state")).toHaveText("Active");
    await expect(silenceRow).toContainText(`host = ${hot}`);
    await shot(page, "alerting-silences.png");
    await expectAccessible(page, "alerting: silences");
    await silenceRow.getByRole("button", { name: "End e2e maintenance now" }).click();
    await page.getByRole("radio", { name: "Expired" }).click();
    await expect(page.getByTestId("silence-row").filter({ hasText: "e2e maintenance" }).getByTestId("silence-state")).toHaveText(
      "Expired",
    );

    // a recording rule, run by the evaluator
    await page.goto(`/w/${own.workspaceId}/alerts/recording-rules`);
    await page.getByRole("button", { name: "New recording rule" }).click();
    const ruleDialog = page.getByTestId("recording-rule-dialog");
    await ruleDialog.getByLabel("Name").fill("cpu per host");
    await ruleDialog.getByTestId(testIds.dqlEditor).click();
    await page.keyboard.type(`M::cpu:(avg(usage_user)) {host = re'al-.*-${suffix}'} BY host`);
    await ruleDialog.getByLabel("Every").fill("10s");
    await ruleDialog.getByLabel("Over the last").fill("1h");
    await ruleDialog.getByLabel("Into measurement").fill(`cpu_rec_${suffix}`);
    await ruleDialog.getByRole("button", { name: "Create rule" }).click();
    await expect(ruleDialog).toBeHidden();
    const ruleRow = page.getByTestId("recording-rule-row").filter({ hasText: "cpu per host" });
    await expect(ruleRow).toContainText(/· 2 points/, { timeout: 60_000 });
    await shot(page, "alerting-recording-rules.png");
    await expectAccessible(page, "alerting: recording rules");

    // a dashboard panel of the monitor's query marks where it fired and resolved
    const created = await page.request.post(`/api/v1/workspaces/${own.workspaceId}/dashboards`, {
      headers: { Authorization: `Bearer ${own.token}` },
      data: {
        title: "Alerting e2e",
        spec: {
          schema_version: 1,
          time: { from: "now-30m", to: "now" },
          panels: [{ id: "p1", type: "timeseries", title: "CPU", grid: { x: 0, y: 0, w: 12, h: 9 }, queries: [{ query }] }],
        },
      },
    });
    expect(created.status()).toBe(201);
    const dashboard = (await created.json()) as { id: string };
    await page.goto(`/w/${own.workspaceId}/dashboards/${dashboard.id}`);
    const panelChart = page.getByTestId(testIds.panelChart);
    await expect(panelChart).toHaveAttribute(chartAttrs.ready, "true");
    const box = await panelChart.boundingBox();
    if (!box) throw new Error("the panel's chart has no box");
    // point along the last third of the time axis until the tooltip names the monitor
    const tooltip = panelChart.locator(".chart-tooltip");
    await expect(async () => {
      for (let x = box.x + box.width * 0.98; x > box.x + box.width * 0.6; x -= 3) {
        await page.mouse.move(x, box.y + box.height * 0.4);
        if (((await tooltip.textContent({ timeout: 500 }).catch(() => "")) ?? "").includes(`CPU hot ${suffix}`)) return;
      }
      throw new Error("no tooltip named the monitor");
    }).toPass({ timeout: 60_000 });
    await expect(tooltip).toContainText(new RegExp(`(Fired|Resolved) · CPU hot ${suffix} · host=${hot}`));
    await shot(page, "alerting-dashboard-annotation.png");
  });

  test("a viewer reads monitors and events but changes nothing", async ({ page, request }) => {
    test.setTimeout(180_000);
    const own = await createOwnWorkspace(request, "alert-viewer");
    const headers = { Authorization: `Bearer ${own.token}` };
    const made = await request.post(`/api/v1/workspaces/${own.workspaceId}/monitors`, {
      headers,
      data: { name: "Viewer sees me", query: "M::cpu:(avg(usage_user)) BY host", conditions: [{ severity: "warning", op: ">", threshold: 80 }] },
    });
    expect(made.status()).toBe(201);
    const viewer = await addMember(request, own, "viewer");
    const login = new LoginPage(page);
    await login.goto();
    await login.signIn(viewer.email, viewer.password);
    await page.goto(`/w/${own.workspaceId}/alerts/monitors`);
    await expect(page.getByTestId("monitor-row").filter({ hasText: "Viewer sees me" })).toBeVisible();
    await expect(page.getByRole("link", { name: "New monitor" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: /^(Disable|Enable) / })).toHaveCount(0);
    await page.getByRole("link", { name: "Viewer sees me" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Viewer sees me" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Silence" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Edit", exact: true })).toHaveCount(0);
    await page.getByRole("navigation", { name: "Alerting" }).getByRole("link", { name: /Channels/ }).click();
    await expect(page.getByText("Notification channels are visible to editors and admins, and managed by admins.")).toBeVisible();
    await page.goto(`/w/${own.workspaceId}/alerts/monitors/new`);
    await expect(page.getByTestId("monitor-read-only")).toBeVisible();
    await expect(page.getByRole("button", { name: "Create monitor" })).toHaveCount(0);
    await expectAccessible(page, "alerting: editor read-only", { ready: () => chartsReady(page) });
  });
});
