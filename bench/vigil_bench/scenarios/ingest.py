"""End to end ingest (issue 4): agent -> gateway -> Kafka -> consumer -> storage, against the
same load written straight to the same vigil-storage, in the same run.

Uses the running stack (``make up``). ``vigil-agent --simulate`` backfills the same number of
points (a) through the gateway with the workspace's ingest key and (b) straight to the
stack's vigil-storage (``-target=storage``, internal token), in alternating order; the end to
end time runs until the consumer's lag is back to zero, then the stored samples are counted.
Goal: ratio >= 0.6 on this 2-core machine, where everything shares the cores.

Then, at half the end-to-end rate, a probe point is written through the gateway every
200 ms while the load runs, and storage is polled every 50 ms for it: write-to-queryable lag
p50/p99 (goal p99 <= 2 s). The polls ask for the newest data (``nocache=1``, so
``-search.latencyOffset`` does not hide it).

The lag is measured on an established fleet: before the paced load starts, one tick of every
simulated host and the probe series are written and queryable, because creating ~1,383 series
per host is far slower than adding samples to them (the first tick of the load would otherwise
stall the pipeline for seconds). After the probes, still under the load, the first point of a
brand-new series is timed on its own: VictoriaMetrics can keep a new series out of query
results for up to ~10 s under load (it refreshes its tag-filter cache on a 10 s timer when its
own background flush, not vigil-storage's visibility flush, made the new index entries
searchable), so that figure is reported apart from the goal.
"""

from __future__ import annotations

import argparse
import json
import secrets
import threading
import time
from dataclasses import dataclass
from typing import Any, cast

import psutil

from ..agent import agent_available, finish_agent, start_agent, with_agent_cpu
from ..httpconn import Http
from ..progress import log
from ..runner import RunContext, sampler_for
from ..schema import AnswerCheck, ResourceSeries, ScenarioResult
from ..stats import median, p99, ratio
from ..systems.vigil import VigilStack
from .common import ResultBuilder, ticks_lasting

TITLE = "End-to-end ingest through Kafka vs straight to vigil-storage; write-to-queryable lag"
GOAL_RATIO = 0.6
GOAL_P99_S = 2.0
NEW_SERIES_MAX_S = 30.0
#: full mode sizes each repetition to last about TARGET_S straight to storage (the faster
#: path) at the rate a calibration backfill of CALIBRATION_TICKS measured, within
#: [MIN_TICKS, MAX_TICKS]: each repetition then lasts >= 20 s, so its 1 s samples describe it
TARGET_S = 30.0
CALIBRATION_TICKS = 30
MIN_TICKS = 30
MAX_TICKS = 2000
MIN_REP_S = 20.0


def ticks_for(rate_pps: float, hosts: int, target_s: float = TARGET_S) -> int:
    """Ticks of hosts that take about target_s at rate_pps, within [MIN_TICKS, MAX_TICKS]."""
    return ticks_lasting(rate_pps, hosts, target_s, min_ticks=MIN_TICKS, max_ticks=MAX_TICKS)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--hosts", type=int, help="simulated hosts of 1,383 series (default: small 5, full 20)"
    )
    p.add_argument(
        "--ticks",
        type=int,
        help=f"samples per series (default: small 10; full: what lasts ~{TARGET_S:g} s straight"
        " to storage at a calibration backfill's rate)",
    )
    p.add_argument(
        "--repetitions", type=int, help="interleaved repetitions (default: small 1, full 3)"
    )
    p.add_argument(
        "--lag-seconds",
        type=int,
        help="duration of the lag measurement (default: small 10, full 60)",
    )
    p.add_argument("--senders", type=int, default=4, help="agent's concurrent requests (default 4)")


def stack_and_agent(ctx: RunContext, rb: ResultBuilder) -> bool:
    """Whether the running stack and vigil-agent are there; when not, the result says why and
    is marked invalid."""
    ok, rb.systems = ctx.probe(["vigil"])
    why = agent_available()
    if why:
        rb.notes.append(f"vigil-agent unavailable: {why}")
    if not ok or why:
        rb.valid = False
        rb.notes.append("needs the running stack (make up) and vigil-agent")
        return False
    return True


def stored(s: VigilStack, prefix: str, at: float | None = None) -> int:
    """Samples of cpu usage_user stored for the simulated hosts named ``prefix``-…, over the
    3 days up to ``at`` (Unix seconds; now when None)."""
    q = f'sum(count_over_time(cpu:usage_user{{host=~"{prefix}-.*"}}[3d]))'
    params = {"query": q, "nocache": "1"}
    if at is not None:
        params["time"] = f"{at:.3f}"
    body = s.storage_http().expect("GET", "/api/v1/query", ok=(200,), params=params)
    res = json.loads(body)["data"]["result"]
    return int(float(res[0]["value"][1])) if res else 0


@dataclass
class Timed:
    """One timed backfill: its rate, how long it took, the processes' CPU over it, and the
    machine's (every core, other work included; percent of one core)."""

    pps: float
    elapsed: float
    series: list[ResourceSeries]
    machine_cpu_percent: float


def machine_cpu_percent(before: Any, after: Any) -> float:
    """CPU the whole machine used between two ``psutil.cpu_times()``, percent of one core."""
    idle = (after.idle - before.idle) + (
        getattr(after, "iowait", 0.0) - getattr(before, "iowait", 0.0)
    )
    total = sum(after) - sum(before)
    if total <= 0:
        return 0.0
    return float(100.0 * (psutil.cpu_count() or 1) * (total - idle) / total)


def backfill(
    s: VigilStack,
    *,
    hosts: int,
    ticks: int,
    senders: int,
    direct: bool,
    prefix: str,
    phase: str,
    seed: int = 1,
) -> Timed:
    """Backfill ``ticks`` ticks of ``hosts`` simulated hosts (prefix ``prefix``) through the
    gateway (or, ``direct``, straight to storage) and time it until it is all in storage."""
    points = hosts * 1383 * ticks
    extra = [
        f"-simulate.backfill={ticks * 10 + 600}s",
        f"-simulate.maxPoints={points}",
        f"-simulate.senders={senders}",
        f"-simulate.seed={seed}",
        f"-simulate.hostPrefix={prefix}",
    ]
    smp = sampler_for(s, generator=False)
    before = 0.0 if direct else s.consumer_lines()
    agent = start_agent(s, s.workdir, hosts=hosts, interval_s=10, extra=extra, direct=direct)
    smp.add("generator (vigil-agent)", agent.pid, role="generator")
    smp.start()
    cpu0 = psutil.cpu_times()
    t0 = time.monotonic()
    res = finish_agent(agent, t0, timeout=900)
    # Direct: done when storage acknowledged the last batch. Through Kafka: done when the
    # consumers have written everything (their counters count only what storage acknowledged).
    done = time.monotonic() if direct else s.wait_written(before, res.lines)
    elapsed = done - t0
    series = with_agent_cpu(smp.stop(phase), res)
    machine = machine_cpu_percent(cpu0, psutil.cpu_times())
    time.sleep(1.5)  # > storage -search.latencyOffset, before counting
    if res.errors or res.dropped or res.sent != res.points:
        raise RuntimeError(
            f"vigil-agent: {res.errors} send errors, {res.dropped} dropped, {res.sent}/{res.points} sent"
        )
    return Timed(res.sent / elapsed, elapsed, series, machine)


def write_probe(gw: Http, run: str, n: int) -> None:
    """One probe point (``bench_probe`` ``seq=n``, tag ``run``) through the gateway."""
    line = f"bench_probe,run={run} seq={n} {int(time.time() * 1000)}\n".encode()
    gw.expect("POST", "/v1/write/metric", params={"precision": "ms"}, body=line)


def newest_probe(client: Http, run: str) -> int | None:
    """The highest probe number of run that storage answers with (None: none yet)."""
    q = f'max_over_time(bench_probe:seq{{run="{run}"}}[10m])'
    try:
        body = client.expect("GET", "/api/v1/query", ok=(200,), params={"query": q, "nocache": "1"})
        res = json.loads(body)["data"]["result"]
    except Exception:  # noqa: BLE001 - a failed poll is retried 50 ms later
        return None
    return int(float(res[0]["value"][1])) if res else None


def wait_for_probe(client: Http, run: str, n: int, limit: float) -> float | None:
    """Seconds until probe n of run is queryable, polled every 50 ms (None: not within limit)."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < limit:
        top = newest_probe(client, run)
        if top is not None and top >= n:
            return time.monotonic() - t0
        time.sleep(0.05)
    return None


def establish_fleet(s: VigilStack, *, hosts: int, agent_args: list[str]) -> int:
    """One tick of every simulated host, written and stored before a measurement starts
    (creating ~1,383 series per host is far slower than adding samples to them); returns
    the ticks written."""
    before = s.consumer_lines()
    pre = start_agent(
        s,
        s.workdir,
        hosts=hosts,
        interval_s=1,
        extra=["-simulate.backfill=60s", f"-simulate.maxPoints={hosts * 1383}", *agent_args],
        name="vigil-agent-fleet",
    )
    res = finish_agent(pre, time.monotonic(), timeout=300)
    s.wait_written(before, res.lines)
    return res.ticks


def _lag(
    s: VigilStack, *, rate_pps: float, seconds: int, prefix: str, senders: int
) -> tuple[list[float], int, float | None, list[ResourceSeries]]:
    """Lag samples (s) of probe points written during a paced load of rate_pps on series that
    exist already, the number of probes never seen, and how long the first point of a new
    series took under that load (None when not queryable within NEW_SERIES_MAX_S)."""
    hosts = max(1, round(rate_pps / 1383))  # one tick a second
    common = [f"-simulate.senders={senders}", "-simulate.seed=2", f"-simulate.hostPrefix={prefix}"]
    run_tag = secrets.token_hex(4)
    gw = Http(s.gateway_url, headers={"Authorization": f"Token {s.ingest_key}"})
    http = s.storage_http()

    establish_fleet(s, hosts=hosts, agent_args=common)
    write_probe(gw, run_tag, 0)
    if wait_for_probe(http, run_tag, 0, NEW_SERIES_MAX_S) is None:
        raise RuntimeError(f"the probe series was not queryable within {NEW_SERIES_MAX_S:.0f} s")

    smp = sampler_for(s, generator=False)
    duration = seconds + NEW_SERIES_MAX_S + 10
    agent = start_agent(
        s,
        s.workdir,
        hosts=hosts,
        interval_s=1,
        extra=[f"-simulate.duration={duration:.0f}s", *common],
        name="vigil-agent-lag",
    )
    smp.add("generator (vigil-agent)", agent.pid, role="generator")
    smp.start()
    sent: dict[int, float] = {}
    seen: dict[int, float] = {}
    stop = threading.Event()

    def poll() -> None:
        client = s.storage_http()
        while not stop.is_set():
            top = newest_probe(client, run_tag)
            now = time.monotonic()
            if top is not None:
                for n in list(sent):
                    if n <= top and n not in seen:
                        seen[n] = now
            time.sleep(0.05)
        client.close()

    poller = threading.Thread(target=poll, daemon=True)
    poller.start()
    time.sleep(1.0)  # let the load start
    t_end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < t_end:
        n += 1
        t = time.monotonic()
        sent[n] = t
        write_probe(gw, run_tag, n)
        time.sleep(max(0.0, 0.2 - (time.monotonic() - t)))
    deadline = time.monotonic() + 30
    while len(seen) < len(sent) and time.monotonic() < deadline:
        time.sleep(0.05)
    stop.set()
    poller.join()
    # Under the same load, the first point of a series nobody wrote before.
    fresh = secrets.token_hex(4)
    write_probe(gw, fresh, 1)
    first = wait_for_probe(http, fresh, 1, NEW_SERIES_MAX_S)
    log(
        f"first point of a new series queryable after {first:.2f} s"
        if first is not None
        else f"first point of a new series not queryable within {NEW_SERIES_MAX_S:.0f} s"
    )
    gw.close()
    http.close()
    agent.stop()  # its duration covered the longest wait above
    lags = [seen[k] - sent[k] for k in sorted(seen)]
    return lags, len(sent) - len(seen), first, smp.stop("lag")


def run(ctx: RunContext, args: argparse.Namespace) -> ScenarioResult:
    hosts = args.hosts or (5 if ctx.small else 20)
    ticks = args.ticks or (10 if ctx.small else 0)
    reps = args.repetitions or (1 if ctx.small else 3)
    lag_s = args.lag_seconds or (10 if ctx.small else 60)
    senders = getattr(args, "senders", 4)
    rb = ResultBuilder(
        ctx,
        "ingest",
        TITLE,
        {
            "hosts": hosts,
            "ticks": ticks,
            "points": hosts * 1383 * ticks,
            "repetitions": reps,
            "lag_seconds": lag_s,
            "senders": senders,
            "goal_ratio": GOAL_RATIO,
            "goal_lag_p99_s": GOAL_P99_S,
        },
    )
    if not stack_and_agent(ctx, rb):
        return rb.build()
    e2e: list[float] = []
    direct: list[float] = []
    secs: dict[str, list[float]] = {"e2e": [], "direct": []}
    with ctx.session("vigil") as system:
        s = cast(VigilStack, system)
        if not ticks:
            cal = backfill(
                s,
                hosts=hosts,
                ticks=CALIBRATION_TICKS,
                senders=senders,
                direct=True,
                prefix=f"bic{secrets.token_hex(3)}",
                phase="calibration",
            )
            ticks = ticks_for(cal.pps, hosts)
            note = (
                f"repetitions sized by a calibration backfill of {CALIBRATION_TICKS} ticks"
                f" straight to storage: {cal.pps:,.0f} points/s ({cal.elapsed:.1f} s), so"
                f" {ticks} ticks (~{TARGET_S:g} s at that rate)"
            )
            rb.notes.append(note)
            rb.parameters["ticks"] = ticks
            rb.parameters["points"] = hosts * 1383 * ticks
            log(note)
        for rep in range(reps):
            order = ["e2e", "direct"] if rep % 2 == 0 else ["direct", "e2e"]
            for kind in order:
                prefix = f"bi{kind[0]}{secrets.token_hex(3)}"
                t = backfill(
                    s,
                    hosts=hosts,
                    ticks=ticks,
                    senders=senders,
                    direct=kind == "direct",
                    prefix=prefix,
                    phase=f"{kind} rep {rep + 1}",
                )
                (e2e if kind == "e2e" else direct).append(t.pps)
                secs[kind].append(t.elapsed)
                rb.resources.extend(t.series)
                log(f"rep {rep + 1} {kind}: {t.pps:,.0f} points/s ({t.elapsed:.1f} s)")
                if rep == 0:
                    got, want = stored(s, prefix), hosts * 17 * ticks
                    rb.checks.append(
                        AnswerCheck(
                            question=f"every point stored ({kind})",
                            ok=got == want,
                            systems=["vigil"],
                            detail=f"cpu usage_user samples stored {got}, sent {want} (none missing, none doubled)",
                        )
                    )
        for kind, xs in secs.items():
            rb.add(
                "vigil",
                "repetition_seconds",
                median(xs),
                "s",
                labels={"path": "gateway-kafka-consumer" if kind == "e2e" else "direct"},
                reps=xs,
            )
        short = [x for xs in secs.values() for x in xs if x < MIN_REP_S]
        if short and not ctx.small:
            rb.notes.append(
                f"{len(short)} repetition(s) lasted under {MIN_REP_S:.0f} s (shortest"
                f" {min(short):.1f} s): their 1 s samples are mostly start-up and tail;"
                " raise --ticks"
            )
        rb.add(
            "vigil",
            "points_per_second",
            median(e2e),
            "points/s",
            labels={"path": "gateway-kafka-consumer"},
            reps=e2e,
        )
        rb.add(
            "vigil-storage",
            "points_per_second",
            median(direct),
            "points/s",
            labels={"path": "direct"},
            reps=direct,
        )
        rate = median(e2e) / 2
        lags, lost, first, series = _lag(
            s, rate_pps=rate, seconds=lag_s, prefix=f"bil{secrets.token_hex(3)}", senders=senders
        )
        rb.resources.extend(series)
    r = ratio(median(e2e), median(direct))
    lp50 = median(lags) if lags else None
    lp99 = p99(lags) if lags else None
    rb.add("vigil", "lag_s_p50", lp50, "s", labels={"rate_pps": f"{rate:.0f}"}, reps=lags)
    rb.add("vigil", "lag_s_p99", lp99, "s", labels={"rate_pps": f"{rate:.0f}"})
    rb.add("vigil", "new_series_lag_s", first, "s", labels={"rate_pps": f"{rate:.0f}"})
    rb.checks.append(
        AnswerCheck(
            question="every probe became queryable",
            ok=lost == 0 and bool(lags),
            systems=["vigil"],
            detail=f"{len(lags)} probes seen, {lost} not seen within 30 s",
        )
    )
    rb.summary.update(
        {
            "ratio": None if r is None else round(r, 4),
            "vigil_pps": round(median(e2e)),
            "reference_pps": round(median(direct)),
            "lag_rate_pps": round(rate),
            "lag_p50_s": None if lp50 is None else round(lp50, 3),
            "lag_p99_s": None if lp99 is None else round(lp99, 3),
            "new_series_lag_s": None if first is None else round(first, 3),
            "goal_ratio": GOAL_RATIO,
            "goal_lag_p99_s": GOAL_P99_S,
            "pass": bool(
                r is not None and r >= GOAL_RATIO and lp99 is not None and lp99 <= GOAL_P99_S
            ),
        }
    )
    return rb.build()
