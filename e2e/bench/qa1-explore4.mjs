import { open, W, sleep } from "./qa1-lib.mjs";
const { browser, page, errors } = await open({});
const shot = (n) => page.screenshot({ path: `/tmp/qa1/${n}.png` });
const q = "M::cpu:(avg(usage_user)) [1h::1m] BY host";
await page.goto(W() + "/explore?from=now-1h&to=now&q=" + encodeURIComponent(q));
await sleep(2500);
// click legend "a" on canvas; find via screenshot coords (legend centered at bottom)
const chart = page.locator('[data-testid=chart]'); const b = await chart.boundingBox();
console.log("chart box", b);
// legend item "a" approx at x=668,y=667 at 1440 scale
await page.mouse.click(668, 667); await sleep(800);
await shot("ex-legend-off");
await page.locator('[data-testid=auto-refresh]').selectOption("10000");
await sleep(13000);
await shot("ex-legend-after-refresh");
console.log("url:", decodeURIComponent(page.url()));
await page.locator('[data-testid=auto-refresh]').selectOption("0");
// saved query
await page.getByRole("button", { name: "Save query" }).click(); await sleep(500);
await shot("ex-save-form");
const nameInput = page.locator('.popover input').first();
await nameInput.fill("CPU by host");
await page.locator('.popover').getByRole("button", { name: /save/i }).last().click(); await sleep(1000);
await shot("ex-saved");
console.log("status:", await page.locator('[data-testid=saved-query-status]').textContent());
await page.getByRole("button", { name: /Saved queries/ }).click(); await sleep(800);
await shot("ex-saved-list");
console.log("list text:", await page.locator('.popover').textContent());
await page.keyboard.press("Escape");
// history select
const hist = page.locator('[data-testid=query-history]');
console.log("history opts:", await hist.locator("option").allTextContents());
console.log("errors:", errors.join("\n"));
await browser.close();
