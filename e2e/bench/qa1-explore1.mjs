import { open, W, sleep } from "./qa1-lib.mjs";
for (const dark of [false, true]) {
  const { browser, page, errors } = await open({ dark });
  const tag = dark ? "dark" : "light";
  await page.goto(W() + "/explore");
  await sleep(3000);
  await page.screenshot({ path: `/tmp/qa1/ex-default-${tag}.png` });
  console.log(tag, "url", page.url());
  // Type a query
  const q = "M::cpu:(avg(usage_user)) [1h::1m] BY host";
  await page.goto(W() + "/explore?q=" + encodeURIComponent(q));
  await sleep(3000);
  await page.screenshot({ path: `/tmp/qa1/ex-q-${tag}.png` });
  console.log(await page.locator('[data-testid=result-summary]').textContent());
  // hover tooltip
  const chart = page.locator("canvas").first();
  const box = await chart.boundingBox();
  console.log("canvas", box);
  if (box) { await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.4); await sleep(600); await page.screenshot({ path: `/tmp/qa1/ex-tooltip-${tag}.png` }); }
  console.log(errors.join("\n"));
  await browser.close();
}
