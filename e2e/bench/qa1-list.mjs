import { open, W, sleep } from "./qa1-lib.mjs";
import { readFileSync } from "node:fs";
const { browser, page, errors } = await open({});
const shot = (n) => page.screenshot({ path: `/tmp/qa1/${n}.png` });
await page.goto(W() + "/dashboards/2a41f2fd-4fef-4443-9786-15a8ba8d5195"); await sleep(2000);
const [dl] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export JSON" }).click()]);
const path = "/tmp/qa1/export.json"; await dl.saveAs(path);
console.log("download name:", dl.suggestedFilename());
const doc = JSON.parse(readFileSync(path, "utf8")); console.log("export keys:", Object.keys(doc), doc.format, doc.title);
await page.goto(W() + "/dashboards"); await sleep(1500);
await page.getByRole("button", { name: "Import JSON" }).click(); await sleep(500);
await shot("l-import-open");
// invalid json
await page.getByLabel("Or paste the exported JSON").fill('{"format":"vigil.dashboard","title":"Bad","spec":{"schema_version":1,"panels":[{"id":"x","type":"timeseries","title":"t","grid":{"x":20,"y":0,"w":8,"h":4},"queries":[{"ref_id":"A","query":"M::cpu:(avg(usage_user))"}]}]}}');
await page.getByRole("button", { name: "Import", exact: true }).click(); await sleep(1000);
console.log("import error:", await page.locator('[data-testid=import-error]').textContent().catch(() => "none"));
await shot("l-import-error");
await page.getByLabel("Or paste the exported JSON").fill("not json");
await page.getByRole("button", { name: "Import", exact: true }).click(); await sleep(500);
console.log("import error2:", await page.locator('[data-testid=import-error]').textContent().catch(() => "none"));
// good import by file
await page.locator('input[type=file]').setInputFiles(path); await sleep(500);
await page.getByRole("button", { name: "Import", exact: true }).click(); await sleep(2000);
console.log("after import url:", page.url());
await page.goto(W() + "/dashboards"); await sleep(1500);
console.log("rows:", await page.locator("tbody tr").allTextContents());
// duplicate host overview
await page.getByRole("button", { name: "Duplicate Host overview" }).click(); await sleep(1500);
console.log("rows after dup:", await page.locator("tbody tr").allTextContents());
await shot("l-dup");
// delete the duplicate
const delBtns = page.getByRole("button", { name: /^Delete Host overview/ });
console.log("delete buttons for host overview:", await delBtns.count());
await delBtns.last().click(); await sleep(500);
await shot("l-delete-confirm");
console.log("dialog:", await page.locator('[role=dialog], [role=alertdialog]').first().textContent().catch(() => "none"));
await page.locator('[role=dialog], [role=alertdialog]').getByRole("button", { name: "Delete" }).click(); await sleep(1500);
console.log("rows after delete:", await page.locator("tbody tr").allTextContents());
console.log(errors.join("\n"));
await browser.close();
