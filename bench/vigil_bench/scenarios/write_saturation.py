"""Scenario 2: write throughput at saturation.

The same backfill (as many points as each system accepts, as fast as it accepts them) is
sent with 1, 2, 4 (and 8) concurrent senders to a fresh instance each time, until CPU is the
bottleneck; the figure is each system's best points/s, with the CPU it used at that level.
For ``vigil`` the time runs until the consumer has written everything to storage.

Full mode times each level (``--seconds``, default 30): the load runs that long whatever the
system's rate, so its 1 s samples describe the level rather than its start and tail, and the
figure is the points acknowledged over the time to the last acknowledgement. Small mode (or
``--ticks``) sends a fixed number of points instead. The runner's own generator (PostgreSQL)
renders up to 20 M points before a timed level and stops sending when the time is up.

Each level also reports the system's CPU seconds per million points, and the summary their
median over the levels (``cpu_s_per_million_points/<system>``): on a machine shared with other
work, points/s follows the share of the cores a system was given, what a point costs much less.
Published single-node figures (16-core hosts): VictoriaMetrics-derived ~2.7 M/s,
InfluxDB ~0.9 M/s, the third system ~0.15 M/s.
"""

from __future__ import annotations

import argparse
import secrets

from ..loadgen import backfill
from ..progress import log
from ..runner import RunContext
from ..schema import ScenarioResult
from ..stats import median
from .common import ResultBuilder

TITLE = "Write throughput at saturation"
SYSTEMS = ["vigil", "vigil-storage", "victoriametrics", "influxdb", "postgres"]
#: full mode: seconds of load per level, so that its 1 s samples describe it
FULL_SECONDS = 30.0


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--hosts", type=int, help="simulated hosts of 1,383 series")
    p.add_argument(
        "--ticks", type=int, help="samples per series: a fixed backfill instead of --seconds"
    )
    p.add_argument(
        "--seconds",
        type=float,
        help=f"seconds of load per level (default: full {FULL_SECONDS:g}; small mode sends 10 ticks"
        " instead)",
    )
    p.add_argument(
        "--levels",
        type=lambda s: [int(x) for x in s.split(",")],
        help="concurrent senders to try, e.g. 1,2,4,8",
    )
    p.add_argument("--generator", choices=["auto", "agent", "builtin"], default="auto")


def sizes(ctx: RunContext, args: argparse.Namespace) -> tuple[int, int, float | None, list[int]]:
    """(hosts, ticks, seconds per level or None for a fixed backfill, sender levels)."""
    hosts = getattr(args, "hosts", None) or (10 if ctx.small else 50)
    seconds: float | None = getattr(args, "seconds", None)
    ticks = getattr(args, "ticks", None)
    if seconds is None and ticks is None and not ctx.small:
        seconds = FULL_SECONDS
    levels = getattr(args, "levels", None) or ([1, 4] if ctx.small else [1, 2, 4, 8])
    return hosts, ticks or 10, seconds, levels


def run(ctx: RunContext, args: argparse.Namespace) -> ScenarioResult:
    hosts, ticks, seconds, levels = sizes(ctx, args)
    wanted = [s for s in (args.systems or SYSTEMS) if s in SYSTEMS]
    rb = ResultBuilder(
        ctx,
        "write-saturation",
        TITLE,
        {
            "hosts": hosts,
            "series": hosts * 1383,
            "seconds_per_level": seconds,
            "ticks": None if seconds else ticks,
            "points": None if seconds else hosts * 1383 * ticks,
            "levels": levels,
        },
    )
    ok, rb.systems = ctx.probe(wanted)
    generators = set()
    rendered: dict[tuple[str, int, int], list[tuple[bytes, int, int]]] = {}
    for sid in ok:
        best = (0.0, 0, 0.0)
        costs: list[float] = []
        for c in levels:
            with ctx.session(sid) as s:
                out = backfill(
                    s,
                    hosts=hosts,
                    ticks=ticks,
                    clients=c,
                    phase=f"{sid} x{c}",
                    generator=getattr(args, "generator", "auto"),
                    host_prefix="ws" + secrets.token_hex(3),
                    host_offset=0,
                    seconds=seconds,
                    payload_cache=rendered,
                )
            generators.add(f"{sid}: {out.generator}")
            cpu = sum(r.cpu_percent_mean for r in out.resources if r.role == "system")
            gen_cpu = sum(r.cpu_percent_mean for r in out.resources if r.role == "generator")
            rb.add(sid, "points_per_second", out.pps, "points/s", labels={"clients": str(c)}, x=c)
            rb.add(sid, "cpu_percent", cpu, "%", labels={"clients": str(c)}, x=c)
            rb.add(sid, "generator_cpu_percent", gen_cpu, "%", labels={"clients": str(c)}, x=c)
            rb.add(sid, "level_seconds", out.seconds, "s", labels={"clients": str(c)}, x=c)
            if out.pps > 0 and cpu > 0:
                # CPU seconds per million points: what a point costs, whatever share of the
                # machine the system got (steadier than points/s on a shared machine)
                cost = cpu / 100 * 1e6 / out.pps
                costs.append(cost)
                rb.add(
                    sid,
                    "cpu_seconds_per_million_points",
                    cost,
                    "CPU s",
                    labels={"clients": str(c)},
                    x=c,
                )
            rb.resources.extend(out.resources)
            log(
                f"{sid} x{c}: {out.pps:,.0f} points/s over {out.seconds:.1f} s, system CPU {cpu:.0f} %, generator CPU {gen_cpu:.0f} %"
            )
            if out.pps > best[0]:
                best = (out.pps, c, cpu)
        rb.add(sid, "max_points_per_second", best[0], "points/s", labels={"clients": str(best[1])})
        rb.summary[f"max_pps/{sid}"] = round(best[0])
        rb.summary[f"cpu_at_max/{sid}"] = round(best[2], 1)
        if costs:
            rb.summary[f"cpu_s_per_million_points/{sid}"] = round(median(costs), 3)
    rb.notes.append("generators: " + "; ".join(sorted(generators)))
    rb.notes.append("CPU % is of one core; this machine has 2, shared with the generator")
    return rb.build()
