import { open, W, sleep } from "./qa1-lib.mjs";
const { browser, page, errors } = await open({});
const shot = (n, full=false) => page.screenshot({ path: `/tmp/qa1/${n}.png`, fullPage: full });
const D = "c15bf8a2-2f66-4f4b-a172-36ab44d6a16e";
await page.goto(W() + "/dashboards/" + D); await sleep(3500);
await shot("va-open", true);
const sel = page.locator('[data-testid=variable-host]');
console.log("options:", await sel.locator("option").allTextContents());
await sel.selectOption(["a", "b"]); await sleep(2500);
console.log("url:", decodeURIComponent(page.url()));
await shot("va-ab", true);
// compare 1d
const cmp = page.getByLabel("Compare");
console.log("compare options:", await cmp.locator("option").allTextContents());
await cmp.selectOption({ label: await cmp.locator("option").nth(2).textContent() }); await sleep(3000);
console.log("url cmp:", decodeURIComponent(page.url()));
await shot("va-compare", true);
// hover line chart for tooltip
const chart = page.locator('[data-panel-id=line] [data-testid=panel-chart]');
const b = await chart.boundingBox();
await page.mouse.move(b.x + b.width * 0.4, b.y + b.height * 0.4); await sleep(700);
await shot("va-compare-tooltip");
// zoom by drag on line panel
await page.mouse.move(b.x + b.width * 0.3, b.y + b.height * 0.5); await page.mouse.down(); await page.mouse.move(b.x + b.width * 0.45, b.y + b.height * 0.5, { steps: 10 }); await page.mouse.up(); await sleep(2500);
console.log("url zoom:", decodeURIComponent(page.url()));
console.log("picker:", await page.locator('[data-testid=time-range-button]').textContent());
await shot("va-zoom", true);
// reload keeps view
await page.reload(); await sleep(3000);
console.log("after reload var selection:", await sel.evaluate((s) => Array.from(s.selectedOptions).map((o) => o.value)), "compare:", await cmp.inputValue());
console.log(errors.join("\n"));
await browser.close();
