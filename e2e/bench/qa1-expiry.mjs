import { open, W, sleep } from "./qa1-lib.mjs";
const { browser, page, errors } = await open({});
const t0 = Date.now();
await page.goto(W() + "/dashboards/2a41f2fd-4fef-4443-9786-15a8ba8d5195"); await sleep(2000);
await page.getByRole("button", { name: "Edit", exact: true }).click(); await sleep(500);
await page.getByLabel("Dashboard title").fill("QA CPU board 2 (edited, unsaved)");
await sleep(500);
console.log("state:", await page.locator('[data-testid=save-state]').textContent());
await page.screenshot({ path: "/tmp/qa1/exp-0.png" });
// wait 15.5 minutes, then do something that talks to the API: open History
while (Date.now() - t0 < 15.5 * 60_000) await sleep(30_000);
await page.getByRole("button", { name: "History" }).click().catch((e) => console.log("click history failed", e.message));
await sleep(3000);
console.log("url after 15.5min:", page.url());
await page.screenshot({ path: "/tmp/qa1/exp-1.png" });
console.log("errors:", errors.slice(-5).join("\n"));
await browser.close();
