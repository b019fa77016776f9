"""Scenario 1: fixed-load write cost — CPU, RSS and disk growth at the same load.

Simulated hosts, each a node_exporter-like set of 1,383 series, push every 5 s. Full mode is
the published run's scale: 344 hosts, 475,752 active series, ~95 k points/s (it fits this
machine's memory); ``--quick`` is 72 hosts (99.6 k series, ~20 k points/s). Every system gets
the same load in turn for the same time, once one tick of every host has created its series
(the warm-up, timed apart as ``warm_up_seconds``), as on a fleet that has been running; its
process tree is sampled every second, and the load generator's own CPU is reported apart.

A system that cannot keep up is reported, not failed: the run stays bounded in time (the load
stops after the window; batches still in flight get 30 s), and the figures say what share of
the offered points it took, its achieved against offered points/s, and how far behind the
clock it was at the end (``lag_s``). Its CPU is then its cost at saturation, not at the
offered load.
"""

from __future__ import annotations

import argparse
import secrets

from ..loadgen import paced, warm_up
from ..progress import log
from ..runner import RunContext
from ..sampler import wait_quiet
from ..schema import ScenarioResult
from .common import ResultBuilder

TITLE = "Fixed-load write cost: CPU, RSS and disk growth at the same load"
SYSTEMS = ["vigil", "vigil-storage", "victoriametrics", "influxdb", "postgres"]
FULL_HOSTS = 344
QUICK_HOSTS = 72


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--hosts",
        type=int,
        help=f"simulated hosts of 1,383 series (default: small 4, --quick {QUICK_HOSTS},"
        f" full {FULL_HOSTS})",
    )
    p.add_argument(
        "--quick",
        action="store_true",
        help=f"full mode at {QUICK_HOSTS} hosts (~20 k points/s) instead of the published"
        f" {FULL_HOSTS}",
    )
    p.add_argument(
        "--duration",
        type=int,
        help="seconds of load per system (default: small 6, --quick 45, full 60)",
    )
    p.add_argument(
        "--interval", type=int, default=5, help="seconds between two pushes of a host (default 5)"
    )
    p.add_argument("--generator", choices=["auto", "agent", "builtin"], default="auto")


def sizes(ctx: RunContext, args: argparse.Namespace) -> tuple[int, int]:
    """(hosts, seconds of load per system) of this mode."""
    quick = getattr(args, "quick", False)
    hosts = getattr(args, "hosts", None) or (
        4 if ctx.small else QUICK_HOSTS if quick else FULL_HOSTS
    )
    duration = getattr(args, "duration", None) or (6 if ctx.small else 45 if quick else 60)
    return hosts, duration


def run(ctx: RunContext, args: argparse.Namespace) -> ScenarioResult:
    hosts, duration = sizes(ctx, args)
    interval = args.interval
    wanted = [s for s in (args.systems or SYSTEMS) if s in SYSTEMS]
    rb = ResultBuilder(
        ctx,
        "write-cost",
        TITLE,
        {
            "scale": "small"
            if ctx.small
            else "quick"
            if hosts == QUICK_HOSTS
            else ("published" if hosts == FULL_HOSTS else "custom"),
            "hosts": hosts,
            "series": hosts * 1383,
            "interval_s": interval,
            "duration_s": duration,
            "target_points_per_second": round(hosts * 1383 / interval, 1),
            "published_hosts": FULL_HOSTS,
            "published_points_per_second": 100_000,
        },
    )
    ok, rb.systems = ctx.probe(wanted)
    prefix = "wc" + secrets.token_hex(3)
    generators = set()
    for sid in ok:
        with ctx.session(sid) as s:
            warm = warm_up(
                s,
                hosts=hosts,
                interval_s=interval,
                generator=getattr(args, "generator", "auto"),
                host_prefix=prefix,
            )
            s.settle()
            quiet = wait_quiet(s.processes(), limit=60.0)
            rb.add(sid, "warm_up_seconds", warm, "s")
            log(
                f"{sid}: warm-up (one tick of {hosts * 1383:,} new series) {warm:.1f} s,"
                f" idle {quiet:.1f} s later"
            )
            out = paced(
                s,
                hosts=hosts,
                interval_s=interval,
                duration_s=duration,
                generator=getattr(args, "generator", "auto"),
                phase=sid,
                host_prefix=prefix,
            )
            generators.add(f"{sid}: {out.generator}")
            rb.resources.extend(out.resources)
            rb.add(sid, "points_per_second", out.pps, "points/s")
            rb.add(sid, "offered_points_per_second", out.offered_pps, "points/s")
            rb.add(sid, "taken_fraction", out.taken, "")
            rb.add(sid, "lag_s", out.lag_s, "s")
            if out.dropped:
                rb.add(sid, "dropped_points", out.dropped, "points")
            rb.summary[f"kept_up/{sid}"] = out.kept_up
            if not out.kept_up:
                rb.notes.append(
                    f"{sid} did not keep up: {out.pps:,.0f} of {out.offered_pps or 0:,.0f} points/s"
                    f" offered ({100 * (out.taken or 0):.0f} % of the points due),"
                    f" {'at least ' if out.lag_capped else ''}{out.lag_s:.0f} s behind at the end"
                    + (f", {out.dropped:,} points given up on" if out.dropped else "")
                    + "; its CPU is its cost at saturation, not at the offered load"
                )
            for r in out.resources:
                if r.role == "generator":
                    rb.add(sid, "generator_cpu_percent", r.cpu_percent_mean, "%")
                    continue
                rb.add(
                    sid,
                    "cpu_percent",
                    r.cpu_percent_mean,
                    "%",
                    labels={"process": r.name},
                    reps=[x.cpu_percent for x in r.samples],
                )
                rb.add(sid, "rss_bytes_max", r.rss_bytes_max, "bytes", labels={"process": r.name})
                if r.disk_bytes_start is not None and r.disk_bytes_end is not None:
                    rb.add(
                        sid,
                        "disk_growth_bytes",
                        r.disk_bytes_end - r.disk_bytes_start,
                        "bytes",
                        labels={"process": r.name},
                    )
            log(
                f"{sid}: {out.pps:,.0f} of {out.offered_pps or 0:,.0f} points/s offered for"
                f" {out.seconds:.0f} s, {out.lag_s:.1f} s behind at the end"
            )
    rb.notes.append("generators: " + "; ".join(sorted(generators)))
    for m in rb.measurements:
        if m.metric in ("cpu_percent", "rss_bytes_max") and m.system != "vigil":
            rb.summary[f"{m.metric}/{m.system}"] = m.value
    return rb.build()
