import { chromium } from "@playwright/test";
export const B = "http://127.0.0.1:8000";
export async function login(email, password) {
  const r = await fetch(B + "/api/v1/auth/login", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email, password }) });
  const j = await r.json();
  if (!j.access_token) throw new Error("login failed " + JSON.stringify(j));
  return j;
}
export async function open(scheme, tok, { viewport = { width: 1440, height: 900 } } = {}) {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium" });
  const ctx = await browser.newContext({ viewport, colorScheme: scheme });
  await ctx.grantPermissions(["clipboard-read", "clipboard-write"], { origin: B });
  if (tok) {
    await ctx.addInitScript(([a, r]) => {
      sessionStorage.setItem("vigil.session.token", a);
    }, [tok.access_token, tok.refresh_token]);
  }
  const page = await ctx.newPage();
  const logs = [];
  page.on("console", (m) => { if (m.type() !== "debug") logs.push(`[${m.type()}] ${m.text()}`); });
  page.on("pageerror", (e) => logs.push(`[pageerror] ${e.message}`));
  page.on("response", (r) => { if (r.status() >= 400) logs.push(`HTTP ${r.status()} ${r.request().method()} ${r.url()}`); });
  return { browser, ctx, page, logs };
}
