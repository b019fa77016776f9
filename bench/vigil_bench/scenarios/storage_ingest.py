"""vigil-storage vs stock VictoriaMetrics ingesting the same line protocol (issue 3).

Each repetition starts both systems fresh, in alternating order, and sends them the same
data: ``vigil-agent --simulate`` with a fixed seed backfilling as fast as the target accepts
(``-target=storage`` and ``-target=vm``: gzip'd line protocol, same batches, same senders), or
the runner's own generator with ``--generator builtin``. The figure is points/s from the first
request to the last acknowledgement; every stored sample is counted afterwards.
Goal: ratio >= 0.95.

Two phases per repetition and system, on the same running instance:

- *backfill*: hosts x 1,383 series x ticks samples, every series new, so series creation
  (index entries) dominates; its ratio is the headline ``ratio``;
- *steady*: once the backfill is flushed and the system idle again, ticks more samples of the
  SAME series at later timestamps, as a fleet sends them once its series exist
  (``steady_ratio``).
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..agent import agent_available, finish_agent, start_agent, with_agent_cpu
from ..datagen import Dataset
from ..progress import log
from ..runner import RunContext, load, sampler_for
from ..sampler import wait_quiet
from ..schema import AnswerCheck, ResourceSeries, ScenarioResult
from ..stats import median, ratio
from ..systems import System
from .common import (
    ResultBuilder,
    expected_usage_user_points,
    landed_points,
    recent_dataset,
    ticks_lasting,
)

TITLE = "Storage ingest: vigil-storage vs stock VictoriaMetrics (same line protocol)"
GOAL = 0.95
#: full mode sizes each phase to last about TARGET_S at the rate a short calibration backfill
#: (CALIBRATION_TICKS of the same hosts into a fresh vigil-storage) measured, within
#: [MIN_TICKS, MAX_TICKS]: each phase then lasts >= 20 s, so its 1 s samples describe it
#: rather than its start and tail, on an idle machine (~0.9 M points/s) and on a loaded one
#: (~0.1 M) alike
TARGET_S = 40.0
CALIBRATION_TICKS = 20
MIN_TICKS = 30
MAX_TICKS = 400
MIN_REP_S = 20.0


def ticks_for(rate_pps: float, hosts: int, target_s: float = TARGET_S) -> int:
    """Ticks of hosts that take about target_s at rate_pps, within [MIN_TICKS, MAX_TICKS]."""
    return ticks_lasting(rate_pps, hosts, target_s, min_ticks=MIN_TICKS, max_ticks=MAX_TICKS)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--hosts", type=int, help="virtual hosts (1,383 series each)")
    p.add_argument(
        "--ticks",
        type=int,
        help=f"samples per series per phase (default: small 20; full: what lasts ~{TARGET_S:g} s"
        " at a calibration backfill's rate)",
    )
    p.add_argument("--repetitions", type=int, help="interleaved repetitions per system")
    p.add_argument(
        "--clients", type=int, default=4, help="concurrent write connections (default 4)"
    )
    p.add_argument(
        "--batch-lines",
        type=int,
        default=5000,
        help="lines per request, builtin generator (default 5000)",
    )
    p.add_argument(
        "--generator",
        choices=["auto", "agent", "builtin"],
        default="auto",
        help="vigil-agent --simulate (auto: when built) or the runner's own generator",
    )


def pick_generator(choice: str) -> tuple[str, str]:
    """(kind, why) of the generator to use."""
    why_not = agent_available()
    if choice == "builtin":
        return "builtin", "chosen with --generator builtin"
    if why_not is None:
        return "vigil-agent", "vigil-agent --simulate"
    if choice == "agent":
        raise SystemExit(f"vigil-bench: --generator agent: {why_not}")
    return "builtin", f"vigil-agent unavailable ({why_not}); the runner's own generator instead"


# The backfill ends this long before now, so that no engine hides its samples as too recent.
END_LAG_S = 3600


def agent_phase_flags(
    *, hosts: int, ticks: int, clients: int, interval_s: int, steady: bool
) -> list[str]:
    """``-simulate`` flags of one phase: hosts x ticks points as fast as the target takes them.

    The backfill's timestamps start (ticks x interval + END_LAG_S) before the agent starts and
    stop END_LAG_S before it; the steady phase starts END_LAG_S before its own (later) start,
    so its first timestamp is past the backfill's last one on the same step grid: the same
    hosts, so the same series, at new timestamps. It uses another seed (other values).
    """
    back = END_LAG_S if steady else ticks * interval_s + END_LAG_S
    return [
        f"-simulate.backfill={back}s",
        f"-simulate.maxPoints={hosts * 1383 * ticks}",
        f"-simulate.senders={clients}",
        f"-simulate.seed={2 if steady else 1}",
    ]


def agent_ingest(
    ctx: RunContext,
    s: System,
    *,
    hosts: int,
    ticks: int,
    clients: int,
    interval_s: int = 10,
    label: str = "",
    steady: bool = False,
) -> tuple[float, float, list[ResourceSeries], int]:
    """One phase with the agent; (points/s, seconds, resources, points sent)."""
    extra = agent_phase_flags(
        hosts=hosts, ticks=ticks, clients=clients, interval_s=interval_s, steady=steady
    )
    smp = sampler_for(s, generator=False)
    agent = start_agent(s, s.workdir, hosts=hosts, interval_s=interval_s, extra=extra)
    smp.add("generator (vigil-agent)", agent.pid, role="generator")
    smp.start()
    t0 = time.monotonic()
    res = finish_agent(agent, t0, timeout=600)
    series = with_agent_cpu(smp.stop(label), res)
    if res.errors or res.dropped or res.sent != res.points:
        raise RuntimeError(
            f"vigil-agent reported {res.errors} send errors, {res.dropped} dropped,"
            f" {res.sent}/{res.points} sent"
        )
    return res.pps, res.agent_seconds, series, res.sent


Payloads = list[tuple[bytes, int, int]]


def phase_payloads(ds: Dataset, ticks: int, batch_lines: int) -> tuple[Payloads, Payloads]:
    """ds's first ticks ticks (the backfill) and the rest (the steady phase), rendered as
    line protocol in batches of batch_lines: the steady phase continues the same series."""
    split = ticks * ds.hosts * ds.shape.lines_per_host

    def render(lo: int, hi: int) -> Payloads:
        return [
            (c.line_protocol("ms"), c.points, c.lines)
            for c in ds.chunks_between(lo, hi, batch_lines)
        ]

    return render(0, split), render(split, ds.lines_total)


def system_cpu_per_million(
    series: list[ResourceSeries], points: float, secs: float
) -> float | None:
    """CPU seconds of the system's processes per million points written, None if unmeasured."""
    cpu_s = sum(
        r.cpu_percent_mean / 100 * (r.samples[-1].t if r.samples else secs)
        for r in series
        if r.role == "system"
    )
    return cpu_s / points * 1e6 if cpu_s > 0 and points > 0 else None


@dataclass
class Phases:
    """Per system, the per-repetition figures of both phases."""

    ids: list[str]
    pps: dict[str, list[float]] = field(default_factory=dict)
    cost: dict[str, list[float]] = field(default_factory=dict)  # CPU s per million points
    steady_pps: dict[str, list[float]] = field(default_factory=dict)
    steady_cost: dict[str, list[float]] = field(default_factory=dict)
    secs: dict[str, list[float]] = field(default_factory=dict)
    steady_secs: dict[str, list[float]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for d in (
            self.pps,
            self.cost,
            self.steady_pps,
            self.steady_cost,
            self.secs,
            self.steady_secs,
        ):
            for i in self.ids:
                d.setdefault(i, [])

    def record(
        self, sid: str, steady: bool, rate: float, cost: float | None, secs: float = 0.0
    ) -> None:
        (self.steady_pps if steady else self.pps)[sid].append(rate)
        (self.steady_secs if steady else self.secs)[sid].append(secs)
        if cost is not None:
            (self.steady_cost if steady else self.cost)[sid].append(cost)


def report_phases(rb: ResultBuilder, ph: Phases, subject: str, reference: str) -> None:
    """Measurements (medians with every repetition) and the summary of both phases."""
    for sid in ph.ids:
        rb.add(sid, "points_per_second", median(ph.pps[sid]), "points/s", reps=ph.pps[sid])
        if ph.cost[sid]:
            rb.add(
                sid,
                "cpu_seconds_per_million_points",
                median(ph.cost[sid]),
                "CPU s",
                reps=ph.cost[sid],
            )
    for sid in ph.ids:
        if ph.steady_pps[sid]:
            rb.add(
                sid,
                "steady_points_per_second",
                median(ph.steady_pps[sid]),
                "points/s",
                reps=ph.steady_pps[sid],
            )
        if ph.steady_cost[sid]:
            rb.add(
                sid,
                "steady_cpu_seconds_per_million_points",
                median(ph.steady_cost[sid]),
                "CPU s",
                reps=ph.steady_cost[sid],
            )
    for sid in ph.ids:
        for phase, secs in (("backfill", ph.secs[sid]), ("steady", ph.steady_secs[sid])):
            if secs:
                rb.add(
                    sid,
                    "repetition_seconds",
                    median(secs),
                    "s",
                    labels={"phase": phase},
                    reps=secs,
                )
    r = ratio(median(ph.pps[subject]), median(ph.pps[reference]))
    rs = ratio(median(ph.steady_pps[subject]), median(ph.steady_pps[reference]))
    rb.summary.update(
        {
            "ratio": None if r is None else round(r, 4),
            "vigil_pps": round(median(ph.pps[subject])),
            "reference_pps": round(median(ph.pps[reference])),
            "goal": GOAL,
            "pass": r is not None and r >= GOAL,
            "steady_ratio": None if rs is None else round(rs, 4),
            "vigil_steady_pps": _rounded(median(ph.steady_pps[subject])),
            "reference_steady_pps": _rounded(median(ph.steady_pps[reference])),
        }
    )


def _rounded(v: float) -> int | None:
    return None if math.isnan(v) else round(v)


def run(ctx: RunContext, args: argparse.Namespace) -> ScenarioResult:
    hosts = args.hosts or (10 if ctx.small else 100)
    reps = args.repetitions or (3 if ctx.small else 5)
    gen, why = pick_generator(getattr(args, "generator", "auto"))
    ids = ["vigil-storage", "victoriametrics"]
    calibration: str | None = None
    if args.ticks:
        ticks = args.ticks
    elif ctx.small or gen == "builtin":
        ticks = 20 if ctx.small else MIN_TICKS
    elif not ctx.probe(ids[:1])[0]:
        ticks = MIN_TICKS  # the probe below reports why; nothing will be timed
    else:
        with ctx.session(ids[0]) as s:
            cal_pps, cal_s, _, _ = agent_ingest(
                ctx,
                s,
                hosts=hosts,
                ticks=CALIBRATION_TICKS,
                clients=args.clients,
                label="calibration",
            )
        ticks = ticks_for(cal_pps, hosts)
        calibration = (
            f"phases sized by a calibration backfill of {CALIBRATION_TICKS} ticks into {ids[0]}:"
            f" {cal_pps:,.0f} points/s ({cal_s:.1f} s), so {ticks} ticks per phase"
            f" (~{TARGET_S:g} s at that rate)"
        )
        log(calibration)
    # Both phases: the backfill's ticks, then as many more of the same series.
    ds = recent_dataset("node", hosts, 2 * ticks, 10, end_lag_s=END_LAG_S)
    rb = ResultBuilder(
        ctx,
        "storage-ingest",
        TITLE,
        {
            "hosts": hosts,
            "ticks": ticks,
            "interval_s": 10,
            "series": hosts * 1383,
            "points": hosts * 1383 * ticks,
            "steady_ticks": ticks,
            "repetitions": reps,
            "clients": args.clients,
            "generator": gen,
            "goal_ratio": GOAL,
        },
    )
    rb.notes.append(f"load generator: {why}")
    if calibration:
        rb.notes.append(calibration)
    rb.notes.append(
        "backfill: every series new (the headline ratio); steady: the same series, later"
        " timestamps, on the same instance once the backfill was flushed and it was idle again"
    )
    ok, rb.systems = ctx.probe(ids)
    if len(ok) < 2:
        rb.valid = False
        rb.notes.append("both systems are needed for a ratio")
        return rb.build()
    payloads: tuple[Payloads, Payloads] | None = None
    if gen == "builtin":
        log(f"rendering {ds.points_total:,} points of line protocol")
        payloads = phase_payloads(ds, ticks, args.batch_lines)
    ph = Phases(ids)
    for rep in range(reps):
        order = ids if rep % 2 == 0 else list(reversed(ids))
        for sid in order:
            with ctx.session(sid) as s:
                for steady in (False, True):
                    phase = f"rep {rep + 1}" + (" steady" if steady else "")
                    if steady:
                        # What the backfill left to flush and merge is not the steady
                        # phase's work.
                        s.settle()
                        idle = wait_quiet(s.processes())
                        log(f"{phase} {sid}: idle {idle:.1f} s after the backfill")
                    if payloads is None:
                        rate, secs, series, _ = agent_ingest(
                            ctx,
                            s,
                            hosts=hosts,
                            ticks=ticks,
                            clients=args.clients,
                            label=phase,
                            steady=steady,
                        )
                    else:
                        smp = sampler_for(s).start()
                        res = load(
                            s,
                            payloads[1 if steady else 0],
                            clients=args.clients,
                            label=f"{phase}/{reps} {sid}",
                        )
                        series = smp.stop(phase)
                        rate, secs = res.pps, res.elapsed_s
                    rb.resources.extend(series)
                    ph.record(
                        sid, steady, rate, system_cpu_per_million(series, rate * secs, secs), secs
                    )
                    log(f"{phase} {sid}: {rate:,.0f} points/s ({secs:.2f} s)")
                if rep == 0:
                    s.settle()
                    want = expected_usage_user_points(ds)

                    def count(s: System = s) -> int | None:
                        if payloads is not None:
                            return landed_points(s, ds)
                        return _agent_landed(s, hosts, ticks)

                    got, waited = _wait_landed(count, want)
                    late = (
                        f" (all searchable {waited:.1f} s after settling)" if waited > 0.5 else ""
                    )
                    rb.checks.append(
                        AnswerCheck(
                            question=f"all points stored ({sid})",
                            ok=got == want,
                            systems=[sid],
                            detail=f"cpu usage_user samples stored {got}, written {want}"
                            f" (backfill and steady phases){late}",
                        )
                    )
    report_phases(rb, ph, "vigil-storage", "victoriametrics")
    short = [x for sid in ids for x in ph.secs[sid] + ph.steady_secs[sid] if x < MIN_REP_S]
    if short and not ctx.small:
        rb.notes.append(
            f"{len(short)} repetition phase(s) lasted under {MIN_REP_S:.0f} s (shortest"
            f" {min(short):.1f} s): their 1 s samples are mostly start-up and tail; raise --ticks"
        )
    rb.resources = [x for x in rb.resources if x.phase in (f"rep {reps}", f"rep {reps} steady")]
    return rb.build()


# How long the stored-points check waits for the last points to become searchable. Right
# after a saturating backfill both systems are still merging: a flush asked for (or the
# visibility flusher) can wait several seconds for VictoriaMetrics' in-memory part limit.
LANDED_TIMEOUT_S = 30.0


def _wait_landed(count: Callable[[], int | None], want: int) -> tuple[int | None, float]:
    """(the stored count, seconds waited beyond the first try) once it reaches want or time is up."""
    t0 = time.monotonic()
    while True:
        got = count()
        waited = time.monotonic() - t0
        if got is None or got >= want or waited > LANDED_TIMEOUT_S:
            return got, waited
        time.sleep(0.25)


def _agent_landed(s: System, hosts: int, ticks: int) -> int | None:
    """cpu usage_user samples of the agent's hosts (sim-00000..) in the last day."""
    import json

    name = "cpu:usage_user" if s.id == "vigil-storage" else "cpu_usage_user"
    q = f'sum(count_over_time({name}{{host=~"sim-.*"}}[2d]))'
    body = s.http().expect("GET", "/api/v1/query", ok=(200,), params={"query": q, "nocache": "1"})  # type: ignore[attr-defined]
    res = json.loads(body)["data"]["result"]
    return int(float(res[0]["value"][1])) if res else 0
