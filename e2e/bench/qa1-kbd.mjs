import { open, W, sleep } from "./qa1-lib.mjs";
const { browser, page, errors } = await open({});
const shot = (n) => page.screenshot({ path: `/tmp/qa1/${n}.png` });
await page.goto(W() + "/explore"); await sleep(2000);
const seq = [];
for (let i = 0; i < 22; i++) {
  await page.keyboard.press("Tab"); await sleep(80);
  seq.push(await page.evaluate(() => { const e = document.activeElement; return `${e.tagName.toLowerCase()}${e.getAttribute("role") ? "[" + e.getAttribute("role") + "]" : ""} "${(e.getAttribute("aria-label") || e.textContent || "").trim().slice(0, 40)}"`; }));
}
console.log(seq.join("\n"));
// focus visible check: screenshot after tabbing to time picker
await page.locator('[data-testid=time-range-button]').focus(); await page.keyboard.press("Enter"); await sleep(300);
console.log("after Enter on picker, focus:", await page.evaluate(() => document.activeElement?.textContent?.slice(0, 40)));
await page.keyboard.press("Tab"); await sleep(100);
console.log("next tab focus:", await page.evaluate(() => document.activeElement?.textContent?.slice(0, 40)));
await shot("k-picker");
await page.keyboard.press("Escape"); await sleep(200);
console.log("after Esc focus:", await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 80)));
// in editor: Tab inserts indentation? (indentWithTab traps Tab)
await page.locator('[data-testid=dql-editor]').click();
await page.keyboard.press("Tab"); await sleep(100);
console.log("Tab in editor -> focus:", await page.evaluate(() => document.activeElement?.getAttribute("data-testid") || document.activeElement?.tagName), "doc:", await page.locator('[data-testid=dql-editor]').textContent());
await page.keyboard.press("Escape"); await page.keyboard.press("Tab"); await sleep(100);
console.log("Esc then Tab -> focus:", await page.evaluate(() => document.activeElement?.getAttribute("data-testid") || document.activeElement?.outerHTML.slice(0,80)));
// visualisation radiogroup arrow keys
await page.getByRole("radio", { name: "Line" }).focus(); await page.keyboard.press("ArrowRight"); await sleep(500);
console.log("after ArrowRight in radiogroup, url view:", new URL(page.url()).searchParams.get("view"), "focus:", await page.evaluate(() => document.activeElement?.textContent));
console.log(errors.join("\n"));
await browser.close();
