import { readFileSync } from "node:fs";
import { chromium } from "@playwright/test";
export const BASE = "http://127.0.0.1:8000";
export const cfg = JSON.parse(readFileSync("/tmp/qa1/cfg.json", "utf8"));
export async function api(method, path, token, body) {
  const res = await fetch(BASE + path, { method, headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
  const t = await res.text();
  let j; try { j = t ? JSON.parse(t) : null; } catch { j = t; }
  return { status: res.status, body: j };
}
export async function login(email = cfg.email, password = cfg.password) {
  const r = await api("POST", "/api/v1/auth/login", null, { email, password });
  if (r.status !== 200) throw new Error("login " + r.status + JSON.stringify(r.body));
  return r.body.access_token;
}
export async function open({ dark = false, token, viewport = { width: 1440, height: 900 }, tz } = {}) {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium" });
  const context = await browser.newContext({ viewport, colorScheme: dark ? "dark" : "light", ...(tz ? { timezoneId: tz } : {}), acceptDownloads: true });
  token = token ?? (await login());
  await context.addInitScript((t) => { if (!sessionStorage.getItem("vigil.session.token")) sessionStorage.setItem("vigil.session.token", t); }, token);
  const page = await context.newPage();
  const errors = [];
  page.on("console", (m) => { if (m.type() === "error" || m.type() === "warning") errors.push(`${m.type()}: ${m.text()}`); });
  page.on("pageerror", (e) => errors.push("pageerror: " + e.message));
  return { browser, context, page, errors, token };
}
export const W = () => `${BASE}/w/${cfg.ws}`;
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
