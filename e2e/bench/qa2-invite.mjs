import { open, B } from "./qa2-lib.mjs";
import { readFileSync } from "node:fs";
const scheme = process.argv[2] ?? "light";
const link = readFileSync("/tmp/qa2/invite-light.txt", "utf8").trim();
const email = readFileSync("/tmp/qa2/viewer.email", "utf8").trim();
const { browser, page, logs } = await open(scheme, null);
const s = (n) => page.screenshot({ path: `/tmp/qa2/${n}-${scheme}.png`, fullPage: true });
// bogus code
await page.goto(`${B}/invite?code=vginv_bogus`); await page.waitForTimeout(1000); await s("30-invite-bogus");
await page.goto(`${B}/invite`); await page.waitForTimeout(500); await s("30b-invite-nocode");
await page.goto(link); await page.waitForTimeout(1000); await s("31-invite-anon");
await page.getByRole("link", { name: "Create an account" }).click();
await page.waitForTimeout(500); await s("32-invite-signup");
console.log("email field prefilled:", await page.getByLabel("Email").inputValue());
await page.getByLabel("Full name").fill("QA Viewer");
await page.getByLabel("Email").fill(email);
await page.getByLabel("Password").fill("Qa2-Viewer-Pass-7!");
await page.getByRole("button", { name: "Sign up" }).click();
await page.waitForTimeout(2000);
console.log("after signup", page.url());
await s("33-invite-signed-in");
await page.getByRole("button", { name: "Accept invitation" }).click();
await page.waitForTimeout(2500);
console.log("after accept", page.url());
await s("34-after-accept");
// revisit link: already used
await page.goto(link); await page.waitForTimeout(1000); await s("35-invite-used");
console.log(logs.join("\n"));
await browser.close();
