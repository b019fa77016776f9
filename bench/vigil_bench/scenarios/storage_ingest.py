"""vigil-storage vs stock VictoriaMetrics ingesting the same line protocol (issue 3).

Each repetition starts both systems fresh, in alternating order, and sends them the same
data: ``vigil-agent --simulate`` with a fixed seed backfilling as fast as the target accepts
(``-target=storage`` and ``-target=vm``: gzip'd line protocol, same batches, same senders), or
the runner's own generator with ``--generator builtin``. The figure is points/s from the first
request to the last acknowledgement; every stored sample is counted afterwards.
Goal: ratio >= 0.95.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from ..agent import agent_available, finish_agent, start_agent, with_agent_cpu
from ..progress import log
from ..runner import RunContext, load, sampler_for
from ..schema import AnswerCheck, ResourceSeries, ScenarioResult
from ..stats import median, ratio
from ..systems import System
from .common import ResultBuilder, expected_usage_user_points, landed_points, recent_dataset

TITLE = "Storage ingest: vigil-storage vs stock VictoriaMetrics (same line protocol)"
GOAL = 0.95


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--hosts", type=int, help="virtual hosts (1,383 series each)")
    p.add_argument("--ticks", type=int, help="samples per series")
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


def agent_ingest(
    ctx: RunContext,
    s: System,
    *,
    hosts: int,
    ticks: int,
    clients: int,
    interval_s: int = 10,
    label: str = "",
) -> tuple[float, float, list[ResourceSeries], int]:
    """Backfill hosts x ticks with the agent; (points/s, seconds, resources, points sent)."""
    points = hosts * 1383 * ticks
    extra = [
        f"-simulate.backfill={ticks * interval_s + 3600}s",
        f"-simulate.maxPoints={points}",
        f"-simulate.senders={clients}",
        "-simulate.seed=1",
    ]
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


def run(ctx: RunContext, args: argparse.Namespace) -> ScenarioResult:
    hosts = args.hosts or (10 if ctx.small else 100)
    ticks = args.ticks or (20 if ctx.small else 30)
    reps = args.repetitions or (3 if ctx.small else 5)
    gen, why = pick_generator(getattr(args, "generator", "auto"))
    ids = ["vigil-storage", "victoriametrics"]
    ds = recent_dataset("node", hosts, ticks, 10)
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
            "repetitions": reps,
            "clients": args.clients,
            "generator": gen,
            "goal_ratio": GOAL,
        },
    )
    rb.notes.append(f"load generator: {why}")
    ok, rb.systems = ctx.probe(ids)
    if len(ok) < 2:
        rb.valid = False
        rb.notes.append("both systems are needed for a ratio")
        return rb.build()
    payloads = None
    if gen == "builtin":
        log(f"rendering {ds.points_total:,} points of line protocol")
        payloads = [(c.line_protocol("ms"), c.points, c.lines) for c in ds.chunks(args.batch_lines)]
    pps: dict[str, list[float]] = {i: [] for i in ids}
    cost: dict[str, list[float]] = {i: [] for i in ids}  # CPU seconds per million points
    for rep in range(reps):
        order = ids if rep % 2 == 0 else list(reversed(ids))
        for sid in order:
            phase = f"rep {rep + 1}"
            with ctx.session(sid) as s:
                if payloads is None:
                    rate, secs, series, _ = agent_ingest(
                        ctx, s, hosts=hosts, ticks=ticks, clients=args.clients, label=phase
                    )
                else:
                    smp = sampler_for(s).start()
                    res = load(s, payloads, clients=args.clients, label=f"{phase}/{reps} {sid}")
                    series = smp.stop(phase)
                    rate, secs = res.pps, res.elapsed_s
                rb.resources.extend(series)
                pps[sid].append(rate)
                cpu_s = sum(
                    r.cpu_percent_mean / 100 * (r.samples[-1].t if r.samples else secs)
                    for r in series
                    if r.role == "system"
                )
                if cpu_s > 0:
                    cost[sid].append(cpu_s / (rate * secs) * 1e6)
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
                            detail=f"cpu usage_user samples stored {got}, written {want}{late}",
                        )
                    )
    for sid in ids:
        rb.add(sid, "points_per_second", median(pps[sid]), "points/s", reps=pps[sid])
        if cost[sid]:
            rb.add(
                sid, "cpu_seconds_per_million_points", median(cost[sid]), "CPU s", reps=cost[sid]
            )
    r = ratio(median(pps["vigil-storage"]), median(pps["victoriametrics"]))
    rb.summary.update(
        {
            "ratio": None if r is None else round(r, 4),
            "vigil_pps": round(median(pps["vigil-storage"])),
            "reference_pps": round(median(pps["victoriametrics"])),
            "goal": GOAL,
            "pass": r is not None and r >= GOAL,
        }
    )
    rb.resources = [x for x in rb.resources if x.phase == f"rep {reps}"]
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
