"""Scenario 7: concurrent point queries across many partitions.

After a report where a C library upgrade sped such queries up 1.6x with one query and 4.8x
with 100 at once: 4 days of one-series-per-host data (``point`` shape) are loaded into each
system, so every query crosses several of its time partitions (VictoriaMetrics' and
vigil-storage's daily indexes and monthly partitions, InfluxDB's shard groups, PostgreSQL's
one index). At each level C (1, 20, 40, 60, 100), C queries start together, each asking for
the raw samples of 1,000 series drawn at random over the 4 days; the figure is the total time
until the last answer is in (median of the repetitions). A query is first answered by every
system and compared with the reference before any timing.

The curve is explained with the run's C library: the environment's glibc version, and per
system whether its file reads go through glibc at all (a Go binary's do not: the Go runtime
makes the read/pread system calls itself; PostgreSQL's go through glibc's wrappers).
"""

from __future__ import annotations

import argparse
import contextlib
import mmap
import os
import random
import threading
import time
from pathlib import Path

from ..datagen import Dataset, HostShape, unaligned_start
from ..environment import glibc_version
from ..progress import log
from ..questions import answer_size, compare_answers
from ..runner import RunContext, sampler_for
from ..schema import AnswerCheck, ScenarioResult
from ..stats import median
from ..systems import System
from ..systems.postgres import PG_BIN
from .common import PayloadCache, ResultBuilder, load_dataset
from .pointdata import SMALL_SYSTEMS, SYSTEMS, PointClient, range_query

TITLE = "Concurrent point queries: 1 to 100 at once, each 1,000 random series over 4 days"
GO_BUILDINFO_MAGIC = b"\xff Go buildinf:"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--levels",
        type=lambda s: [int(x) for x in s.split(",")],
        help="concurrent queries per level (default: small 1,5; full 1,20,40,60,100)",
    )
    p.add_argument(
        "--series", type=int, help="series loaded, one per host (default: small 1,000, full 10,000)"
    )
    p.add_argument(
        "--per-query",
        type=int,
        help="random series each query reads (default: small 100, full 1,000)",
    )
    p.add_argument("--days", type=int, default=4, help="days of data each query spans (default 4)")
    p.add_argument(
        "--interval", type=int, help="seconds between samples (default: small 14,400, full 3,600)"
    )
    p.add_argument(
        "--repetitions", type=int, help="repetitions per level (default: small 1, full 3)"
    )


def reads_through_glibc(binary: Path) -> tuple[bool, str]:
    """Whether the program's file reads go through glibc, and why, from the binary itself.

    A Go binary (it carries Go's build-info magic) reads files with system calls the Go
    runtime makes itself, whether or not it is linked to libc for other things; a program
    dynamically linked to libc.so.6 calls read/pread through glibc's wrappers.
    """
    try:
        with binary.open("rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
            is_go = m.find(GO_BUILDINFO_MAGIC) >= 0
            libc = m.find(b"libc.so.6") >= 0
    except (OSError, ValueError) as e:
        return False, f"cannot read {binary}: {e}"
    if is_go:
        linked = "dynamically linked to glibc for other calls" if libc else "no libc at all"
        return False, f"Go binary: the Go runtime makes its own read/pread system calls ({linked})"
    if libc:
        return True, "dynamically linked to glibc: read/pread go through glibc's wrappers"
    return False, "not linked to glibc"


def binary_of(system: System) -> Path:
    if system.id == "postgres":
        return PG_BIN / "postgres"
    return Path(system.bin)  # type: ignore[attr-defined]


def _run_level(
    s: System, clients: int, ds: Dataset, per_query: int, seed: int
) -> tuple[float, list[float], int]:
    """C queries started together: (total seconds, each query's seconds, bytes answered)."""
    barrier = threading.Barrier(clients + 1)
    lock = threading.Lock()
    lat: list[float] = []
    size = [0]
    fatal: list[BaseException] = []

    def worker(i: int) -> None:
        q = range_query(ds, per_query, random.Random(seed * 1000 + i))
        conn: PointClient | None = None
        try:
            conn = PointClient(s)
            barrier.wait()
            t = time.monotonic()
            body = conn.fetch_range(q)
            took = time.monotonic() - t
            with lock:
                lat.append(took)
                size[0] += len(body)
        except threading.BrokenBarrierError:
            pass
        except BaseException as e:  # noqa: BLE001 - surfaced below
            fatal.append(e)
            with contextlib.suppress(threading.BrokenBarrierError):
                barrier.abort()
        finally:
            if conn is not None:
                conn.close()

    threads = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(clients)]
    for t in threads:
        t.start()
    with contextlib.suppress(threading.BrokenBarrierError):
        barrier.wait()
    t0 = time.monotonic()
    for t in threads:
        t.join()
    total = time.monotonic() - t0
    if fatal:
        raise fatal[0]
    return total, lat, size[0]


def curve_note(sid: str, totals: dict[int, float], glibc: str, via_glibc: bool, cpu: float) -> str:
    """One sentence on how the total time grows with the level, and what the C library has
    to do with it."""
    levels = sorted(totals)
    one, top = levels[0], levels[-1]
    t1, tn = totals[one], totals[top]
    serial = tn / (top / one * t1) if t1 > 0 else float("nan")
    shape = (
        f"{top} queries at once took {tn:.2f} s, {serial:.2f}x the time of running them one"
        f" after another ({t1 * 1000:.0f} ms alone)"
    )
    cores = os.cpu_count() or 1
    if cpu >= 80 * cores:
        why = f"the {cores} cores are saturated (system CPU {cpu:.0f} % at {top})"
    else:
        why = f"system CPU {cpu:.0f} % at {top}, so queries also wait on something besides CPU"
    if via_glibc:
        libc = (
            f"its reads go through glibc {glibc}'s read/pread wrappers, thin system calls"
            " without a process-wide lock, so the library adds no serialisation of its own"
        )
    else:
        libc = (
            f"its reads do not touch glibc (the host's glibc {glibc} is irrelevant to them):"
            " the curve is the engine's own"
        )
    return f"{sid}: {shape}; {why}; {libc}"


def run(ctx: RunContext, args: argparse.Namespace) -> ScenarioResult:
    levels = args.levels or ([1, 5] if ctx.small else [1, 20, 40, 60, 100])
    series = args.series or (1000 if ctx.small else 10_000)
    per_query = min(args.per_query or (100 if ctx.small else 1000), series)
    days = args.days
    interval = args.interval or (14_400 if ctx.small else 3600)
    reps = args.repetitions or (1 if ctx.small else 3)
    wanted = [
        s for s in (args.systems or (SMALL_SYSTEMS if ctx.small else SYSTEMS)) if s in SYSTEMS
    ]
    now = int(time.time() * 1000)
    ticks = days * 86_400 // interval
    ds = Dataset(
        HostShape.named("point"),
        hosts=series,
        ticks=ticks,
        start_ms=unaligned_start(now - 3 * 3_600_000 - days * 86_400_000),
        interval_ms=interval * 1000,
    )
    glibc = glibc_version()
    rb = ResultBuilder(
        ctx,
        "point-queries",
        TITLE,
        {
            "levels": levels,
            "series": series,
            "series_per_query": per_query,
            "days": days,
            "interval_s": interval,
            "points_loaded": ds.points_total,
            "points_per_query": per_query * ticks,
            "repetitions": reps,
            "glibc": glibc,
        },
    )
    rb.summary["glibc"] = glibc
    ok, rb.systems = ctx.probe(wanted)
    cache = PayloadCache()
    ref: tuple[str, dict[str, list[tuple[int, float]]]] | None = None
    check_q = range_query(ds, per_query, random.Random(0))
    for sid in ok:
        with ctx.session(sid) as s:
            via, why = reads_through_glibc(binary_of(s))
            rb.summary[f"reads_via_glibc/{sid}"] = via
            rb.notes.append(f"{sid} file reads through glibc: {'yes' if via else 'no'} — {why}")
            load_dataset(s, ds, cache, clients=2, label=f"loading {sid}")
            s.settle()
            client = PointClient(s)
            try:
                a = client.parse_range(client.fetch_range(check_q))
            except Exception as e:  # noqa: BLE001 - reported as a failed check
                rb.checks.append(
                    AnswerCheck(
                        question="1,000 series", ok=False, systems=[sid], detail=str(e)[:300]
                    )
                )
                continue
            finally:
                client.close()
            if ref is None:
                ref = (sid, a)
                same, detail = True, f"reference: {answer_size(a)} points of {len(a)} series"
            else:
                diff = compare_answers(ref[1], a)
                same = diff is None
                detail = diff or f"same {answer_size(a)} points as {ref[0]}"
            if same and answer_size(a) != per_query * ticks:
                same, detail = False, f"{answer_size(a)} points, expected {per_query * ticks}"
            rb.checks.append(
                AnswerCheck(question=f"{per_query} series", ok=same, systems=[sid], detail=detail)
            )
            if not same:
                continue
            totals: dict[int, float] = {}
            cpu_at: dict[int, float] = {}
            for c in levels:
                runs: list[float] = []
                lat: list[float] = []
                smp = sampler_for(s).start()
                for rep in range(reps):
                    total, each, _ = _run_level(s, c, ds, per_query, seed=c * 100 + rep + 1)
                    runs.append(total)
                    lat.extend(each)
                res = smp.stop(f"{sid} x{c}")
                cpu = sum(r.cpu_percent_mean for r in res if r.role == "system")
                gen = sum(r.cpu_percent_mean for r in res if r.role == "generator")
                totals[c] = median(runs)
                cpu_at[c] = cpu
                labels = {"clients": str(c)}
                rb.add(sid, "total_time_s", totals[c], "s", labels=labels, x=c, reps=runs)
                rb.add(sid, "time_per_query_ms", totals[c] / c * 1000, "ms", labels=labels, x=c)
                rb.add(sid, "latency_ms_p50", median(lat) * 1000, "ms", labels=labels, x=c)
                rb.add(sid, "cpu_percent", cpu, "%", labels=labels, x=c)
                rb.add(sid, "generator_cpu_percent", gen, "%", labels=labels, x=c)
                log(
                    f"{sid} x{c}: {totals[c]:.2f} s total, system CPU {cpu:.0f} %, generator {gen:.0f} %"
                )
            top = levels[-1]
            rb.summary[f"total_s_max/{sid}"] = round(totals[top], 4)
            if levels[0] != top and totals[levels[0]] > 0:
                serial = totals[top] / (top / levels[0] * totals[levels[0]])
                rb.summary[f"vs_serial/{sid}"] = round(serial, 4)
            rb.notes.append(curve_note(sid, totals, glibc, via, cpu_at[top]))
    return rb.build()
