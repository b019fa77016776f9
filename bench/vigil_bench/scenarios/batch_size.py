"""Scenario 5: batch-size sweep — one client uploads rows in batches of 10 ... 100 k.

A *row* is one line of the ``cpu`` measurement with its ten fields (ten points), as in the
client-API report this follows (one row = one timestamp and its columns). Each batch size
writes fresh timestamps to the same series; throughput and request latency per size. Small
batches are dominated by per-request cost (HTTP round trip, parsing setup, for PostgreSQL a
COPY statement per batch). In full mode a level stops after ``--max-requests`` requests so
that batches of 10 do not take minutes; the rows actually written are reported.
"""

from __future__ import annotations

import argparse
import time

from ..datagen import Dataset, HostShape
from ..httpconn import HttpError
from ..progress import log
from ..runner import RunContext, load, sampler_for
from ..schema import ScenarioResult
from ..stats import median, p99
from .common import ResultBuilder, vigil_host_offset

TITLE = "Batch-size sweep: one client, batches of 10 to 100 k rows"
SYSTEMS = ["vigil", "vigil-storage", "victoriametrics", "influxdb", "postgres"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--rows", type=int, help="rows per batch size (default: small 5,000, full 100,000)"
    )
    p.add_argument(
        "--sizes",
        type=lambda s: [int(x) for x in s.split(",")],
        help="batch sizes in rows (default: small 10,100,1000,5000; full 10,...,100000)",
    )
    p.add_argument(
        "--max-requests",
        type=int,
        help="cap of requests per batch size (default: small 300, full 2000)",
    )


def run(ctx: RunContext, args: argparse.Namespace) -> ScenarioResult:
    rows = args.rows or (5_000 if ctx.small else 100_000)
    sizes = args.sizes or ([10, 100, 1000, 5000] if ctx.small else [10, 100, 1000, 10_000, 100_000])
    max_req = args.max_requests or (300 if ctx.small else 2000)
    wanted = [s for s in (args.systems or SYSTEMS) if s in SYSTEMS]
    shape = HostShape.named("cpu")
    hosts = 100
    per_tick = hosts * shape.lines_per_host  # 1,700 rows
    ticks_per_level = -(-rows // per_tick)
    rb = ResultBuilder(
        ctx,
        "batch-size",
        TITLE,
        {
            "rows": rows,
            "points_per_row": 10,
            "batch_sizes": sizes,
            "max_requests": max_req,
            "clients": 1,
            "series": hosts * shape.series_per_host,
        },
    )
    ok, rb.systems = ctx.probe(wanted)
    base = int(time.time() * 1000) - (len(sizes) * ticks_per_level + 120) * 10_000
    for sid in ok:
        offset = vigil_host_offset() if sid == "vigil" else 0
        with ctx.session(sid) as s:
            # Warm-up, not timed: one tick registers every series, so that the first batch
            # size does not pay for series creation alone.
            warm = Dataset(
                shape,
                hosts=hosts,
                ticks=1,
                start_ms=base - base % 1000 + 1234 - 60_000,
                interval_ms=10_000,
                host_offset=offset,
            )
            s.prepare(warm)
            load(
                s,
                [(s.payload(c), c.points, c.lines) for c in warm.chunks(1000)],
                clients=1,
                label="warm-up",
            )
            for n, size in enumerate(sizes):
                level_rows = min(rows, size * max_req)
                ds = Dataset(
                    shape,
                    hosts=hosts,
                    ticks=ticks_per_level,
                    start_ms=base - base % 1000 + 1234 + n * ticks_per_level * 10_000,
                    interval_ms=10_000,
                    host_offset=offset,
                )
                s.prepare(ds)
                chunks = list(ds.chunks_between(0, level_rows, size))
                payloads = [(s.payload(c), c.points, c.lines) for c in chunks]
                smp = sampler_for(s).start()
                before = s.consumer_lines() if sid == "vigil" else 0.0  # type: ignore[attr-defined]
                t0 = time.monotonic()
                try:
                    res = load(s, payloads, clients=1, label=f"{sid} batch {size}")
                except HttpError as e:
                    if e.status not in (413, 429):
                        raise
                    # A limit of the system (the gateway's body size, a rate limit) is a
                    # result of the sweep, not a failure of the run.
                    smp.stop(f"{sid} batch {size}")
                    rb.add(
                        sid,
                        "rows_per_second",
                        None,
                        "rows/s",
                        x=size,
                        labels={"batch_rows": str(size), "refused": f"HTTP {e.status}"},
                    )
                    rb.notes.append(f"{sid} refused batches of {size} rows: {str(e)[:200]}")
                    log(f"{sid} batch {size}: refused (HTTP {e.status})")
                    continue
                if sid == "vigil":
                    res.elapsed_s = s.wait_written(before, res.lines) - t0  # type: ignore[attr-defined]
                rb.resources.extend(smp.stop(f"{sid} batch {size}"))
                rows_s = res.lines / res.elapsed_s
                labels = {"batch_rows": str(size)}
                rb.add(sid, "rows_per_second", rows_s, "rows/s", labels=labels, x=size)
                rb.add(sid, "points_per_second", res.pps, "points/s", labels=labels, x=size)
                rb.add(
                    sid,
                    "request_latency_ms_p50",
                    median(res.latencies_s) * 1000,
                    "ms",
                    labels=labels,
                    x=size,
                )
                rb.add(
                    sid,
                    "request_latency_ms_p99",
                    p99(res.latencies_s) * 1000,
                    "ms",
                    labels=labels,
                    x=size,
                )
                rb.add(sid, "rows_written", res.lines, "rows", labels=labels, x=size)
                log(
                    f"{sid} batch {size}: {rows_s:,.0f} rows/s, p50 {median(res.latencies_s) * 1000:.2f} ms"
                )
        rates = [
            m
            for m in rb.measurements
            if m.system == sid and m.metric == "rows_per_second" and m.value
        ]
        if rates:
            best = max(rates, key=lambda m: m.value or 0)
            rb.summary[f"best_rows_per_second/{sid}"] = best.value
            rb.summary[f"best_batch_rows/{sid}"] = best.x
    rb.notes.append(
        "vigil: time until the consumer has written every batch to storage" if "vigil" in ok else ""
    )
    rb.notes = [n for n in rb.notes if n]
    return rb.build()
