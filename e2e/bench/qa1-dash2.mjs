import { open, W, sleep } from "./qa1-lib.mjs";
for (let i = 0; i < 3; i++) for (const dark of [false, true]) {
  const tag = dark ? "dark" : "light";
  const { browser, page } = await open({ dark });
  await page.goto(W() + "/dashboards/c1c79d04-b645-4db2-8e00-32714f124943"); await sleep(3000);
  const cells = await page.locator('[data-testid=grid-cell]').evaluateAll((els) => els.slice(0, 3).map((e) => Math.round(e.getBoundingClientRect().width)));
  const gw = await page.locator('[data-testid=dashboard-grid]').evaluate((e) => e.getBoundingClientRect().width);
  console.log(i, tag, "grid", gw, "cells", cells);
  if (i === 0) await page.screenshot({ path: `/tmp/qa1/host2-${tag}.png` });
  await browser.close();
}
