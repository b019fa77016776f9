#!/usr/bin/env python3
"""How many monitors one evaluator keeps on schedule, and how fast a crossing is told.

Against the running stack (``make up``), in a throw-away workspace of the demo user:

1. **Schedule.** 100 simulated hosts write a point every 5 s through the gateway. Levels of
   N monitors, each ``BY host`` over the 100 hosts (100 groups) every ``--interval`` seconds,
   run on ONE evaluator (the stack's own is stopped for the run and started again after);
   per level: group evaluations per minute, the evaluator's CPU (cores), storage's CPU, and
   how late evaluations started (p50/p99 of the schedule lag). A level is on schedule when
   at least 95 % of the due evaluations ran and the p99 lag stays under half an interval.
2. **Lag.** On top of the first level's load, a probe monitor watches one host; the bench
   writes a point above the threshold, then one below, ``--crossings`` times, and times each
   from the gateway's 204 to the webhook's arrival at a loopback receiver. Goal: p99 under
   two evaluation intervals.

Prints a table per part and, as the last line, one JSON object with the figures.

    python backend/scripts/bench_alerts.py --env-file .vigil/demo.env [--small]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[2]
CLK_TCK = os.sysconf("SC_CLK_TCK")


def read_env(path: Path) -> dict[str, str]:
    out = {}
    for line in path.read_text().splitlines():
        if "=" in line and not line.lstrip().startswith("#"):
            k, _, v = line.partition("=")
            out[k.strip()] = v.strip()
    return out


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, max(0, int(round(p / 100 * len(s) + 0.5)) - 1))]


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def lib_sh(script: str, env: dict[str, str]) -> None:
    cmd = f"source {shlex.quote(str(ROOT / 'infra' / 'lib.sh'))}\n{script}"
    subprocess.run(["bash", "-c", cmd], env=env, check=True, capture_output=True, timeout=120)


# --- the stack's evaluator, paused for the run -----------------------------------------------


@contextmanager
def own_evaluator(home: Path, webhook_port: int) -> Iterator[tuple[str, int]]:
    """Stop the stack's vigil-alerting (remembering how it ran), run one of ours, give theirs
    back afterwards."""
    pid_file = home / "run" / "alerting.pid"
    saved: tuple[list[str], dict[str, str]] | None = None
    try:
        pid = int(pid_file.read_text().strip())
        os.kill(pid, 0)
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().rstrip(b"\0").decode().split("\0")
        raw = Path(f"/proc/{pid}/environ").read_bytes().rstrip(b"\0").decode(errors="replace")
        saved = (argv, dict(kv.split("=", 1) for kv in raw.split("\0") if "=" in kv))
        lib_sh("stop_service alerting", {**os.environ, "VIGIL_HOME": str(home)})
        log("paused the stack's evaluator for the run")
    except (OSError, ValueError):
        log("the stack's evaluator is not running")
    port = free_port()
    env = {
        **os.environ,
        "VIGIL_HOME": str(home),
        "VIGIL_ALERTING_URL": f"http://127.0.0.1:{port}",
        "VIGIL_ALERTING_WEBHOOK_ALLOW_HOSTS": f"127.0.0.1/32,localhost:{webhook_port}",
    }
    exe = Path(sys.executable).parent / "vigil-alerting"
    log_file = (home / "log" / "bench-alerts-evaluator.log").open("ab")  # noqa: SIM115
    log_file = (home / "log" / "bench-alerts-evaluator.log").open("ab")  # noqa: SIM115
    proc = subprocess.Popen(  # noqa: S603 - our own binary
        [str(exe), "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log_file,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(240):
            try:
                if httpx.get(f"{url}/health", timeout=1).status_code in (200, 503):
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.25)
        yield url, proc.pid
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(60)
        log_file.close()
        log_file.close()
        if saved is not None:
            argv, env0 = saved
            port0 = env0.get("VIGIL_ALERTING_PORT", "")
            lib_sh(
                f"start_service alerting {port0} VIGIL_ALERTING_PORT "
                + " ".join(shlex.quote(a) for a in argv),
                {**env0, "VIGIL_HOME": str(home)},
            )
            log("started the stack's evaluator again")


def metrics(url: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for line in httpx.get(f"{url}/metrics", timeout=5).text.splitlines():
        if line.startswith("vigil_alerting_") and " " in line:
            name, value = line.rsplit(" ", 1)
            out[name] = out.get(name, 0.0) + float(value)
    return out


def lag_quantile(before: dict[str, float], after: dict[str, float], q: float) -> float:
    """The upper bound of the schedule-lag histogram bucket holding quantile q."""
    prefix = 'vigil_alerting_schedule_lag_seconds_bucket{le="'
    buckets = sorted(
        (float(k[len(prefix) :].split('"')[0]), after[k] - before.get(k, 0.0))
        for k in after
        if k.startswith(prefix) and "+Inf" not in k
    )
    total = after.get("vigil_alerting_schedule_lag_seconds_count", 0) - before.get(
        "vigil_alerting_schedule_lag_seconds_count", 0
    )
    for bound, count in buckets:
        if total and count >= q * total:
            return bound
    return float("inf")


# --- the workspace, its data and monitors ------------------------------------------------------


class Api:
    def __init__(self, backend: str, env: dict[str, str]) -> None:
        self.http = httpx.Client(base_url=backend, timeout=60)
        r = self.http.post(
            "/api/v1/auth/login",
            json={"email": env["VIGIL_DEMO_EMAIL"], "password": env["VIGIL_DEMO_PASSWORD"]},
        )
        r.raise_for_status()
        self.http.headers["Authorization"] = f"Bearer {r.json()['access_token']}"
        name = f"bench-alerts-{uuid.uuid4().hex[:8]}"
        self.ws = self.call("POST", "/api/v1/workspaces", json={"name": name})
        self.base = f"/api/v1/workspaces/{self.ws['id']}"
        self.key = self.call(
            "POST", f"{self.base}/keys", json={"name": "bench", "scope": "ingest"}
        )["key"]
        limits = {
            "max_monitors": 10_000,
            "min_monitor_interval_seconds": 1,
            "max_notifications_per_hour": 1_000_000,
        }
        self._plan(env, limits)
        self.call("PATCH", f"{self.base}/limits", json=limits)

    def _plan(self, env: dict[str, str], bounds: dict[str, int]) -> None:
        """As the demo platform operator, put the workspace on a plan that allows ``bounds``."""
        op = httpx.Client(base_url=str(self.http.base_url), timeout=60)
        r = op.post(
            "/api/v1/auth/login",
            json={
                "email": env["VIGIL_DEMO_OPERATOR_EMAIL"],
                "password": env["VIGIL_DEMO_OPERATOR_PASSWORD"],
            },
        )
        r.raise_for_status()
        op.headers["Authorization"] = f"Bearer {r.json()['access_token']}"
        plans = op.get("/api/v1/operator/plans").raise_for_status().json()["data"]
        plan = next((p for p in plans if p["name"] == "bench-alerts"), None)
        if plan is None:
            default = next(p for p in plans if p["is_default"])
            meta = {"id", "name", "description", "is_default", "workspaces", "created_at"}
            body = {k: v for k, v in default.items() if k not in meta | {"updated_at"}} | bounds
            r = op.post("/api/v1/operator/plans", json={"name": "bench-alerts", **body})
            if r.status_code != 201:
                raise RuntimeError(f"creating the plan bench-alerts: {r.status_code} {r.text}")
            plan = r.json()
        wid = self.ws["id"]
        r = op.put(f"/api/v1/operator/workspaces/{wid}/plan", json={"plan_id": plan["id"]})
        if r.status_code != 200:
            raise RuntimeError(f"moving the workspace to bench-alerts: {r.status_code} {r.text}")
        op.close()

    def call(self, method: str, path: str, **kw: Any) -> Any:
        r = self.http.request(method, path, **kw)
        if r.status_code >= 300:
            raise RuntimeError(f"{method} {path}: {r.status_code} {r.text}")
        return r.json()

    def delete(self) -> None:
        self.call("DELETE", self.base, json={"confirm_name": self.ws["name"]})


class Writer(threading.Thread):
    """100 hosts, a point each every 5 s, below every load monitor's threshold."""

    def __init__(self, gateway: str, key: str, hosts: int) -> None:
        super().__init__(daemon=True)
        self.gateway, self.key, self.hosts = gateway, key, hosts
        self.halt = threading.Event()
        self.error: str | None = None

    def run(self) -> None:
        with httpx.Client(timeout=30) as c:
            while not self.halt.is_set():
                now = int(time.time() * 1000)
                body = "\n".join(
                    f"bench_cpu,host=h{i:03d} v={random.uniform(10, 60):.2f} {now}"
                    for i in range(self.hosts)
                )
                r = c.post(
                    f"{self.gateway}/v1/write/metric?precision=ms",
                    content=body,
                    headers={"Authorization": f"Token {self.key}"},
                )
                if r.status_code != 204:
                    self.error = f"{r.status_code} {r.text}"
                self.halt.wait(5)


def schedule_level(
    api: Api, url: str, pid: int, storage_pid: int | None, n: int, interval: int, seconds: float
) -> dict[str, Any]:
    have = len(api.call("GET", f"{api.base}/monitors")["data"])
    for i in range(have, n):
        api.call(
            "POST",
            f"{api.base}/monitors",
            json={
                "name": f"load {i}",
                "query": "M::bench_cpu:(last(v)) BY host",
                "interval_seconds": interval,
                "window_seconds": 30,
                "conditions": [{"severity": "critical", "op": ">", "threshold": 90}],
            },
        )
    time.sleep(interval * 1.5)  # every new monitor has run once
    m0, c0, s0, t0 = (
        metrics(url),
        cpu_seconds(pid),
        cpu_seconds(storage_pid) if storage_pid else 0.0,
        time.time(),
    )
    time.sleep(seconds)
    m1, c1, s1, t1 = (
        metrics(url),
        cpu_seconds(pid),
        cpu_seconds(storage_pid) if storage_pid else 0.0,
        time.time(),
    )
    wall = t1 - t0
    evals = m1.get('vigil_alerting_evaluations_total{outcome="ok"}', 0) - m0.get(
        'vigil_alerting_evaluations_total{outcome="ok"}', 0
    )
    errors = m1.get('vigil_alerting_evaluations_total{outcome="error"}', 0) - m0.get(
        'vigil_alerting_evaluations_total{outcome="error"}', 0
    )
    groups = m1.get("vigil_alerting_group_evaluations_total", 0) - m0.get(
        "vigil_alerting_group_evaluations_total", 0
    )
    expected = n * wall / interval
    p50, p99 = lag_quantile(m0, m1, 0.5), lag_quantile(m0, m1, 0.99)
    return {
        "monitors": n,
        "groups_per_min": round(groups / wall * 60),
        "evaluations": int(evals),
        "errors": int(errors),
        "expected": round(expected),
        "evaluator_cores": round((c1 - c0) / wall, 3),
        "storage_cores": round((s1 - s0) / wall, 3),
        "lag_p50_le_s": p50,
        "lag_p99_le_s": p99,
        "on_schedule": evals >= 0.95 * expected and errors == 0 and p99 <= interval / 2,
    }


@contextmanager
def receiver() -> Iterator[tuple[int, list[tuple[float, dict[str, Any]]]]]:
    got: list[tuple[float, dict[str, Any]]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
            got.append((time.time(), body))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield int(server.server_address[1]), got
    finally:
        server.shutdown()


def crossings(
    api: Api,
    gateway: str,
    port: int,
    got: list[tuple[float, dict[str, Any]]],
    interval: int,
    count: int,
) -> list[float]:
    ch = api.call(
        "POST",
        f"{api.base}/channels",
        json={
            "name": "bench hook",
            "config": {"type": "webhook", "url": f"http://127.0.0.1:{port}/hook"},
        },
    )
    api.call(
        "POST",
        f"{api.base}/monitors",
        json={
            "name": "probe",
            "query": "M::bench_probe:(last(v)) BY host",
            "interval_seconds": interval,
            "window_seconds": 60,
            "conditions": [{"severity": "critical", "op": ">", "threshold": 50}],
            "routes": {"critical": [ch["id"]]},
            "group_grace_seconds": 3600,
        },
    )

    def write(v: float) -> float:
        r = httpx.post(
            f"{gateway}/v1/write/metric?precision=ms",
            content=f"bench_probe,host=p v={v} {int(time.time() * 1000)}",
            headers={"Authorization": f"Token {api.key}"},
            timeout=30,
        )
        if r.status_code != 204:
            raise RuntimeError(f"probe write: {r.status_code} {r.text}")
        return time.time()

    write(0)
    time.sleep(interval * 2)
    lags: list[float] = []
    for k in range(count):
        for value, kind in ((100.0, "firing"), (0.0, "resolved")):
            time.sleep(random.uniform(0, interval))  # cross at any phase of the schedule
            seen = len(got)
            t0 = write(value)
            deadline = time.time() + interval * 6
            while time.time() < deadline and not any(b["kind"] == kind for _, b in got[seen:]):
                time.sleep(0.02)
            arrived = [t for t, b in got[seen:] if b["kind"] == kind]
            if not arrived:
                raise RuntimeError(f"crossing {k}: no {kind} webhook within {interval * 6} s")
            lags.append(arrived[0] - t0)
            log(f"crossing {k + 1}/{count} {kind}: {lags[-1]:.2f} s")
    return lags


COLUMNS = (  # header, key, width, format
    ("monitors", "monitors", 8, "d"),
    ("groups/min", "groups_per_min", 11, ",d"),
    ("evals", "evaluations", 6, "d"),
    ("due", "expected", 6, "d"),
    ("eval cores", "evaluator_cores", 10, ".3f"),
    ("storage cores", "storage_cores", 13, ".3f"),
    ("lag p50 ≤", "lag_p50_le_s", 9, "g"),
    ("lag p99 ≤", "lag_p99_le_s", 9, "g"),
)


def print_table(rows: list[dict[str, Any]], lags: list[float], args: argparse.Namespace) -> None:
    print(
        f"one evaluator, monitors of {args.hosts} groups every {args.interval} s, "
        f"{args.seconds:g} s per level"
    )
    print(" ".join(f"{h:>{w}}" for h, _k, w, _f in COLUMNS) + "  on schedule")
    for r in rows:
        cells = " ".join(f"{r[k]:>{w}{f}}" for _h, k, w, f in COLUMNS)
        print(cells + ("  yes" if r["on_schedule"] else "  NO"))
    lp50, lp99 = pct(lags, 50), pct(lags, 99)
    print(
        f"\nthreshold crossing -> webhook, {len(lags)} crossings at interval {args.interval} s: "
        f"p50 {lp50:.2f} s, p99 {lp99:.2f} s, max {max(lags):.2f} s "
        f"(p99 = {lp99 / args.interval:.2f} intervals)"
    )


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--env-file", type=Path, default=ROOT / ".vigil" / "demo.env")
    p.add_argument("--small", action="store_true", help="one level, 2 crossings (about a minute)")
    p.add_argument("--interval", type=int, default=10, help="seconds between evaluations")
    p.add_argument(
        "--levels", default="17,50,100,200,400", help="monitors per level (100 groups each)"
    )
    p.add_argument("--seconds", type=float, default=40, help="measured time per level")
    p.add_argument("--hosts", type=int, default=100)
    p.add_argument("--crossings", type=int, default=10)
    args = p.parse_args()
    if args.small:
        args.levels, args.seconds, args.crossings, args.interval = "17", 12, 2, 5
    env = {**read_env(args.env_file), **os.environ}
    home = Path(env.get("VIGIL_HOME", ROOT / ".vigil"))
    backend = env.get("VIGIL_BACKEND_URL", "http://127.0.0.1:8000")
    gateway = env.get("VIGIL_GATEWAY_URL", "http://127.0.0.1:8001")
    try:
        storage_pid: int | None = int((home / "run" / "storage.pid").read_text().strip())
    except (OSError, ValueError):
        storage_pid = None
    levels = [int(x) for x in args.levels.split(",")]
    api = Api(backend, env)
    writer = Writer(gateway, api.key, args.hosts)
    writer.start()
    rows: list[dict[str, Any]] = []
    try:
        with receiver() as (port, got), own_evaluator(home, port) as (url, pid):
            time.sleep(6)
            for n in levels:
                log(f"level: {n} monitors × {args.hosts} groups every {args.interval} s")
                rows.append(
                    schedule_level(api, url, pid, storage_pid, n, args.interval, args.seconds)
                )
                log(json.dumps(rows[-1]))
                if not rows[-1]["on_schedule"]:
                    break
            # the lag, on top of the first level's load
            for m in api.call("GET", f"{api.base}/monitors")["data"][levels[0] :]:
                api.call("DELETE", f"{api.base}/monitors/{m['id']}")
            lags = crossings(api, gateway, port, got, args.interval, args.crossings)
    finally:
        writer.halt.set()
        if os.environ.get("VIGIL_BENCH_KEEP") != "1":
            api.delete()
    if writer.error:
        log(f"the writer saw: {writer.error}")

    print_table(rows, lags, args)
    lp50, lp99 = pct(lags, 50), pct(lags, 99)
    on = [r for r in rows if r["on_schedule"]]
    ten_k = next((r for r in rows if r["groups_per_min"] >= 10_000), None)
    summary = {
        "interval_s": args.interval,
        "hosts": args.hosts,
        "levels": rows,
        "max_monitors_on_schedule": max((r["monitors"] for r in on), default=0),
        "max_groups_per_min_on_schedule": max((r["groups_per_min"] for r in on), default=0),
        "cores_at_10k_groups_per_min": ten_k["evaluator_cores"] if ten_k else None,
        "goal_10k_under_one_core": bool(
            ten_k and ten_k["on_schedule"] and ten_k["evaluator_cores"] < 1
        ),
        "lag_p50_s": round(lp50, 3),
        "lag_p99_s": round(lp99, 3),
        "lag_p99_intervals": round(lp99 / args.interval, 3),
        "goal_lag_met": lp99 < 2 * args.interval,
    }
    print(json.dumps(summary))
    return 0  # the goals are figures to read, not a pass/fail of the run


if __name__ == "__main__":
    sys.exit(main())
