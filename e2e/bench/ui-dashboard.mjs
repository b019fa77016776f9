// `make bench-ui`: how fast a dashboard of 12 panels over 1,000 series becomes interactive
// in Chromium, against a running stack (`make up`).
//
// It signs up a throw-away user with its own workspace, pushes one hour of data for
// 100 hosts × 10 fields (1,000 series) through the ingest gateway, creates two dashboards
// (the measured one: 10 line panels — one field BY host each, 100 series per panel — plus
// a stat and a table; the reference: one panel over one series), then opens each in a fresh
// browser context (empty HTTP cache, as a first visit) several times, the two alternating;
// then again as returning visits, in one context whose caches hold the app's scripts.
//
// Time to interactive = from navigation start until every panel has drawn its data AND the
// main thread answers a frame + task round trip. The reference dashboard, measured in the
// same run, gives what the app shell alone costs on this machine at this moment.
//
// Prints a table, then one JSON object as the last line.
//   VIGIL_BASE_URL (default http://127.0.0.1:8000), VIGIL_GATEWAY_URL (default :8001),
//   VIGIL_MAIL_URL (the stack's mail sink, default :8026: the sign-up link is read there),
//   BENCH_UI_RUNS (default 5), VIGIL_CHROMIUM (default /usr/bin/chromium),
//   BENCH_UI_PROFILE=FILE.cpuprofile to keep a CPU profile of the first measured open,
//   BENCH_UI_SCREENSHOT=FILE.png to keep a screenshot of it (taken after the timing).
// The throw-away workspace and its data are deleted at the end; BENCH_UI_KEEP=1 keeps them.
import { writeFileSync } from "node:fs";
import { chromium } from "@playwright/test";

const baseURL = process.env.VIGIL_BASE_URL ?? "http://127.0.0.1:8000";
const gatewayURL = process.env.VIGIL_GATEWAY_URL ?? "http://127.0.0.1:8001";
const mailURL = process.env.VIGIL_MAIL_URL ?? "http://127.0.0.1:8026";
const runs = Number(process.env.BENCH_UI_RUNS ?? 5);
const executablePath = process.env.VIGIL_CHROMIUM ?? "/usr/bin/chromium";
const GOAL_MS = 1500;
const HOSTS = 100;
const FIELDS = 10;
const MINUTES = 60;
const TOKEN_KEY = "vigil.session.token";

function log(msg) {
  process.stderr.write(`bench-ui: ${msg}\n`);
}

async function api(method, path, token, body, expected) {
  const res = await fetch(new URL(path, baseURL), {
    method,
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== expected) throw new Error(`${method} ${path}: HTTP ${res.status}: ${text}`);
  return text ? JSON.parse(text) : null;
}

/** The token of the sign-up link emailed to `email`, read from the mail sink. */
async function signupToken(email) {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const res = await fetch(`${mailURL}/messages?to=${encodeURIComponent(email)}`);
    const messages = res.ok ? await res.json() : [];
    for (const m of messages.reverse()) {
      const match = /\/signup\/complete#token=(vge_[A-Za-z0-9_-]+)/.exec(m.text);
      if (match) return match[1];
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no sign-up link for ${email} reached the mail sink at ${mailURL}`);
}

async function setup() {
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const email = `bench-ui-${suffix}@example.com`;
  await api("POST", "/api/v1/auth/signup", null, { email }, 202);
  const { access_token: token } = await api(
    "POST",
    "/api/v1/auth/signup/complete",
    null,
    { token: await signupToken(email), password: `pw-${suffix}-Secret!`, full_name: "UI benchmark" },
    201,
  );
  const ws = await api("POST", "/api/v1/workspaces", token, { name: `bench-ui ${suffix}` }, 201);
  const key = await api("POST", `/api/v1/workspaces/${ws.id}/keys`, token, { name: "bench-ui", scope: "ingest" }, 201);
  return { token, workspaceId: ws.id, workspaceName: ws.name, ingestKey: key.key };
}

/** Deletes the throw-away workspace and its 1,000 series, unless BENCH_UI_KEEP is set. */
async function removeWorkspace(token, workspaceId, workspaceName) {
  if (process.env.BENCH_UI_KEEP) {
    log(`kept workspace ${workspaceId} (BENCH_UI_KEEP)`);
    return;
  }
  try {
    await api("DELETE", `/api/v1/workspaces/${workspaceId}`, token, { confirm_name: workspaceName }, 200);
  } catch (e) {
    log(`could not delete workspace ${workspaceId}: ${e.message ?? e}`);
  }
}

/** One hour at one point a minute for HOSTS hosts × FIELDS fields, pushed as an agent would. */
async function pushData(ingestKey) {
  const end = Math.floor(Date.now() / 60_000) * 60_000;
  const lines = [];
  for (let m = MINUTES; m >= 0; m--) {
    const t = end - m * 60_000;
    for (let h = 0; h < HOSTS; h++) {
      const fields = Array.from({ length: FIELDS }, (_, f) => `f${f}=${(h * 7 + f * 13 + m) % 100}`).join(",");
      lines.push(`uibench,host=h${String(h).padStart(3, "0")} ${fields} ${t}`);
    }
  }
  const chunk = 1000;
  for (let i = 0; i < lines.length; i += chunk) {
    for (;;) {
      const res = await fetch(`${gatewayURL}/v1/write/metric?precision=ms`, {
        method: "POST",
        headers: { Authorization: `Token ${ingestKey}`, "Content-Type": "text/plain" },
        body: lines.slice(i, i + chunk).join("\n"),
      });
      if (res.status === 204) break;
      if (res.status === 429 || res.status === 503) {
        const wait = Number(res.headers.get("retry-after") ?? 1);
        await new Promise((r) => setTimeout(r, wait * 1000));
        continue;
      }
      throw new Error(`gateway: HTTP ${res.status}: ${await res.text()}`);
    }
  }
  return lines.length * FIELDS;
}

async function waitQueryable(token, workspaceId) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await api(
      "POST",
      `/api/v1/workspaces/${workspaceId}/query/raw`,
      token,
      { queries: [{ query: `M::uibench:(count(f${FIELDS - 1})) [2h] BY host SLIMIT 1000` }] },
      200,
    );
    const series = res.content[0]?.series ?? [];
    const points = series.reduce((n, s) => n + (s.values?.[0]?.[1] ?? 0), 0);
    if (series.length === HOSTS && points === HOSTS * (MINUTES + 1)) return;
    if (Date.now() > deadline) throw new Error(`data not queryable after 60 s (${series.length} hosts, ${points} points)`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

function panel(id, i, type, query, extra = {}) {
  const w = 6;
  return {
    id,
    type,
    title: `${type} ${id}`,
    grid: { x: (i % 4) * w, y: Math.floor(i / 4) * 8, w, h: 8 },
    queries: [{ ref_id: "A", query }],
    ...extra,
  };
}

async function createDashboards(token, workspaceId) {
  const panels = [];
  for (let f = 0; f < FIELDS; f++) {
    panels.push(panel(`f${f}`, f, "timeseries", `M::uibench:(avg(f${f})) [::1m] BY host SLIMIT 100`, { unit: "percent" }));
  }
  panels.push(panel("total", FIELDS, "stat", "M::uibench:(avg(f0)) [::1m]", { unit: "percent" }));
  panels.push(panel("table", FIELDS + 1, "table", "M::uibench:(last(f1)) BY host SLIMIT 100", { reduce: "last" }));
  const spec = (ps) => ({ schema_version: 1, time: { from: "now-1h", to: "now" }, variables: [], panels: ps });
  const big = await api(
    "POST",
    `/api/v1/workspaces/${workspaceId}/dashboards`,
    token,
    { title: "UI benchmark: 12 panels × 1,000 series", spec: spec(panels) },
    201,
  );
  const small = await api(
    "POST",
    `/api/v1/workspaces/${workspaceId}/dashboards`,
    token,
    {
      title: "UI benchmark: reference, one series",
      spec: spec([panel("one", 0, "timeseries", "M::uibench:(avg(f0)) { host = 'h000' } [::1m]")]),
    },
    201,
  );
  return { big: big.id, small: small.id, panels: panels.length, queries: panels.map((p) => p.queries[0].query) };
}

/** The server's share: the dashboard's queries sent at once, as the page sends them. */
async function timeQueries(token, workspaceId, queries) {
  const end = Date.now();
  const t0 = performance.now();
  await Promise.all(
    queries.map((query) =>
      api(
        "POST",
        `/api/v1/workspaces/${workspaceId}/query/raw`,
        token,
        { queries: [{ query, time_range: [end - 3_600_000, end] }] },
        200,
      ),
    ),
  );
  return performance.now() - t0;
}

/** In the page: true once every panel shows its data (chart with points, stat value, table rows). */
function allPanelsDrawn(expected) {
  const panels = [...document.querySelectorAll('[data-testid="panel"]')];
  if (panels.length !== expected) return false;
  return panels.every((p) => {
    if (p.querySelector('[role="status"], .spinner')) return false;
    const chart = p.querySelector("[data-point-count]");
    if (chart) return chart.dataset.ready === "true" && Number(chart.dataset.pointCount) > 0;
    if (p.querySelector(".stat-value")) return true;
    return p.querySelectorAll("table tbody tr").length > 0;
  });
}

/** A browser context as a user's browser profile: the page's scripts cached once it has been seen. */
async function newContext(browser, token) {
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  await context.addInitScript(
    ([k, v]) => {
      window.sessionStorage.setItem(k, v);
      window.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.duration]);
      }).observe({ type: "longtask", buffered: true });
    },
    [TOKEN_KEY, token],
  );
  return context;
}

/**
 * Opens `url` in a new page and times it. Without `returning`, in a fresh context (empty HTTP
 * cache, as a first visit); with it, in that context, whose cache holds what earlier opens
 * fetched (as a returning visit: scripts from the HTTP cache, compiled code from V8's cache).
 */
async function measure(browser, token, url, expectedPanels, { profilePath, screenshotPath, returning } = {}) {
  const context = returning ?? (await newContext(browser, token));
  const page = await context.newPage();
  let cdp;
  if (profilePath) {
    cdp = await context.newCDPSession(page);
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.start");
  }
  try {
    await page.goto(url, { waitUntil: "commit" });
    let drawn;
    try {
      drawn = await (
        await page.waitForFunction(allPanelsDrawn, expectedPanels, { polling: "raf", timeout: 30_000 })
      ).jsonValue();
    } catch (e) {
      const shot = process.env.BENCH_UI_FAILURE_PNG ?? "bench-ui-failure.png";
      await page.screenshot({ path: shot, fullPage: true });
      const panels = await page.locator('[data-testid="panel"]').allInnerTexts();
      throw new Error(`panels not drawn within 30 s (screenshot ${shot}); panels: ${JSON.stringify(panels).slice(0, 600)}`);
    }
    const timing = await page.evaluate(async () => {
      const drawnAt = performance.now();
      // the main thread is free again when a frame and a task after it both run
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      const interactive = performance.now();
      const blocking = window.__longTasks.reduce((s, [, d]) => s + Math.max(0, d - 50), 0);
      // the panels' data request(s): sent at, answered at, and storage's share (Server-Timing)
      const data = performance.getEntriesByType("resource").filter((e) => e.name.includes("/query/raw"));
      const storage = (e) => e.serverTiming.find((t) => t.name === "storage")?.duration ?? 0;
      const query = data.length
        ? {
            sent: Math.min(...data.map((e) => e.startTime)),
            answered: Math.max(...data.map((e) => e.responseEnd)),
            storage: Math.max(...data.map(storage)),
          }
        : { sent: 0, answered: 0, storage: 0 };
      return { drawnAt, interactive, blocking, query };
    });
    if (drawn !== true) throw new Error("panels not drawn");
    if (screenshotPath) {
      await page.screenshot({ path: screenshotPath });
      log(`screenshot written to ${screenshotPath}`);
    }
    if (cdp) {
      const { profile } = await cdp.send("Profiler.stop");
      writeFileSync(profilePath, JSON.stringify(profile));
      log(`CPU profile written to ${profilePath} (open it in Chromium's DevTools, Performance tab)`);
    }
    return timing;
  } finally {
    if (returning) await page.close();
    else await context.close();
  }
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

async function main() {
  log(`against ${baseURL} (gateway ${gatewayURL}), ${runs} runs each`);
  const { token, workspaceId, workspaceName, ingestKey } = await setup();
  let measured;
  try {
    measured = await measureAll(token, workspaceId, ingestKey);
  } finally {
    await removeWorkspace(token, workspaceId, workspaceName);
  }
  report(measured);
}

/** Pushes the data, creates the dashboards and opens each `runs` times (after a warm-up). */
async function measureAll(token, workspaceId, ingestKey) {
  const points = await pushData(ingestKey);
  log(`pushed ${points} points (${HOSTS * FIELDS} series)`);
  await waitQueryable(token, workspaceId);
  const ids = await createDashboards(token, workspaceId);
  const browser = await chromium.launch({
    executablePath,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
  const results = { big: [], small: [], bigReturning: [], smallReturning: [] };
  const queryTimes = [];
  for (let i = 0; i <= runs; i++) {
    const t = await timeQueries(token, workspaceId, ids.queries);
    if (i > 0) queryTimes.push(t); // the first warms the server's caches, as the browser's warm-up does
  }
  const queriesMs = median(queryTimes);
  const dashboards = {
    small: { url: new URL(`/w/${workspaceId}/dashboards/${ids.small}`, baseURL).toString(), panels: 1 },
    big: { url: new URL(`/w/${workspaceId}/dashboards/${ids.big}`, baseURL).toString(), panels: ids.panels },
  };
  try {
    // warm-up: server-side caches, Chromium's own start
    for (const d of Object.values(dashboards)) await measure(browser, token, d.url, d.panels);
    // The two dashboards alternate, each first every other time, so that a change in the
    // machine's speed during the run (other tenants of the host) weighs on both alike.
    for (let i = 0; i < runs; i++) {
      for (const name of i % 2 ? ["big", "small"] : ["small", "big"]) {
        const first = name === "big" && i === 0;
        const t = await measure(browser, token, dashboards[name].url, dashboards[name].panels, {
          profilePath: first ? process.env.BENCH_UI_PROFILE : undefined,
          screenshotPath: first ? process.env.BENCH_UI_SCREENSHOT : undefined,
        });
        results[name].push(t);
        log(`${name} run ${i + 1}: interactive at ${t.interactive.toFixed(0)} ms`);
      }
    }
    // Returning visits: one context for both, as one person's browser. V8 keeps a script's
    // compiled code once the script has run twice from the HTTP cache, hence two warm-ups.
    const returning = await newContext(browser, token);
    try {
      for (let w = 0; w < 2; w++) {
        for (const d of Object.values(dashboards)) await measure(browser, token, d.url, d.panels, { returning });
      }
      for (let i = 0; i < runs; i++) {
        for (const name of i % 2 ? ["big", "small"] : ["small", "big"]) {
          const t = await measure(browser, token, dashboards[name].url, dashboards[name].panels, { returning });
          results[`${name}Returning`].push(t);
          log(`${name} returning run ${i + 1}: interactive at ${t.interactive.toFixed(0)} ms`);
        }
      }
    } finally {
      await returning.close();
    }
  } finally {
    await browser.close();
  }
  return { results, queriesMs, panels: ids.panels };
}

/** Prints the table, then the figures as one JSON object on the last line. */
function report({ results, queriesMs, panels }) {
  const summary = (rs) => ({
    drawn: median(rs.map((r) => r.drawnAt)),
    interactive: median(rs.map((r) => r.interactive)),
    worst: Math.max(...rs.map((r) => r.interactive)),
    blocking: median(rs.map((r) => r.blocking)),
    sent: median(rs.map((r) => r.query.sent)),
    answered: median(rs.map((r) => r.query.answered)),
    storage: median(rs.map((r) => r.query.storage)),
  });
  const big = summary(results.big);
  const small = summary(results.small);
  const bigReturning = summary(results.bigReturning);
  const smallReturning = summary(results.smallReturning);
  const row = (label, s) =>
    `${label.padEnd(34)} ${s.drawn.toFixed(0).padStart(8)} ${s.interactive.toFixed(0).padStart(13)} ${s.worst
      .toFixed(0)
      .padStart(9)} ${s.blocking.toFixed(0).padStart(12)}`;
  console.log(`dashboard open in Chromium, fresh context each run, median of ${runs} (ms)`);
  console.log(`${"dashboard".padEnd(34)} ${"drawn".padStart(8)} ${"interactive".padStart(13)} ${"worst".padStart(9)} ${"blocking".padStart(12)}`);
  console.log(row(`12 panels × ${HOSTS * FIELDS} series`, big));
  console.log(row("reference: 1 panel × 1 series", small));
  console.log(`returning visits (scripts cached), median of ${runs} (ms)`);
  console.log(row(`12 panels × ${HOSTS * FIELDS} series`, bigReturning));
  console.log(row("reference: 1 panel × 1 series", smallReturning));
  console.log(
    `in the page, the panels' data: asked for at ${big.sent.toFixed(0)} ms, answered at ${big.answered.toFixed(0)} ms ` +
      `(storage ${big.storage.toFixed(0)} ms of it), drawn ${(big.drawn - big.answered).toFixed(0)} ms later`,
  );
  console.log(`the 12 queries alone, sent at once from Node: ${queriesMs.toFixed(0)} ms (server share of "drawn")`);
  const verdict = (s) => (s.interactive <= GOAL_MS ? "met" : "NOT met");
  console.log(`goal: interactive within ${GOAL_MS} ms -> first visit ${verdict(big)}, returning visit ${verdict(bigReturning)}`);
  console.log(
    JSON.stringify({
      interactive_ms: Math.round(big.interactive),
      worst_ms: Math.round(big.worst),
      drawn_ms: Math.round(big.drawn),
      blocking_ms: Math.round(big.blocking),
      reference_ms: Math.round(small.interactive),
      queries_ms: Math.round(queriesMs),
      data_sent_ms: Math.round(big.sent),
      data_answered_ms: Math.round(big.answered),
      data_storage_ms: Math.round(big.storage),
      ratio: Number((big.interactive / small.interactive).toFixed(2)),
      goal_ms: GOAL_MS,
      goal_met: big.interactive <= GOAL_MS,
      returning_interactive_ms: Math.round(bigReturning.interactive),
      returning_worst_ms: Math.round(bigReturning.worst),
      returning_reference_ms: Math.round(smallReturning.interactive),
      returning_goal_met: bigReturning.interactive <= GOAL_MS,
      panels,
      series: HOSTS * FIELDS,
      runs,
    }),
  );
}

main().catch((e) => {
  console.error(`bench-ui: ${e.message ?? e}`);
  process.exit(1);
});
