import { login, open, B } from "./qa2-lib.mjs";
const W = process.argv[2]; const scheme = "dark";
const tok = await login("qa2owner-1795312983113@example.com", "Qa2-Strong-Pass-9!");
const { browser, page, logs } = await open(scheme, tok);
const s = (n) => page.screenshot({ path: `/tmp/qa2/${n}-${scheme}.png`, fullPage: true });
await page.goto(`${B}/w/${W}/settings/keys`); await page.waitForTimeout(1500);
await s("40-keys");
const btn = page.getByRole("button", { name: "Revoke key qa2 revoke me" }).first();
await btn.focus(); await page.keyboard.press("Enter");
await page.waitForTimeout(400);
await s("41-revoke-confirm");
console.log("focused in dialog:", await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 150)));
// Escape should cancel
await page.keyboard.press("Escape"); await page.waitForTimeout(300);
console.log("dialog after Esc:", await page.getByRole("alertdialog").count(), "focus back:", await page.evaluate(() => document.activeElement?.getAttribute("aria-label")));
await btn.click(); await page.waitForTimeout(300);
await page.getByRole("alertdialog").getByRole("button", { name: "Revoke" }).click();
const t0 = Date.now();
await page.waitForTimeout(1200);
await s("42-revoked");
console.log("revoked at", new Date(t0).toISOString());
for (const p of ["members", "invitations", "limits", "audit"]) {
  await page.goto(`${B}/w/${W}/settings/${p}`); await page.waitForTimeout(2000); await s(`43-${p}`);
}
await page.goto(`${B}/w/${W}/get-started`); await page.waitForTimeout(1000); await s("44-get-started");
await page.goto(`${B}/signup`); await page.waitForTimeout(500);
console.log(logs.join("\n"));
await browser.close();
