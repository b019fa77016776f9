import { login, open, B } from "./qa2-lib.mjs";
const W = process.argv[2]; const scheme = "light";
const tok = await login("qa2owner-1795312983113@example.com", "Qa2-Strong-Pass-9!");
const { browser, page, logs } = await open(scheme, tok);
const s = (n) => page.screenshot({ path: `/tmp/qa2/${n}-${scheme}.png`, fullPage: true });
await page.goto(`${B}/w/${W}/settings/audit`); await page.waitForTimeout(1500);
await page.getByLabel("Action").selectOption("api_key.*");
await page.getByLabel("Actor").fill("qa2owner");
await page.getByRole("button", { name: "Apply filters" }).click();
await page.waitForTimeout(1000);
console.log("url1", page.url(), await page.getByTestId("audit-summary").textContent().catch(() => "-"));
await page.reload(); await page.waitForTimeout(1500);
console.log("after reload action=", await page.getByLabel("Action").inputValue(), "actor=", await page.getByLabel("Actor").inputValue(), await page.getByTestId("audit-summary").textContent().catch(() => "-"));
// click a target cell
await page.getByRole("button", { name: /api_key / }).first().click(); await page.waitForTimeout(1000);
console.log("url2", page.url(), await page.getByTestId("audit-summary").textContent().catch(() => "-"));
await page.goBack(); await page.waitForTimeout(1000);
console.log("back url", page.url(), "targetId field=", await page.getByLabel("Target id").inputValue());
// time range picker
await page.getByRole("button", { name: /Last 7 days/ }).click(); await page.waitForTimeout(500);
await s("21-audit-timepicker");
await page.keyboard.press("Escape");
// filter giving none
await page.getByLabel("Actor").fill("nobody-zzz");
await page.getByRole("button", { name: "Apply filters" }).click(); await page.waitForTimeout(1000);
await s("22-audit-empty");
// bad time range via URL
await page.goto(`${B}/w/${W}/settings/audit?from=garbage&to=now`); await page.waitForTimeout(1200);
await s("23-audit-badrange");
await page.goto(`${B}/w/${W}/settings/audit?from=now-1h&to=now-2h`); await page.waitForTimeout(1200);
await s("24-audit-inverted");
await page.goto(`${B}/w/${W}/settings/audit?page=99`); await page.waitForTimeout(1200);
await s("25-audit-page99");
console.log(logs.join("\n"));
await browser.close();
