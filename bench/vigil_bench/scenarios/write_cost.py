"""Scenario 1: fixed-load write cost — CPU, RSS and disk growth at the same load.

Simulated hosts, each a node_exporter-like set of 1,383 series, push every 5 s (the published
run: 344 hosts, ~0.5 M active series, 100 k points/s on 16-core hosts). Here the host count is
scaled to this 2-core machine. Every system gets the same load in turn for the same time;
its process tree is sampled every second, and the load generator's own CPU is reported apart.
"""

from __future__ import annotations

import argparse
import secrets

from ..loadgen import paced
from ..progress import log
from ..runner import RunContext
from ..schema import ScenarioResult
from .common import ResultBuilder

TITLE = "Fixed-load write cost: CPU, RSS and disk growth at the same load"
SYSTEMS = ["vigil", "vigil-storage", "victoriametrics", "influxdb", "postgres"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--hosts", type=int, help="simulated hosts of 1,383 series (default: small 4, full 72)"
    )
    p.add_argument(
        "--duration", type=int, help="seconds of load per system (default: small 6, full 45)"
    )
    p.add_argument(
        "--interval", type=int, default=5, help="seconds between two pushes of a host (default 5)"
    )
    p.add_argument("--generator", choices=["auto", "agent", "builtin"], default="auto")


def run(ctx: RunContext, args: argparse.Namespace) -> ScenarioResult:
    hosts = args.hosts or (4 if ctx.small else 72)
    duration = args.duration or (6 if ctx.small else 45)
    interval = args.interval
    wanted = [s for s in (args.systems or SYSTEMS) if s in SYSTEMS]
    rb = ResultBuilder(
        ctx,
        "write-cost",
        TITLE,
        {
            "hosts": hosts,
            "series": hosts * 1383,
            "interval_s": interval,
            "duration_s": duration,
            "target_points_per_second": round(hosts * 1383 / interval, 1),
            "published_hosts": 344,
            "published_points_per_second": 100_000,
        },
    )
    ok, rb.systems = ctx.probe(wanted)
    prefix = "wc" + secrets.token_hex(3)
    generators = set()
    for sid in ok:
        with ctx.session(sid) as s:
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
            log(f"{sid}: {out.pps:,.0f} points/s for {out.seconds:.0f} s")
    rb.notes.append("generators: " + "; ".join(sorted(generators)))
    for m in rb.measurements:
        if m.metric in ("cpu_percent", "rss_bytes_max") and m.system != "vigil":
            rb.summary[f"{m.metric}/{m.system}"] = m.value
    return rb.build()
