"""Scenario 8: read/write mix — last-value lookups with 0, 1, 50 and 100 writes per 1,000.

After an in-memory table benchmark: one series per host (``point`` shape) with an hour of
history is loaded into each system; then C clients (1, and 2x the machine's cores) each run
a fixed sequence of operations for a fixed time: a lookup of the last value of a random
series, or, W times in every 1,000 operations, evenly spread, a write of one new sample of
one series (one line, or one COPY row for PostgreSQL). Operations per second per mix and
client count; the lookups are first answered by every system and compared with the
reference before any timing.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import os
import random
import threading
import time

import psycopg

from ..datagen import Chunk, Dataset
from ..httpconn import HttpError
from ..progress import log
from ..runner import RunContext, sampler_for
from ..schema import AnswerCheck, ScenarioResult
from ..systems import System, Writer
from .common import PayloadCache, ResultBuilder, load_dataset, recent_dataset
from .pointdata import SMALL_SYSTEMS, SYSTEMS, PointClient

TITLE = "Read/write mix: last-value lookups with 0, 1, 50 and 100 writes per 1,000 operations"
MIXES = [0, 1, 50, 100]
CHECKED_LOOKUPS = 20


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--mixes",
        type=lambda s: [int(x) for x in s.split(",")],
        help="writes per 1,000 operations (default 0,1,50,100)",
    )
    p.add_argument(
        "--clients",
        type=lambda s: [int(x) for x in s.split(",")],
        help="client counts (default: 1 and 2x the cores)",
    )
    p.add_argument("--seconds", type=float, help="seconds per cell (default: small 0.5, full 5)")
    p.add_argument(
        "--series", type=int, help="series loaded, one per host (default: small 1,000, full 10,000)"
    )


def is_write(op: int, writes_per_1000: int) -> bool:
    """Whether operation number op (from 0) of a sequence is a write: W in every 1,000,
    evenly spread (the first write is the one that completes the first 1,000/W operations)."""
    return (op + 1) * writes_per_1000 // 1000 > op * writes_per_1000 // 1000


def _run_cell(
    s: System,
    clients: int,
    writes_per_1000: int,
    seconds: float,
    ds: Dataset,
    wds: Dataset,
    counter: itertools.count[int],
) -> tuple[int, int, int, float]:
    """(lookups, writes, refused operations, elapsed) of `clients` threads for `seconds`."""
    barrier = threading.Barrier(clients + 1)
    lock = threading.Lock()
    done = [0, 0, 0]
    fatal: list[BaseException] = []
    stop_at = [float("inf")]

    def worker(i: int) -> None:
        rnd = random.Random(i * 7919 + writes_per_1000)
        reader: PointClient | None = None
        writer: Writer | None = None
        looked = wrote = refused = 0
        try:
            reader = PointClient(s)
            writer = s.writer()
            barrier.wait()
            op = i * 137  # clients do not write in lock step
            while time.monotonic() < stop_at[0]:
                try:
                    if is_write(op, writes_per_1000):
                        n = next(counter) % wds.lines_total
                        writer.write(s.payload(Chunk(wds, n, n + 1)))
                        wrote += 1
                    else:
                        reader.fetch_last(rnd.randrange(ds.host_offset, ds.host_offset + ds.hosts))
                        looked += 1
                except (HttpError, psycopg.Error):
                    refused += 1
                    time.sleep(0.01)
                op += 1
        except threading.BrokenBarrierError:
            pass
        except BaseException as e:  # noqa: BLE001 - surfaced below
            fatal.append(e)
            with contextlib.suppress(threading.BrokenBarrierError):
                barrier.abort()
        finally:
            with lock:
                done[0] += looked
                done[1] += wrote
                done[2] += refused
            if reader is not None:
                reader.close()
            if writer is not None:
                writer.close()

    threads = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(clients)]
    for t in threads:
        t.start()
    with contextlib.suppress(threading.BrokenBarrierError):
        barrier.wait()
    t0 = time.monotonic()
    stop_at[0] = t0 + seconds
    for t in threads:
        t.join()
    elapsed = time.monotonic() - t0
    if fatal:
        raise fatal[0]
    return done[0], done[1], done[2], elapsed


def run(ctx: RunContext, args: argparse.Namespace) -> ScenarioResult:
    mixes = args.mixes or MIXES
    cores = os.cpu_count() or 1
    client_levels = args.clients or [1, 2 * cores]
    seconds = args.seconds or (0.5 if ctx.small else 5.0)
    series = args.series or (1000 if ctx.small else 10_000)
    wanted = [
        s for s in (args.systems or (SMALL_SYSTEMS if ctx.small else SYSTEMS)) if s in SYSTEMS
    ]
    # an hour of history every 60 s, ending 15 minutes ago; the writes follow it, one second
    # apart per series, and stay in the past (no engine drops or hides them as too new)
    ds = recent_dataset("point", series, 60, 60, end_lag_s=900)
    wds = Dataset(ds.shape, hosts=series, ticks=600, start_ms=ds.end_ms, interval_ms=1000)
    rb = ResultBuilder(
        ctx,
        "read-write-mix",
        TITLE,
        {
            "writes_per_1000": mixes,
            "clients": client_levels,
            "seconds_per_cell": seconds,
            "series": series,
            "points_loaded": ds.points_total,
            "write": "one sample of one series per operation",
        },
    )
    ok, rb.systems = ctx.probe(wanted)
    cache = PayloadCache()
    hosts = random.Random(0).sample(range(series), min(CHECKED_LOOKUPS, series))
    ref: tuple[str, list[float | None]] | None = None
    for sid in ok:
        with ctx.session(sid) as s:
            load_dataset(s, ds, cache, clients=2, label=f"loading {sid}")
            s.prepare(wds)
            s.settle()
            client = PointClient(s)
            try:
                got = [client.parse_last(client.fetch_last(h)) for h in hosts]
            except Exception as e:  # noqa: BLE001 - reported as a failed check
                rb.checks.append(
                    AnswerCheck(
                        question="last values", ok=False, systems=[sid], detail=str(e)[:300]
                    )
                )
                continue
            finally:
                client.close()
            if ref is None:
                ref = (sid, got)
                same = all(v is not None for v in got)
                detail = f"reference: {len(got)} last values" if same else "a lookup found nothing"
            else:
                same = got == ref[1]
                first = next(
                    (i for i, (a, b) in enumerate(zip(ref[1], got, strict=True)) if a != b), 0
                )
                detail = (
                    f"same {len(got)} last values as {ref[0]}"
                    if same
                    else f"host {hosts[first]}: {got[first]} vs {ref[1][first]} ({ref[0]})"
                )
            rb.checks.append(
                AnswerCheck(question="last values", ok=same, systems=[sid], detail=detail)
            )
            if not same:
                continue
            counter = itertools.count()
            ops_at: dict[tuple[int, int], float] = {}
            for c in client_levels:
                for w in mixes:
                    smp = sampler_for(s).start()
                    looked, wrote, refused, el = _run_cell(s, c, w, seconds, ds, wds, counter)
                    res = smp.stop(f"{sid} w{w} x{c}")
                    cpu = sum(r.cpu_percent_mean for r in res if r.role == "system")
                    gen = sum(r.cpu_percent_mean for r in res if r.role == "generator")
                    ops = (looked + wrote) / el
                    ops_at[(w, c)] = ops
                    # the sweep label first: the UI reads the sweep position from it
                    labels = {"writes_per_1000": str(w), "clients": str(c)}
                    rb.add(sid, "ops_per_second", ops, "ops/s", labels=labels, x=w)
                    rb.add(sid, "writes_per_second", wrote / el, "ops/s", labels=labels, x=w)
                    if refused:
                        rb.add(sid, "refused_per_second", refused / el, "ops/s", labels=labels, x=w)
                    rb.add(sid, "cpu_percent", cpu, "%", labels=labels, x=w)
                    rb.add(sid, "generator_cpu_percent", gen, "%", labels=labels, x=w)
                    log(
                        f"{sid} {w}/1000 writes x{c}: {ops:,.0f} ops/s ({wrote} writes),"
                        f" system CPU {cpu:.0f} %, generator {gen:.0f} %"
                    )
            top_c, heavy, light = client_levels[-1], max(mixes), min(mixes)
            rb.summary[f"ops_heaviest/{sid}"] = round(ops_at[(heavy, top_c)], 1)
            if ops_at[(light, top_c)] > 0:
                impact = ops_at[(heavy, top_c)] / ops_at[(light, top_c)]
                rb.summary[f"write_impact/{sid}"] = round(impact, 4)
                rb.notes.append(
                    f"{sid}: at {top_c} clients, {heavy} writes per 1,000 run at {impact:.2f}x"
                    f" the operations/s of {light} ({ops_at[(heavy, top_c)]:,.0f} vs"
                    f" {ops_at[(light, top_c)]:,.0f})"
                )
    return rb.build()
