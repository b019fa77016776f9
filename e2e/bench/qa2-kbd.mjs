import { login, open, B } from "./qa2-lib.mjs";
const W = process.argv[2];
const tok = await login("qa2owner-1795312983113@example.com", "Qa2-Strong-Pass-9!");
const { browser, page, logs } = await open("dark", tok);
async function walk(url, n) {
  await page.goto(url); await page.waitForTimeout(2000);
  const out = [];
  for (let i = 0; i < n; i++) {
    await page.keyboard.press("Tab");
    out.push(await page.evaluate(() => {
      const e = document.activeElement; if (!e) return "none";
      const cs = getComputedStyle(e);
      const ring = cs.outlineStyle !== "none" && cs.outlineWidth !== "0px" ? "outline" : (cs.boxShadow !== "none" ? "shadow" : "NO-FOCUS-STYLE");
      const name = e.getAttribute("aria-label") || e.labels?.[0]?.textContent || e.textContent?.trim().slice(0, 30) || e.getAttribute("placeholder") || "";
      return `${e.tagName.toLowerCase()}[${name}]${ring === "NO-FOCUS-STYLE" ? " !!noring" : ""}`;
    }));
  }
  console.log(url.replace(B, ""), "\n  " + out.join("\n  "));
}
await walk(`${B}/w/${W}/settings/members`, 16);
await page.screenshot({ path: "/tmp/qa2/80-kbd-members-dark.png" });
await walk(`${B}/w/${W}/settings/limits`, 14);
await page.screenshot({ path: "/tmp/qa2/81-kbd-limits-dark.png" });
await browser.close();
