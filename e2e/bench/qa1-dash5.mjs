import { open, W, sleep } from "./qa1-lib.mjs";
const { browser, page, errors } = await open({});
const shot = (n, full=false) => page.screenshot({ path: `/tmp/qa1/${n}.png`, fullPage: full });
const D = "2a41f2fd-4fef-4443-9786-15a8ba8d5195";
await page.goto(W() + "/dashboards/" + D); await sleep(2500);
await page.getByRole("button", { name: "Edit", exact: true }).click(); await sleep(500);
// Add panel then discard immediately (no changes)
const before = await page.locator('[data-testid=grid-cell]').count();
await page.getByRole("button", { name: "Add panel" }).click(); await sleep(2000);
await page.locator('[data-testid=panel-editor]').getByRole("button", { name: "Discard" }).click(); await sleep(800);
const after = await page.locator('[data-testid=grid-cell]').count();
console.log("cells before add:", before, "after add+discard:", after, "state:", await page.locator('[data-testid=save-state]').textContent());
await shot("d5-add-discard");
// Discard dashboard changes
await page.locator('.edit-bar').getByRole("button", { name: "Discard" }).click(); await sleep(500);
console.log("after discard cells:", await page.locator('[data-testid=grid-cell]').count());
// drag first panel header to the right bottom
const cells = page.locator('[data-testid=grid-cell]');
const pos = async () => cells.evaluateAll((els) => els.map((e) => [e.dataset.gridX, e.dataset.gridY, e.dataset.gridW, e.dataset.gridH].join(",")));
console.log("pos0:", await pos());
const hdr = cells.nth(0).locator('.panel-header');
const hb = await hdr.boundingBox();
await page.mouse.move(hb.x + 60, hb.y + hb.height / 2);
await page.mouse.down();
await page.mouse.move(hb.x + 200, hb.y + 400, { steps: 20 });
await page.mouse.move(hb.x + 220, hb.y + 420, { steps: 5 });
await page.mouse.up(); await sleep(800);
console.log("pos after drag:", await pos());
// resize second panel via se handle
const h = cells.nth(1).locator('.react-resizable-handle');
const rb = await h.boundingBox();
console.log("handle box", rb);
if (rb) { await page.mouse.move(rb.x + rb.width/2, rb.y + rb.height/2); await page.mouse.down(); await page.mouse.move(rb.x - 200, rb.y + 150, { steps: 20 }); await page.mouse.up(); await sleep(800); }
console.log("pos after resize:", await pos());
await shot("d5-dragged");
// keyboard move
const mh = cells.nth(0).getByRole("button", { name: /^Move / });
await mh.focus(); await page.keyboard.press("ArrowUp"); await page.keyboard.press("ArrowUp"); await page.keyboard.press("Shift+ArrowRight"); await sleep(600);
console.log("pos after keys:", await pos(), "focused:", await page.evaluate(() => document.activeElement?.getAttribute("aria-label")));
await page.getByLabel("Version note").fill("moved panels");
await page.keyboard.press("Control+s"); await sleep(1500);
console.log("state after ctrl+s:", await page.locator('[data-testid=save-state]').textContent());
await shot("d5-saved");
// reload and check positions persisted
await page.reload(); await sleep(2500);
console.log("pos after reload:", await pos());
// history
await page.getByRole("button", { name: "History" }).click(); await sleep(1200);
await shot("d5-history");
console.log("history:", (await page.locator('.drawer, [role=dialog]').first().textContent()).slice(0, 500));
const restore = page.getByRole("button", { name: /Restore/ });
console.log("restore buttons:", await restore.count());
if (await restore.count()) { await restore.last().click(); await sleep(800); await shot("d5-restore-confirm"); const c = page.getByRole("button", { name: /^Restore/ }).last(); await c.click().catch(()=>{}); await sleep(1500); }
console.log("state after restore:", await page.locator('[data-testid=save-state]').textContent(), "pos:", await pos());
await shot("d5-restored");
console.log(errors.join("\n"));
await browser.close();
