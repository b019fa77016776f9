import { login, open, B } from "./qa2-lib.mjs";
import { readFileSync } from "node:fs";
const W = process.argv[2]; const scheme = process.argv[3] ?? "light";
const tok = await login(readFileSync("/tmp/qa2/viewer.email", "utf8").trim(), "Qa2-Viewer-Pass-7!");
const { browser, page, logs } = await open(scheme, tok);
const s = (n) => page.screenshot({ path: `/tmp/qa2/${n}-${scheme}.png`, fullPage: true });
const buttons = async () => (await page.getByRole("button").allInnerTexts()).map((t) => t.trim()).filter(Boolean).join(" | ");
await page.goto(`${B}/w/${W}/settings`); await page.waitForTimeout(1500);
console.log("settings ->", page.url()); await s("60-v-members");
console.log("members buttons:", await buttons(), "| selects:", await page.locator("select").count());
for (const p of ["invitations", "keys", "limits", "audit"]) {
  await page.goto(`${B}/w/${W}/settings/${p}`); await page.waitForTimeout(1500); await s(`61-v-${p}`);
  console.log(p, "buttons:", await buttons(), "| editable inputs:", await page.locator("input:not([readonly]):not([type=hidden])").count());
}
await page.goto(`${B}/w/${W}/dashboards`); await page.waitForTimeout(2000); await s("62-v-dashboards");
console.log("dashboards buttons:", await buttons());
await page.getByRole("link", { name: "Host overview" }).first().click(); await page.waitForTimeout(3000); await s("63-v-dashboard");
console.log("dashboard buttons:", await buttons());
await page.goto(`${B}/w/${W}/explore`); await page.waitForTimeout(2500);
console.log("explore buttons:", await buttons());
const sq = page.getByRole("button", { name: /Saved queries/ });
if (await sq.count()) { await sq.click(); await page.waitForTimeout(800); await s("64-v-savedq"); console.log("saved q panel buttons:", await buttons()); }
await page.goto(`${B}/w/${W}/get-started`); await page.waitForTimeout(1500); await s("65-v-getstarted");
await page.goto(`${B}/w/${W}/benchmarks`); await page.waitForTimeout(1500); await s("66-v-bench");
console.log("bench buttons:", await buttons());
console.log(logs.join("\n"));
await browser.close();
