import { open, W, sleep } from "./qa1-lib.mjs";
for (let i = 0; i < 4; i++) for (const dark of [false, true]) {
  const tag = dark ? "dark" : "light";
  const { browser, page } = await open({ dark });
  await page.goto(W() + "/dashboards"); await sleep(1500);
  await page.getByRole("link", { name: "Host overview" }).first().click(); await sleep(3000);
  const m = async () => ({ grid: await page.locator('[data-testid=dashboard-grid]').evaluate((e) => e.getBoundingClientRect().width), cells: await page.locator('[data-testid=grid-cell]').evaluateAll((els) => els.slice(0, 2).map((e) => Math.round(e.getBoundingClientRect().width))) });
  const before = await m();
  await page.screenshot({ path: `/tmp/qa1/host3-${tag}-${i}.png`, fullPage: true });
  await sleep(500);
  console.log(i, tag, JSON.stringify(before), JSON.stringify(await m()));
  await browser.close();
}
