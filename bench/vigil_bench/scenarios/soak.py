"""Scenario 9: soak — steady load through the full Vigil path; everything must stay flat.

After a key-value report that ran 48 h at full CPU. Uses the running stack (``make up``), as
``ingest`` does: first the maximum end-to-end rate is measured (``vigil-agent --simulate``
backfilling through gateway -> Kafka -> consumer -> vigil-storage, timed until the consumer
has written everything), then a fleet of simulated hosts sends at half of it for the chosen
duration (30 min by default; hours are fine). Sampled over time:

- throughput: lines per second the consumer wrote to storage (its own counter);
- RSS and CPU of every process (gateway, Kafka, consumer, storage, and the agent), 1 s;
- Kafka lag: the consumer's lag gauge (records not yet written to storage);
- write-to-queryable lag: a probe point through the gateway every probe interval, polled on
  storage every 50 ms until it answers.

Pass when, over the last window (10 min by default) compared with the first, throughput and
the stack's total RSS are within 10 %, the Kafka and write-to-queryable lags have not grown
by more than 10 % (or by less than a small absolute slack, since both are near zero on a
healthy stack), and nothing was lost: every point the agent sent is stored and every probe
became queryable. The verdict is the summary's ``pass``, as a goal is elsewhere; a loss also
makes the run invalid.
"""

from __future__ import annotations

import argparse
import json
import math
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import cast

from ..agent import finish_agent, start_agent
from ..httpconn import Http
from ..progress import log
from ..runner import RunContext, sampler_for
from ..schema import AnswerCheck, ResourceSeries, ScenarioResult
from ..stats import median, p99
from ..systems.vigil import VigilStack
from .common import ResultBuilder
from .ingest import backfill, establish_fleet, stack_and_agent, wait_for_probe, write_probe

TITLE = "Soak: half the maximum rate through the full Vigil path; throughput, memory, lag flat"
TOLERANCE = 0.10
#: absolute slack before a near-zero lag counts as grown: seconds, and Kafka records
LAG_SLACK_S = 0.5
KAFKA_LAG_SLACK = 50
PROBE_MAX_S = 30.0
#: summary keys of the four flatness verdicts, in order
VERDICT_KEYS = ["throughput", "rss", "kafka_lag", "queryable_lag"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--duration", type=float, help="seconds of steady load (default: small 40, full 1,800)"
    )
    p.add_argument(
        "--window",
        type=float,
        help="seconds of the first and last windows compared (default: small 12, full 600)",
    )
    p.add_argument(
        "--sample-every", type=float, help="seconds between samples (default: small 1, full 5)"
    )
    p.add_argument(
        "--rate", type=float, help="points/s to send (default: half the measured maximum)"
    )
    p.add_argument(
        "--max-hosts",
        type=int,
        help="hosts of the maximum-rate backfill (default: small 3, full 20; 10 ticks each)",
    )
    p.add_argument("--senders", type=int, default=4, help="agent's concurrent requests (default 4)")


@dataclass
class Timeline:
    """Samples over the soak, each (seconds since the load started, value)."""

    throughput: list[tuple[float, float]] = field(default_factory=list)
    kafka_lag: list[tuple[float, float]] = field(default_factory=list)
    probe_lag: list[tuple[float, float]] = field(default_factory=list)
    probes_lost: int = 0


def window(samples: list[tuple[float, float]], lo: float, hi: float) -> list[float]:
    return [v for t, v in samples if lo <= t < hi]


def rss_timeline(series: list[ResourceSeries]) -> list[tuple[float, float]]:
    """Total RSS of the stack's processes (not the generator) per sampling instant."""
    by_t: dict[float, float] = {}
    for r in series:
        if r.role != "system":
            continue
        for s in r.samples:
            t = round(s.t)
            by_t[t] = by_t.get(t, 0.0) + s.rss_bytes
    return sorted(by_t.items())


@dataclass
class Verdict:
    name: str
    first: float
    last: float
    ok: bool
    detail: str


def flat(
    name: str, first: list[float], last: list[float], *, grow_only: bool = False, slack: float = 0.0
) -> Verdict:
    """Whether the last window's mean is within TOLERANCE of the first's.

    grow_only: only a rise counts (a lag that shrinks is fine), and a rise of at most slack
    (an absolute amount) is accepted as well."""
    if not first or not last:
        return Verdict(name, math.nan, math.nan, False, f"{name}: a window has no samples")
    a = sum(first) / len(first)
    b = sum(last) / len(last)
    change = (b - a) / a if a else (0.0 if b == a else math.inf)
    grew_little = b <= a * (1 + TOLERANCE) or b - a <= slack
    ok = grew_little if grow_only else abs(change) <= TOLERANCE
    pct = "n/a" if math.isinf(change) else f"{change * 100:+.1f} %"
    return Verdict(name, a, b, ok, f"{name}: first window {a:,.3f}, last {b:,.3f} ({pct})")


def _stored_points(s: VigilStack, prefix: str, seconds: float) -> int:
    """Every sample of every series of the prefix's hosts in storage."""
    q = f'sum(count_over_time({{host=~"{prefix}-.*"}}[{math.ceil(seconds)}s]))'
    body = s.storage_http().expect(
        "GET", "/api/v1/query", ok=(200,), params={"query": q, "nocache": "1"}
    )
    res = json.loads(body)["data"]["result"]
    return int(float(res[0]["value"][1])) if res else 0


def _soak(
    s: VigilStack,
    *,
    rate: float,
    duration: float,
    sample_every: float,
    prefix: str,
    senders: int,
    tl: Timeline,
) -> tuple[int, int, int, list[ResourceSeries]]:
    """Runs the steady load; returns (points sent, fleet points before it, probes sent,
    resource series)."""
    hosts = max(1, math.ceil(rate / 1383))
    interval = hosts * 1383 / rate
    common = [f"-simulate.senders={senders}", "-simulate.seed=3", f"-simulate.hostPrefix={prefix}"]
    fleet_ticks = establish_fleet(s, hosts=hosts, agent_args=common)
    run_tag = secrets.token_hex(4)
    gw = Http(s.gateway_url, headers={"Authorization": f"Token {s.ingest_key}"})
    smp = sampler_for(s, generator=False)
    agent = start_agent(
        s,
        s.workdir,
        hosts=hosts,
        interval_s=round(interval, 3),
        extra=[f"-simulate.duration={duration:.0f}s", *common],
        name="vigil-agent-soak",
    )
    smp.add("generator (vigil-agent)", agent.pid, role="generator")
    smp.start()
    t0 = time.monotonic()
    stop = threading.Event()
    probes = [0]

    def prober() -> None:
        client = s.storage_http()
        while not stop.is_set():
            t = time.monotonic()
            probes[0] += 1
            write_probe(gw, run_tag, probes[0])
            lag = wait_for_probe(client, run_tag, probes[0], PROBE_MAX_S)
            if lag is None:
                tl.probes_lost += 1
            else:
                tl.probe_lag.append((t - t0, lag))
            stop.wait(max(0.0, sample_every - (time.monotonic() - t)))
        client.close()

    probe_thread = threading.Thread(target=prober, daemon=True)
    probe_thread.start()
    before = last_lines = s.consumer_lines()
    last_t = time.monotonic()
    next_report = t0 + 60
    try:
        while time.monotonic() - t0 < duration:
            time.sleep(max(0.0, last_t + sample_every - time.monotonic()))
            lines, now = s.consumer_lines(), time.monotonic()
            tl.throughput.append((now - t0, (lines - last_lines) / (now - last_t)))
            tl.kafka_lag.append((now - t0, float(s.consumer_lag())))
            last_lines, last_t = lines, now
            if now >= next_report:
                log(
                    f"soak {now - t0:,.0f}/{duration:,.0f} s: {tl.throughput[-1][1]:,.0f} lines/s,"
                    f" Kafka lag {tl.kafka_lag[-1][1]:.0f}"
                )
                next_report += 60
        res = finish_agent(agent, t0, timeout=duration + 300)
        log(f"load over after {time.monotonic() - t0:,.1f} s: {res.sent:,} points sent")
    finally:
        stop.set()
        probe_thread.join()
        gw.close()
    # everything sent is in storage: the consumer wrote as many lines, and Kafka is drained
    s.wait_written(before, res.lines + probes[0])
    log(f"consumer wrote everything after {time.monotonic() - t0:,.1f} s")
    series = smp.stop("soak")
    if res.errors or res.dropped or res.sent != res.points:
        raise RuntimeError(
            f"vigil-agent: {res.errors} send errors, {res.dropped} dropped, {res.sent}/{res.points} sent"
        )
    return res.sent, fleet_ticks * hosts * 1383, probes[0], series


def run(ctx: RunContext, args: argparse.Namespace) -> ScenarioResult:
    duration = args.duration or (40.0 if ctx.small else 1800.0)
    win = args.window or (12.0 if ctx.small else min(600.0, duration / 3))
    sample_every = args.sample_every or (1.0 if ctx.small else 5.0)
    max_hosts = args.max_hosts or (3 if ctx.small else 20)
    senders = args.senders
    if 2 * win > duration:
        raise SystemExit(
            f"vigil-bench: --window {win:g} s is more than half of --duration {duration:g} s"
        )
    rb = ResultBuilder(
        ctx,
        "soak",
        TITLE,
        {
            "duration_s": duration,
            "window_s": win,
            "sample_every_s": sample_every,
            "max_rate_hosts": max_hosts,
            "senders": senders,
            "tolerance": TOLERANCE,
        },
    )
    if not stack_and_agent(ctx, rb):
        return rb.build()
    tl = Timeline()
    with ctx.session("vigil") as system:
        s = cast(VigilStack, system)
        if args.rate:
            max_pps, rate = None, float(args.rate)
        else:
            timed = backfill(
                s,
                hosts=max_hosts,
                ticks=10,
                senders=senders,
                direct=False,
                prefix=f"bsm{secrets.token_hex(3)}",
                phase="maximum rate",
            )
            max_pps = timed.pps
            rb.resources.extend(timed.series)
            rate = max_pps / 2
            log(f"maximum end-to-end rate {max_pps:,.0f} points/s; soaking at {rate:,.0f}")
        prefix = f"bss{secrets.token_hex(3)}"
        t_start = time.monotonic()
        sent, fleet, probes, series = _soak(
            s,
            rate=rate,
            duration=duration,
            sample_every=sample_every,
            prefix=prefix,
            senders=senders,
            tl=tl,
        )
        rb.resources.extend(series)
        # the consumer's counter covers every workspace: count until all is there (or 60 s)
        deadline = time.monotonic() + 60
        while True:
            time.sleep(1.5)  # > storage -search.latencyOffset, before counting
            stored = _stored_points(s, prefix, time.monotonic() - t_start + 180)
            if stored >= sent + fleet or time.monotonic() > deadline:
                break
        log(f"{stored:,} points stored under the soak's hosts")
    rb.parameters["rate_pps"] = round(rate)
    if max_pps is not None:
        rb.add(
            "vigil",
            "max_points_per_second",
            max_pps,
            "points/s",
            labels={"path": "gateway-kafka-consumer"},
        )
    rb.add("vigil", "points_per_second", sent / duration, "points/s", labels={"phase": "soak"})
    for metric, unit, samples in (
        ("lines_per_second", "lines/s", tl.throughput),
        ("kafka_lag_records", "records", tl.kafka_lag),
        ("queryable_lag_s", "s", tl.probe_lag),
    ):
        for t, v in samples:
            at = round(t, 1)
            rb.add("vigil", metric, v, unit, labels={"t_s": f"{at:g}"}, x=at)
    rss = rss_timeline(series)
    lo, hi = win, duration - win
    verdicts = [
        flat(
            "throughput (lines/s)",
            window(tl.throughput, 0, lo),
            window(tl.throughput, hi, duration + 1),
        ),
        flat("stack RSS (bytes)", window(rss, 0, lo), window(rss, hi, duration + 1)),
        flat(
            "Kafka lag (records)",
            window(tl.kafka_lag, 0, lo),
            window(tl.kafka_lag, hi, duration + 1),
            grow_only=True,
            slack=KAFKA_LAG_SLACK,
        ),
        flat(
            "write-to-queryable lag (s)",
            window(tl.probe_lag, 0, lo),
            window(tl.probe_lag, hi, duration + 1),
            grow_only=True,
            slack=LAG_SLACK_S,
        ),
    ]
    # flatness is the verdict (summary "pass"), as a goal is elsewhere; a loss makes the run
    # invalid
    for verdict in verdicts:
        rb.notes.append(f"{'flat' if verdict.ok else 'NOT FLAT'} — {verdict.detail}")
    want = sent + fleet
    rb.checks.append(
        AnswerCheck(
            question="nothing lost: every point stored",
            ok=stored == want,
            systems=["vigil"],
            detail=f"{stored:,} samples stored, {want:,} sent ({sent:,} under load + {fleet:,} fleet)",
        )
    )
    rb.checks.append(
        AnswerCheck(
            question="nothing lost: every probe queryable",
            ok=tl.probes_lost == 0 and probes > 0,
            systems=["vigil"],
            detail=f"{probes} probes, {tl.probes_lost} not queryable within {PROBE_MAX_S:.0f} s",
        )
    )
    lags = [v for _, v in tl.probe_lag]
    rb.summary.update(
        {
            "rate_pps": round(rate),
            "max_pps": None if max_pps is None else round(max_pps),
            "points_sent": sent,
            "points_stored": stored,
            "queryable_lag_p50_s": round(median(lags), 3) if lags else None,
            "queryable_lag_p99_s": round(p99(lags), 3) if lags else None,
            **{
                f"{key}_last_over_first": round(v.last / v.first, 4) if v.first else None
                for key, v in zip(VERDICT_KEYS, verdicts, strict=True)
            },
            "pass": all(v.ok for v in verdicts) and stored == want and tl.probes_lost == 0,
        }
    )
    return rb.build()
