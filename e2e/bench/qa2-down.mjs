import { login, open, B } from "./qa2-lib.mjs";
const W = process.argv[2];
const tok = await login("qa2owner-1795312983113@example.com", "Qa2-Strong-Pass-9!");
const { browser, page, logs } = await open("light", tok);
await page.goto(`${B}/w/${W}/settings/limits`); await page.waitForTimeout(4000);
await page.screenshot({ path: "/tmp/qa2/90-limits-storage-down.png", fullPage: true });
console.log(logs.join("\n"));
await browser.close();
