import { login, open, B } from "./qa2-lib.mjs";
import { writeFileSync } from "node:fs";
const W = process.argv[2]; const scheme = process.argv[3] ?? "light";
const viewerEmail = process.argv[4];
const tok = await login("qa2owner-1795312983113@example.com", "Qa2-Strong-Pass-9!");
const { browser, page, logs } = await open(scheme, tok);
const s = (n) => page.screenshot({ path: `/tmp/qa2/${n}-${scheme}.png`, fullPage: true });
await page.goto(`${B}/w/${W}/settings`);
await page.waitForTimeout(1500);
console.log("settings index ->", page.url());
await s("10-keys");
if (!process.env.SKIP) {
// create key validation
await page.getByRole("button", { name: "Create key" }).click();
await s("11-keys-empty-name");
await page.getByLabel("Key name").fill("qa2 query key");
await page.getByLabel("Scope").selectOption("query");
await page.getByRole("button", { name: "Create key" }).click();
await page.waitForTimeout(1000);
const qkey = await page.getByTestId("new-key-value").textContent();
await page.getByRole("button", { name: "Copy key" }).click();
await page.waitForTimeout(300);
const clip = await page.evaluate(() => navigator.clipboard.readText()).catch((e) => "ERR " + e);
console.log("query key", qkey, "clipboard matches:", clip === qkey);
await s("12-keys-created");
// second ingest key to revoke
await page.getByLabel("Key name").fill("qa2 revoke me");
await page.getByLabel("Scope").selectOption("ingest");
await page.getByRole("button", { name: "Create key" }).click();
await page.waitForTimeout(1000);
const rkey = await page.getByTestId("new-key-value").textContent();
writeFileSync(`/tmp/qa2/keys-${scheme}.json`, JSON.stringify({ qkey, rkey }));
// invitations
await page.getByRole("link", { name: "Invitations" }).click();
await page.waitForTimeout(800);
await s("13-invitations-empty");
await page.getByLabel("Email").fill("bad-address");
await page.getByRole("button", { name: "Create invitation" }).click();
await s("14-invite-bad-email");
await page.getByLabel("Email").fill(viewerEmail);
await page.getByLabel("Role").selectOption("viewer");
await page.getByRole("button", { name: "Create invitation" }).click();
await page.waitForTimeout(1000);
const link = await page.getByTestId("invite-link").inputValue();
await page.getByRole("button", { name: "Copy invitation link" }).click();
await page.waitForTimeout(300);
const clip2 = await page.evaluate(() => navigator.clipboard.readText()).catch((e) => "ERR " + e);
console.log("invite link", link, "clip ok", clip2 === link);
writeFileSync(`/tmp/qa2/invite-${scheme}.txt`, link);
await s("15-invite-created");
// duplicate invite same address
await page.getByLabel("Email").fill(viewerEmail);
await page.getByRole("button", { name: "Create invitation" }).click();
await page.waitForTimeout(1000);
await s("16-invite-duplicate");
}
// limits
await page.getByRole("link", { name: /Limits/ }).click();
await page.waitForTimeout(2500);
await s("17-limits");
await page.getByRole("textbox", { name: "Active series" }).fill("0").catch(async (e) => { console.log("no label Active series", e.message); });
await page.getByRole("textbox", { name: "Active series" }).press("Enter"); console.log("save disabled?", await page.getByRole("button", { name: "Save limits" }).isDisabled());
await page.waitForTimeout(800);
await s("18-limits-zero");
await page.getByRole("textbox", { name: "Active series" }).fill("99999999999999999999");
await page.getByRole("textbox", { name: "Active series" }).press("Enter"); console.log("save disabled?", await page.getByRole("button", { name: "Save limits" }).isDisabled());
await page.waitForTimeout(800);
await s("19-limits-huge");
await page.getByRole("textbox", { name: "Active series" }).fill("1e3");
await page.getByRole("textbox", { name: "Active series" }).press("Enter"); console.log("save disabled?", await page.getByRole("button", { name: "Save limits" }).isDisabled());
await page.waitForTimeout(800);
await s("19b-limits-1e3");
await page.getByRole("textbox", { name: "Active series" }).fill("500000");
// audit
await page.getByRole("link", { name: "Audit log" }).click();
await page.waitForTimeout(1500);
await s("20-audit");
console.log("audit url", page.url());
console.log(logs.join("\n"));
await browser.close();
