import { open, W, sleep } from "./qa1-lib.mjs";
const { browser, page, errors } = await open({ tz: "Asia/Shanghai" });
const shot = (n) => page.screenshot({ path: `/tmp/qa1/${n}.png` });
const ed = page.locator('[data-testid=dql-editor]');
async function setQuery(q) { await ed.click(); await page.keyboard.press("Control+a"); await page.keyboard.press("Delete"); await page.keyboard.insertText(q); }
await page.goto(W() + "/explore");
await sleep(2500);
// tag value completion accept
await setQuery("M::cpu:(avg(usage_user)) {host = '");
await page.keyboard.press("Control+Space"); await sleep(800);
console.log("tv opts:", await page.locator(".cm-tooltip-autocomplete li").allTextContents());
await page.keyboard.press("Enter"); await sleep(200);
console.log("doc after accept:", await ed.textContent());
// inside avg(
await setQuery("M::cpu:(avg(");
await page.keyboard.press("Control+Space"); await sleep(800);
console.log("in avg( opts:", (await page.locator(".cm-tooltip-autocomplete li").allTextContents()).join(","));
await page.keyboard.press("Escape");
await setQuery("M::cpu:(avg(usage_user)) BY ");
await page.keyboard.press("Control+Space"); await sleep(800);
console.log("BY opts:", (await page.locator(".cm-tooltip-autocomplete li").allTextContents()).join(","));
await page.keyboard.press("Escape");
// multi-line error
await setQuery("M::cpu:(avg(usage_user))\n  [15m::1m]\n  BY host,,");
await page.keyboard.press("Control+Enter"); await sleep(2000);
await shot("ex-error");
console.log("error:", await page.locator('[data-testid=query-error]').textContent().catch(() => "none"));
// unknown function
await setQuery("M::cpu:(avgg(usage_user)) BY host");
await page.keyboard.press("Control+Enter"); await sleep(2000);
await shot("ex-error2");
console.log("error2:", await page.locator('[data-testid=query-error]').textContent().catch(() => "none"));
// unknown measurement
await setQuery("M::nope:(avg(x)) BY host");
await page.keyboard.press("Control+Enter"); await sleep(2000);
console.log("nope:", await page.locator('.empty-state, [data-testid=empty-result]').first().textContent().catch(() => "none"));
// good query; 1h
await setQuery("M::cpu:(avg(usage_user)) [1h::1m] BY host");
await page.keyboard.press("Control+Enter"); await sleep(1500);
await page.click('[data-testid=time-range-button]'); await sleep(300);
await shot("ex-picker");
await page.getByRole("button", { name: "Last 1 hour" }).click(); await sleep(2000);
console.log("url after 1h:", decodeURIComponent(page.url()));
console.log("summary:", await page.locator('[data-testid=result-summary]').textContent());
console.log("tz label:", await page.locator('[data-testid=timezone-label]').textContent());
await shot("ex-1h-shanghai");
// legend toggle
const legendItems = page.locator('.chart-legend button, [data-testid=chart-legend] button, .legend-item');
console.log("legend items:", await legendItems.count(), await legendItems.allTextContents());
// views
for (const v of ["Area", "Bar", "Stat", "Table"]) {
  await page.getByRole("radio", { name: v }).click(); await sleep(1200);
  await shot("ex-view-" + v.toLowerCase());
}
console.log("url with view:", decodeURIComponent(page.url()));
await page.getByRole("radio", { name: "Line" }).click(); await sleep(1000);
// drag zoom
const c = page.locator("canvas").first(); const b = await c.boundingBox();
await page.mouse.move(b.x + b.width * 0.3, b.y + b.height * 0.5);
await page.mouse.down(); await page.mouse.move(b.x + b.width * 0.5, b.y + b.height * 0.5, { steps: 10 }); await page.mouse.up();
await sleep(2000);
console.log("url after zoom:", decodeURIComponent(page.url()));
console.log("picker label:", await page.locator('[data-testid=time-range-button]').textContent());
await shot("ex-zoom");
await page.goBack(); await sleep(1500);
console.log("url after back:", decodeURIComponent(page.url()));
console.log("errors:", errors.join("\n"));
await browser.close();
