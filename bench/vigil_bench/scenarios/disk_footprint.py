"""Scenario 4: bytes on disk after the same data.

The day of data of scenario 3 is written to each system, each is settled (VictoriaMetrics
family: in-memory rows flushed to parts; InfluxDB: write cache snapshotted to TSM files;
PostgreSQL: VACUUM ANALYZE + CHECKPOINT), then its data directory is measured like ``du``
(allocated blocks). PostgreSQL also reports its table and index sizes, without WAL.
"""

from __future__ import annotations

import argparse

from ..runner import RunContext
from ..schema import ScenarioResult
from .common import ResultBuilder
from .query_latency import day_dataset, run_suite, sizes

TITLE = "Disk footprint after the same data"
SYSTEMS = ["vigil-storage", "victoriametrics", "influxdb", "postgres"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--hosts", type=int, help="virtual hosts of 1,383 series")
    p.add_argument("--interval", type=int, help="seconds between samples")


def run(ctx: RunContext, args: argparse.Namespace) -> ScenarioResult:
    hosts, interval, _ = sizes(ctx, args)
    ds = day_dataset(hosts, interval)
    wanted = [s for s in (args.systems or SYSTEMS) if s in SYSTEMS]
    rb = ResultBuilder(
        ctx,
        "disk-footprint",
        TITLE,
        {
            "hosts": hosts,
            "series": hosts * ds.shape.series_per_host,
            "interval_s": interval,
            "points": ds.points_total,
            "span_h": 24,
        },
    )
    ok, rb.systems = ctx.probe(wanted)
    run_suite(ctx, rb, ok, ds, [], 0, languages={}, measure_disk=True)
    disk = {m.system: m.value for m in rb.measurements if m.metric == "disk_bytes" and m.value}
    for sid, b in disk.items():
        rb.add(sid, "bytes_per_point", b / ds.points_total, "bytes")
    ref = disk.get("vigil-storage")
    for sid, b in disk.items():
        rb.summary[f"disk_bytes/{sid}"] = int(b)
        if ref and sid != "vigil-storage":
            rb.summary[f"vigil_storage_saving_vs/{sid}"] = round(1 - ref / b, 4)
    if not disk:
        rb.valid = False
    return rb.build()
