import { login, open, B } from "./qa2-lib.mjs";
const W = process.argv[2]; const code = process.argv[3];
const tok = await login("qa2owner-1795312983113@example.com", "Qa2-Strong-Pass-9!");
const { browser, page, logs } = await open("dark", tok);
await page.goto(`${B}/invite?code=${code}`); await page.waitForTimeout(1500);
await page.screenshot({ path: "/tmp/qa2/36-invite-wrong-account-dark.png" });
await page.close();
const p2 = await (page.context()).newPage();
await p2.setViewportSize({ width: 390, height: 844 });
for (const s of ["members", "keys", "invitations", "limits", "audit"]) {
  await p2.goto(`${B}/w/${W}/settings/${s}`); await p2.waitForTimeout(2000);
  const overflow = await p2.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  console.log(s, "horizontal overflow px:", overflow);
  await p2.screenshot({ path: `/tmp/qa2/85-mobile-${s}-dark.png`, fullPage: false });
}
await p2.goto(`${B}/w/${W}/get-started`); await p2.waitForTimeout(1500);
console.log("get-started overflow", await p2.evaluate(() => document.documentElement.scrollWidth - window.innerWidth));
await p2.screenshot({ path: `/tmp/qa2/86-mobile-getstarted-dark.png` });
console.log(logs.join("\n"));
await browser.close();
