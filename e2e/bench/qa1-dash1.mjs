import { open, W, sleep } from "./qa1-lib.mjs";
for (const dark of [false, true]) {
  const tag = dark ? "dark" : "light";
  const { browser, page, errors } = await open({ dark });
  await page.goto(W() + "/dashboards"); await sleep(2500);
  await page.screenshot({ path: `/tmp/qa1/dl-${tag}.png` });
  await page.getByRole("link", { name: "Host overview" }).first().click(); await sleep(3500);
  console.log(tag, decodeURIComponent(page.url()));
  await page.screenshot({ path: `/tmp/qa1/host-${tag}.png`, fullPage: true });
  console.log(errors.join("\n"));
  await browser.close();
}
