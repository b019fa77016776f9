import { open, W, sleep } from "./qa1-lib.mjs";
const { browser, page } = await open({});
let n = 0; page.on("request", (r) => { if (r.url().includes("/query/raw")) n++; });
await page.goto(W() + "/dashboards/c15bf8a2-2f66-4f4b-a172-36ab44d6a16e"); await sleep(4000);
const n0 = n;
await sleep(40000);
console.log("query requests during load:", n0, "during next 40s (spec.refresh=10s):", n - n0);
console.log("refresh control present:", await page.getByText(/refresh/i).count());
await browser.close();
