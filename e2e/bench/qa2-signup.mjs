import { chromium } from "@playwright/test";
import { writeFileSync } from "node:fs";
const B = "http://127.0.0.1:8000";
const scheme = process.argv[2] ?? "light";
const email = process.argv[3] ?? `qa2owner-${Date.now()}@example.com`;
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium" });
const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: scheme });
const page = await ctx.newPage();
const logs = [];
page.on("console", (m) => logs.push(`[${m.type()}] ${m.text()}`));
page.on("response", (r) => { if (r.status() >= 400) logs.push(`HTTP ${r.status()} ${r.url()}`); });
await page.goto(B + "/signup");
await page.screenshot({ path: `/tmp/qa2/01-signup-${scheme}.png` });
// empty submit
await page.getByRole("button", { name: "Sign up" }).click();
await page.screenshot({ path: `/tmp/qa2/02-signup-empty-${scheme}.png` });
// invalid email
await page.getByLabel("Email").fill("not-an-email");
await page.getByLabel("Password").fill("short");
await page.getByRole("button", { name: "Sign up" }).click();
await page.screenshot({ path: `/tmp/qa2/03-signup-invalid-${scheme}.png` });
// weak but long password
await page.getByLabel("Full name").fill("QA Owner");
await page.getByLabel("Email").fill(email);
await page.getByLabel("Password").fill("12345678");
await page.getByRole("button", { name: "Sign up" }).click();
await page.waitForTimeout(1500);
await page.screenshot({ path: `/tmp/qa2/04-signup-weak-${scheme}.png` });
console.log("after weak url", page.url());
if (page.url().includes("/signup")) {
  await page.getByLabel("Password").fill("Qa2-Strong-Pass-9!");
  await page.getByRole("button", { name: "Sign up" }).click();
  await page.waitForTimeout(2000);
}
console.log("after signup url", page.url());
await page.screenshot({ path: `/tmp/qa2/05-after-signup-${scheme}.png` });
// workspace form: empty submit
const wsBtn = page.getByRole("button", { name: "Create workspace" });
if (await wsBtn.count()) {
  await wsBtn.click();
  await page.screenshot({ path: `/tmp/qa2/06-ws-empty-${scheme}.png` });
  await page.getByLabel("Workspace name").fill("QA2 Acme " + scheme);
  await wsBtn.click();
  await page.waitForURL(/get-started/, { timeout: 10000 }).catch(() => {});
}
console.log("after ws url", page.url());
await page.waitForTimeout(1000);
await page.screenshot({ path: `/tmp/qa2/07-get-started-${scheme}.png`, fullPage: true });
await page.getByRole("button", { name: "Create an ingest key" }).click();
await page.waitForTimeout(1500);
await page.screenshot({ path: `/tmp/qa2/08-get-started-key-${scheme}.png`, fullPage: true });
const key = await page.getByTestId("new-key-value").textContent().catch(() => null);
const token = await page.evaluate(() => sessionStorage.getItem("vigil.session.token"));
console.log(JSON.stringify({ email, key, url: page.url(), token: token?.slice(0, 20) }));
writeFileSync(`/tmp/qa2/owner-${scheme}.json`, JSON.stringify({ email, password: "Qa2-Strong-Pass-9!", key, url: page.url() }));
console.log(logs.join("\n"));
await browser.close();
