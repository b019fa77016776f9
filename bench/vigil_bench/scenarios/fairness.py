"""Fairness between workspaces (issue 24): workspace B's latency while workspace A floods.

Uses the running stack (``make up``) and a second gateway process started for the run with
the stack gateway's own environment (read from ``/proc/<pid>/environ``), so two gateway
processes share A's ingest limit, as they would behind a load balancer.

Two throw-away workspaces are created with the demo login: A, whose ingest limit is set low
(``--a-limit`` points/s, burst the same), and B with the default limits. Their data is written
straight to storage first: B a dashboard's worth (hosts x cpu, mem, disk, net every 10 s over
an hour), A enough series that its queries are slow (``heavy`` measurement, every minute over
12 hours).

B's dashboard refreshes every 2 s (six panel queries through the backend's ``/v1/query/raw``
with B's query key, two viewers) while an agent of B writes 20 lines every 0.5 s through the
gateways, all along; every query's latency and every write's acknowledgement (204) time is
recorded, with its status. B alone is measured for half the phase length before the flood
and half after it (the reference brackets the flood, so that the machine's changing load
weighs on both sides); in between, for the phase length, A floods: in a process of its own
(so that its threads never take the interpreter lock of the process timing B), 32 clients of
A keep a slow PromQL range query each in flight through the backend (a new one as soon as
the last answers, whatever the answer), and A's agents write at three times A's limit
through the two gateways.

Reported: B's query p50/p99 and write acknowledgement p50/p99 in phase 2 over phase 1 (goal
<= 1.5 for queries), B's 429 and 5xx answers (goal: none), A's admitted points/s from the
third second of the flood on against its limit (goal within 10 %), and what A's queries got.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import multiprocessing
import os
import random
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Protocol, cast

from .. import procs
from ..httpconn import Http
from ..progress import log
from ..runner import RunContext, sampler_for
from ..schema import AnswerCheck, ScenarioResult
from ..stats import median, p99, ratio
from ..systems.vigil import VigilStack
from .common import ResultBuilder

TITLE = "Fairness: workspace B's latency while workspace A floods queries and ingest"
GOAL_QUERY_RATIO = 1.5
GOAL_RATE_TOLERANCE = 0.10
A_QUERY_CLIENTS = 32
B_VIEWERS = 2
B_REFRESH_S = 2.0
B_WRITE_EVERY_S = 0.5
B_WRITE_LINES = 20
A_BATCH_LINES = 500
A_SENDERS = 4
WARMUP_S = 3.0

B_PANELS = [
    "M::cpu:(avg(usage_user)) [1h::1m] BY host",
    "M::cpu:(avg(usage_system)) [1h::1m] BY host",
    "M::mem:(avg(used_percent)) [1h::1m] BY host",
    "M::disk:(avg(used_percent)) [1h::1m] BY host",
    "M::net:(avg(bytes_recv)) [1h::1m] BY host",
    "M::cpu:(max(usage_user)) [15m]",
]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--seconds",
        type=int,
        help="length of the flood; B alone is measured half as long before and after it (default: small 8, full 40)",
    )
    p.add_argument(
        "--a-limit", type=int, help="workspace A's ingest points/s (default: small 2000, full 5000)"
    )
    p.add_argument(
        "--a-hosts",
        type=int,
        help="hosts of A's heavy data, 20 series each (default: small 20, full 100)",
    )


@dataclass
class Tenant:
    name: str
    id: str
    ingest_key: str
    query_key: str


@dataclass
class Samples:
    """Latencies (s) of answered requests and the status of every request, by phase."""

    latencies: dict[str, list[float]] = field(default_factory=lambda: collections.defaultdict(list))
    statuses: dict[str, collections.Counter[int]] = field(
        default_factory=lambda: collections.defaultdict(collections.Counter)
    )
    # of the latencies, the part storage took (queries through the backend)
    storage: dict[str, list[float]] = field(default_factory=lambda: collections.defaultdict(list))
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, phase: str | None, status: int, seconds: float) -> None:
        if phase is None:
            return
        with self.lock:
            self.statuses[phase][status] += 1
            if 200 <= status < 300:
                self.latencies[phase].append(seconds)

    def bad(self, phase: str) -> int:
        """429 and 5xx answers (and requests that got no answer, counted as 599)."""
        return sum(n for s, n in self.statuses[phase].items() if s == 429 or s >= 500)


class Phase:
    """The phase now measured: None during warm-up and between phases."""

    def __init__(self) -> None:
        self.name: str | None = None
        self.stop = threading.Event()


def _api(s: VigilStack) -> tuple[Http, dict[str, str]]:
    api = Http(s.backend_url, headers={"Content-Type": "application/json"})
    body = api.expect(
        "POST",
        "/api/v1/auth/login",
        ok=(200,),
        body=json.dumps({"email": s._demo[0], "password": s._demo[1]}).encode(),
    )
    return api, {"Authorization": f"Bearer {json.loads(body)['access_token']}"}


def _tenant(api: Http, auth: dict[str, str], label: str) -> Tenant:
    name = f"bench fairness {label} {time.strftime('%Y%m%dT%H%M%S')} {secrets.token_hex(3)}"
    ws = json.loads(
        api.expect(
            "POST",
            "/api/v1/workspaces",
            ok=(201,),
            body=json.dumps({"name": name}).encode(),
            headers=auth,
        )
    )["id"]
    keys = {}
    for scope in ("ingest", "query"):
        keys[scope] = json.loads(
            api.expect(
                "POST",
                f"/api/v1/workspaces/{ws}/keys",
                ok=(201,),
                body=json.dumps({"name": f"bench {scope}", "scope": scope}).encode(),
                headers=auth,
            )
        )["key"]
    return Tenant(name, ws, keys["ingest"], keys["query"])


def _delete(api: Http, auth: dict[str, str], t: Tenant) -> None:
    if os.environ.get("VIGIL_BENCH_KEEP"):
        log(f"kept workspace {t.name!r} ({t.id}): VIGIL_BENCH_KEEP")
        return
    try:
        api.expect(
            "DELETE",
            f"/api/v1/workspaces/{t.id}",
            ok=(200,),
            body=json.dumps({"confirm_name": t.name}).encode(),
            headers=auth,
        )
    except Exception as e:  # noqa: BLE001 - cleanup; the run's figures stand
        log(f"could not delete workspace {t.name!r}: {e}")


def _lines_b(hosts: int, start_ms: int, ticks: int) -> Iterator[bytes]:
    for i in range(ticks):
        t = start_ms + i * 10_000
        out = []
        for h in range(hosts):
            host = f"b-{h:03d}"
            out.append(
                f"cpu,host={host} usage_user={10 + (h + i) % 50},usage_system={5 + i % 7} {t}\n"
                f"mem,host={host} used_percent={40 + (h * i) % 30} {t}\n"
                f"disk,host={host} used_percent={60 + h % 20} {t}\n"
                f"net,host={host} bytes_recv={1000 * i + h}i {t}\n"
            )
        yield "".join(out).encode()


def _lines_a(hosts: int, start_ms: int, ticks: int) -> Iterator[bytes]:
    rnd = random.Random(1)
    for i in range(ticks):
        t = start_ms + i * 60_000
        out = []
        for h in range(hosts):
            fields = ",".join(f"f{k}={rnd.random() * 100:.3f}" for k in range(20))
            out.append(f"heavy,host=a-{h:04d},rack=r{h % 8} {fields} {t}\n")
        yield "".join(out).encode()


def _seed(s: VigilStack, ws: str, chunks: Iterator[bytes]) -> int:
    http = Http(
        s.storage_url, headers={"Authorization": f"Bearer {s.token}", "X-Vigil-Workspace": ws}
    )
    n = 0
    buf: list[bytes] = []
    size = 0
    for c in chunks:
        buf.append(c)
        size += len(c)
        if size > 2_000_000:
            http.expect(
                "POST", "/internal/v1/write/line", params={"precision": "ms"}, body=b"".join(buf)
            )
            n += sum(x.count(b"\n") for x in buf)
            buf, size = [], 0
    if buf:
        http.expect(
            "POST", "/internal/v1/write/line", params={"precision": "ms"}, body=b"".join(buf)
        )
        n += sum(x.count(b"\n") for x in buf)
    http.close()
    return n


def _a_query() -> dict[str, str]:
    """A's slow question: per host, the most of every field over 30-minute windows, every
    minute for 12 hours, through the Prometheus API."""
    end = int(time.time()) - 60
    return {
        "query": 'max by (host) (max_over_time({__measurement__="heavy"}[30m]))',
        "start": str(end - 12 * 3600),
        "end": str(end),
        "step": "60",
    }


def _loop(phase: Phase, fn: Callable[[], None], every: float | None = None) -> threading.Thread:
    def run() -> None:
        nxt = time.monotonic()
        while not phase.stop.is_set():
            fn()
            if every is not None:
                nxt += every
                phase.stop.wait(max(0.0, nxt - time.monotonic()))

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


def _timed(http: Http, phase: Phase, samples: Samples, method: str, path: str, **kw: object) -> int:
    name = phase.name
    t0 = time.monotonic()
    try:
        status, _ = http.request(method, path, **kw)  # type: ignore[arg-type]
    except OSError:
        status = 599
    samples.add(name, status, time.monotonic() - t0)
    if name is not None and status == 200:
        # the backend says how long storage took (Server-Timing: storage;dur=<ms>)
        timing = dict(
            p.strip().split(";dur=", 1)
            for p in http.last_headers.get("server-timing", "").split(",")
            if ";dur=" in p
        )
        if "storage" in timing:
            with samples.lock:
                samples.storage[name].append(float(timing["storage"]) / 1000)
    return status


def run(ctx: RunContext, args: argparse.Namespace) -> ScenarioResult:
    seconds = args.seconds or (8 if ctx.small else 40)
    a_limit = args.a_limit or (2000 if ctx.small else 5000)
    a_hosts = args.a_hosts or (20 if ctx.small else 100)
    rb = ResultBuilder(
        ctx,
        "fairness",
        TITLE,
        {
            "phase_seconds": seconds,
            "a_limit_pps": a_limit,
            "a_offered_pps": 3 * a_limit,
            "a_query_clients": A_QUERY_CLIENTS,
            "a_series": a_hosts * 20,
            "b_viewers": B_VIEWERS,
            "b_panels": len(B_PANELS),
            "b_refresh_s": B_REFRESH_S,
            "gateways": 2,
            "goal_query_ratio": GOAL_QUERY_RATIO,
        },
    )
    ok, rb.systems = ctx.probe(["vigil"])
    if not ok:
        rb.valid = False
        rb.notes.append("needs the running stack (make up)")
        return rb.build()
    with ctx.session("vigil") as system:
        s = cast(VigilStack, system)
        api, auth = _api(s)
        a = _tenant(api, auth, "A")
        b = _tenant(api, auth, "B")
        gw2: procs.Service | None = None
        try:
            api.expect(
                "PATCH",
                f"/api/v1/workspaces/{a.id}/limits",
                ok=(200,),
                body=json.dumps(
                    {"ingest_points_per_second": a_limit, "ingest_burst": a_limit}
                ).encode(),
                headers=auth,
            )
            gw2, gw2_url = s.start_copy("gateway", "VIGIL_GATEWAY_PORT", ctx.workdir)
            gateways = [s.gateway_url, gw2_url]
            now = int(time.time() * 1000)
            seeded_b = _seed(s, b.id, _lines_b(10, now - 3600_000, 360))
            seeded_a = _seed(s, a.id, _lines_a(a_hosts, now - 12 * 3600_000, 720))
            log(
                f"seeded B with {seeded_b:,} lines, A with {seeded_a:,} lines; waiting for them to be searchable"
            )
            time.sleep(2.0)
            a_alone = _measure_a_alone(s, a, 1 if ctx.small else 3)
            rb.add("vigil", "a_query_alone_s", a_alone, "s", labels={"workspace": "A"})
            log(f"one slow query of A alone: {a_alone:.2f} s")
            extra = [("gateway-2", gw2.pid)]
            with contextlib.suppress(OSError, ValueError, IndexError):
                extra.append(
                    ("vigil/backend", int((s.run_dir / "backend.pid").read_text().split()[0]))
                )
            result = _phases(s, a, b, gateways, seconds, a_limit, rb, extra)
        finally:
            if gw2 is not None:
                gw2.stop()
            _delete(api, auth, a)
            _delete(api, auth, b)
            api.close()
    _summarize(rb, result, a_limit)
    return rb.build()


def _measure_a_alone(s: VigilStack, a: Tenant, reps: int) -> float:
    http = Http(s.backend_url, headers={"Authorization": f"Bearer {a.query_key}"})
    took = []
    for _ in range(reps):
        t0 = time.monotonic()
        http.expect("GET", "/prometheus/api/v1/query_range", ok=(200,), params=_a_query())
        took.append(time.monotonic() - t0)
    http.close()
    return median(took)


@dataclass
class Result:
    b_queries: Samples
    b_writes: Samples
    a_queries: Samples
    a_accepted_per_s: dict[int, int]
    a_writes: collections.Counter[int]


@dataclass
class FloodPlan:
    backend_url: str
    gateways: list[str]
    query_key: str
    ingest_key: str
    limit: int


def _flood(plan: FloodPlan, ready: EventLike, stop: EventLike, out: QueueLike) -> None:
    """A's load, in a process of its own so that its threads never hold the interpreter lock
    of the process that times B: 32 query clients and the ingest senders, until ``stop``.
    Puts ``(query events, write events)`` on ``out``: (wall time, status, seconds or points)."""
    done = threading.Event()
    queries: list[tuple[float, int, float]] = []
    writes: list[tuple[float, int, int]] = []
    lock = threading.Lock()

    def query_client() -> None:
        http = Http(
            plan.backend_url,
            headers={"Authorization": f"Bearer {plan.query_key}", "Accept-Encoding": "gzip"},
            timeout=120,
        )
        while not done.is_set():
            t0 = time.monotonic()
            try:
                status, _ = http.request("GET", "/prometheus/api/v1/query_range", params=_a_query())
            except OSError:
                status = 599
            with lock:
                queries.append((time.time(), status, time.monotonic() - t0))
        http.close()

    def sender(i: int) -> None:
        gw = Http(
            plan.gateways[i % 2], headers={"Authorization": f"Token {plan.ingest_key}"}, timeout=30
        )
        body = "".join(
            f"flood,host=a-{i}-{k % 50},k=k{k} v={k}i\n" for k in range(A_BATCH_LINES)
        ).encode()
        every = A_BATCH_LINES * A_SENDERS / (3 * plan.limit)
        nxt = time.monotonic()
        while not done.is_set():
            try:
                status, _ = gw.request("POST", "/v1/write/metric", body=body)
            except OSError:
                status = 599
            with lock:
                writes.append((time.time(), status, A_BATCH_LINES))
            nxt += every
            done.wait(max(0.0, nxt - time.monotonic()))
        gw.close()

    threads = [threading.Thread(target=query_client, daemon=True) for _ in range(A_QUERY_CLIENTS)]
    threads += [threading.Thread(target=sender, args=(i,), daemon=True) for i in range(A_SENDERS)]
    for t in threads:
        t.start()
    ready.set()
    stop.wait()
    done.set()
    for t in threads:
        t.join(timeout=130)
    out.put((queries, writes))


class EventLike(Protocol):
    def wait(self, timeout: float | None = None) -> bool: ...

    def set(self) -> None: ...


class QueueLike(Protocol):
    def put(self, obj: object) -> None: ...


def _phases(
    s: VigilStack,
    a: Tenant,
    b: Tenant,
    gateways: list[str],
    seconds: int,
    a_limit: int,
    rb: ResultBuilder,
    extra_processes: list[tuple[str, int]],
) -> Result:
    b_queries, b_writes, a_queries = Samples(), Samples(), Samples()
    phase = Phase()
    threads: list[threading.Thread] = []
    loads: list[str] = []

    # B: two viewers of a six-panel dashboard refreshing every 2 s, and an agent.
    for _ in range(B_VIEWERS):
        http = Http(
            s.backend_url,
            headers={
                "Authorization": f"Bearer {b.query_key}",
                "Content-Type": "application/json",
                "Accept-Encoding": "gzip",
            },
        )

        def refresh(http: Http = http) -> None:
            for q in B_PANELS:
                if phase.stop.is_set():
                    return
                body = json.dumps({"queries": [{"query": q}]}).encode()
                _timed(http, phase, b_queries, "POST", "/v1/query/raw", body=body)

        threads.append(_loop(phase, refresh, B_REFRESH_S))
        time.sleep(B_REFRESH_S / B_VIEWERS)
    seq = [0]
    agents = [
        Http(g, headers={"Authorization": f"Token {b.ingest_key}"}, timeout=30) for g in gateways
    ]

    def b_write() -> None:
        seq[0] += 1
        t = int(time.time() * 1000)
        body = "".join(
            f"agent,host=b-{i:03d} v={seq[0]} {t}\n" for i in range(B_WRITE_LINES)
        ).encode()
        gw = agents[seq[0] % 2]
        _timed(
            gw, phase, b_writes, "POST", "/v1/write/metric", params={"precision": "ms"}, body=body
        )

    threads.append(_loop(phase, b_write, B_WRITE_EVERY_S))

    def measure(name: str, label: str, length: float) -> tuple[float, float]:
        loads.append(f"{label}: {os.getloadavg()[0]:.1f}")
        smp = sampler_for(s, generator=True)
        for proc_name, pid in extra_processes:
            smp.add(proc_name, pid, role="system")
        smp.start()
        t1 = time.time()
        phase.name = name
        time.sleep(length)
        phase.name = None
        t2 = time.time()
        rb.resources.extend(smp.stop(label))
        return t1, t2

    # B alone, A floods, B alone again: the reference brackets the flood, so that a change of
    # the machine's load during the run weighs on both sides.
    time.sleep(WARMUP_S)
    log(f"phase 1: B alone for {seconds / 2:.0f} s")
    measure("alone", "B alone (before)", seconds / 2)

    mp = multiprocessing.get_context("spawn")
    ready, stop, out = mp.Event(), mp.Event(), mp.Queue()
    plan = FloodPlan(s.backend_url, gateways, a.query_key, a.ingest_key, a_limit)
    flood = mp.Process(target=_flood, args=(plan, ready, stop, out), daemon=True)
    flood.start()
    # a new interpreter takes a while to start on a loaded machine: the warm-up counts from
    # when A's load runs
    if not ready.wait(120):
        raise RuntimeError("the process of A's load did not start within 120 s")
    time.sleep(WARMUP_S)
    log(f"phase 2: A floods while B goes on, for {seconds} s")
    t1, t2 = measure("flood", "A floods", seconds)
    stop.set()
    a_query_events, a_write_events = out.get(timeout=300)
    flood.join(timeout=30)
    log(f"phase 3: B alone again for {seconds / 2:.0f} s")
    measure("alone", "B alone (after)", seconds / 2)
    phase.stop.set()
    for t in threads:
        t.join(timeout=60)
    for g in agents:
        g.close()

    rb.notes.append(
        "load average (1 min) of the machine as each phase started, other work included: "
        + ", ".join(loads)
    )
    for at, status, took in a_query_events:
        if t1 <= at < t2:
            a_queries.add("flood", status, took)
    a_writes: collections.Counter[int] = collections.Counter()
    per_s: collections.Counter[int] = collections.Counter({k: 0 for k in range(int(seconds))})
    for at, status, points in a_write_events:
        a_writes[status] += 1
        if status == 204 and t1 <= at < t2:
            per_s[int(at - t1)] += points
    return Result(b_queries, b_writes, a_queries, dict(per_s), a_writes)


def _summarize(rb: ResultBuilder, r: Result, a_limit: int) -> None:
    def q(samples: Samples, ph: str, fn: Callable[[list[float]], float]) -> float | None:
        xs = samples.latencies.get(ph) or []
        return fn(xs) if xs else None

    figures: dict[str, float | None] = {}
    for what, samples in (("query", r.b_queries), ("write", r.b_writes)):
        for ph in ("alone", "flood"):
            for stat, fn in (("p50", median), ("p99", p99)):
                v = q(samples, ph, fn)
                figures[f"b_{what}_{stat}_{ph}_s"] = v
                rb.add(
                    "vigil",
                    f"b_{what}_{stat}_s",
                    v,
                    "s",
                    labels={"workspace": "B", "phase": ph},
                    reps=samples.latencies.get(ph) if stat == "p50" else None,
                )
        for stat in ("p50", "p99"):
            a_, f_ = figures[f"b_{what}_{stat}_alone_s"], figures[f"b_{what}_{stat}_flood_s"]
            figures[f"b_{what}_{stat}_ratio"] = None if a_ is None or f_ is None else ratio(f_, a_)
    for ph in ("alone", "flood"):
        st = r.b_queries.storage.get(ph) or []
        for stat, fn in (("p50", median), ("p99", p99)):
            v = fn(st) if st else None
            figures[f"b_query_storage_{stat}_{ph}_s"] = v
            rb.add(
                "vigil", f"b_query_storage_{stat}_s", v, "s", labels={"workspace": "B", "phase": ph}
            )
    b_bad = {ph: r.b_queries.bad(ph) + r.b_writes.bad(ph) for ph in ("alone", "flood")}
    for ph in ("alone", "flood"):
        rb.add(
            "vigil", "b_429_or_5xx", b_bad[ph], "requests", labels={"workspace": "B", "phase": ph}
        )
        rb.add(
            "vigil",
            "b_requests",
            sum(r.b_queries.statuses[ph].values()) + sum(r.b_writes.statuses[ph].values()),
            "requests",
            labels={"workspace": "B", "phase": ph},
        )
    per_s = [r.a_accepted_per_s.get(k, 0) for k in sorted(r.a_accepted_per_s)] or [0]
    a_pps = sum(per_s) / max(1, len(per_s))
    a_ratio = a_pps / a_limit
    rb.add(
        "vigil",
        "a_admitted_pps",
        a_pps,
        "points/s",
        labels={"workspace": "A", "limit": str(a_limit)},
        reps=[float(x) for x in per_s],
    )
    a_statuses = dict(sorted(r.a_writes.items()))
    a_q = r.a_queries.statuses.get("flood", collections.Counter())
    rb.add(
        "vigil",
        "a_queries_answered",
        a_q.get(200, 0),
        "queries",
        labels={"workspace": "A", "phase": "flood"},
    )
    rb.add(
        "vigil",
        "a_queries_429",
        a_q.get(429, 0),
        "queries",
        labels={"workspace": "A", "phase": "flood"},
    )
    rb.add(
        "vigil",
        "a_query_p50_s",
        q(r.a_queries, "flood", median),
        "s",
        labels={"workspace": "A", "phase": "flood"},
    )
    rb.notes.append(f"A's writes by status over the whole flood: {a_statuses}")
    rb.notes.append(f"A's queries by status during phase 2: {dict(sorted(a_q.items()))}")
    rb.checks.append(
        AnswerCheck(
            question="B got no 429 or 5xx while A flooded",
            ok=b_bad["flood"] == 0 and b_bad["alone"] == 0,
            systems=["vigil"],
            detail=f"B alone {dict(r.b_queries.statuses['alone'] + r.b_writes.statuses['alone'])}, "
            f"B during the flood {dict(r.b_queries.statuses['flood'] + r.b_writes.statuses['flood'])}",
        )
    )
    rb.checks.append(
        AnswerCheck(
            question="A was refused over its limit",
            ok=a_statuses.get(429, 0) > 0,
            systems=["vigil"],
            detail=f"A's writes by status: {a_statuses}",
        )
    )
    qr = [x for x in (figures["b_query_p50_ratio"], figures["b_query_p99_ratio"]) if x is not None]
    rb.summary.update(
        {
            **{k: (None if v is None else round(v, 4)) for k, v in figures.items()},
            "b_errors_alone": b_bad["alone"],
            "b_errors_flood": b_bad["flood"],
            "a_pps": round(a_pps),
            "a_limit_pps": a_limit,
            "a_pps_ratio": round(a_ratio, 4),
            "goal_query_ratio": GOAL_QUERY_RATIO,
            "pass": bool(
                len(qr) == 2
                and max(qr) <= GOAL_QUERY_RATIO
                and b_bad["flood"] == 0
                and abs(a_ratio - 1) <= GOAL_RATE_TOLERANCE
            ),
        }
    )
