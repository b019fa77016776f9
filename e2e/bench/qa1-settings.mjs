import { open, W, sleep } from "./qa1-lib.mjs";
const { browser, page, errors } = await open({ dark: true });
const shot = (n, full=false) => page.screenshot({ path: `/tmp/qa1/${n}.png`, fullPage: full });
const D = "c15bf8a2-2f66-4f4b-a172-36ab44d6a16e";
// copy of host overview with bogus host in URL
await page.goto(W() + "/dashboards"); await sleep(1500);
await page.getByRole("link", { name: "Copy of Host overview" }).click(); await sleep(2500);
const hostSel = page.locator('[data-testid=variable-host]');
const u = new URL(page.url()); u.searchParams.set("var-host", "zzz");
await page.goto(u.toString()); await sleep(3000);
console.log("bogus var: select shows", await hostSel.evaluate((s) => s.options[s.selectedIndex]?.text), "url:", decodeURIComponent(page.url()));
await shot("s-bogus-var");
// settings panel
await page.goto(W() + "/dashboards/" + D); await sleep(2500);
await page.getByRole("button", { name: "Edit", exact: true }).click(); await sleep(300);
await page.locator('[data-testid=dashboard-settings-toggle]').click(); await sleep(1500);
await shot("s-settings", true);
await page.getByRole("button", { name: "Add variable" }).click(); await sleep(800);
await shot("s-addvar", true);
console.log("form text:", (await page.locator('.variable-editor').textContent()).slice(0, 600));
// panel editor: Escape / focus trap
await page.keyboard.press("Escape");
await page.getByRole("button", { name: "Edit CPU user vs system" }).click(); await sleep(2000);
for (let i = 0; i < 40; i++) await page.keyboard.press("Tab");
console.log("after 40 tabs focus inside editor?", await page.evaluate(() => !!document.activeElement?.closest('[data-testid=panel-editor]')), await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 100)));
await shot("s-paneleditor-dark");
console.log(errors.join("\n"));
await browser.close();
