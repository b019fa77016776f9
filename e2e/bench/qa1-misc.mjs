import { open, W, sleep } from "./qa1-lib.mjs";
const { browser, page, errors } = await open({});
for (const p of ["/explore", "/dashboards", "/dashboards/c15bf8a2-2f66-4f4b-a172-36ab44d6a16e"]) { await page.goto(W() + p); await sleep(2000); console.log(p, "title:", await page.title()); }
// legend keyboard: count focusable in legend area of a panel
console.log("focusables in line panel:", await page.locator('[data-panel-id=line] button, [data-panel-id=line] [tabindex]').count());
// single-series absolute range via picker
await page.goto(W() + "/explore?q=" + encodeURIComponent("M::cpu:(avg(usage_user)) [::1m] BY host")); await sleep(2000);
await page.click('[data-testid=time-range-button]');
const inputs = page.locator('.time-popover input[type=datetime-local]');
await inputs.nth(0).fill("2026-11-21T01:00"); await inputs.nth(1).fill("2026-11-21T00:00");
await page.getByRole("button", { name: "Apply range" }).click(); await sleep(300);
console.log("inverted abs range msg:", await page.locator('.time-popover [role=alert]').textContent().catch(() => "none"));
await inputs.nth(1).fill("2026-11-21T03:00");
await page.getByRole("button", { name: "Apply range" }).click(); await sleep(2000);
console.log("abs url:", decodeURIComponent(page.url()), await page.locator('[data-testid=time-range-button]').textContent(), await page.locator('[data-testid=result-summary]').textContent());
await page.screenshot({ path: "/tmp/qa1/m-abs.png" });
console.log(errors.join("\n"));
await browser.close();
