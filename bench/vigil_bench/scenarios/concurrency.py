"""Scenario 6: concurrency sweep — 1 ... 128 clients uploading, downloading, aggregating.

After a day of ``cpu`` data is loaded (17 CPU lines of ten fields per host), each level runs
C client threads for a fixed time doing one task:

- upload: batches of 1,000 rows (10 k points) from a pre-rendered pool, cycled;
- download: the raw samples of one random host's series over one hour;
- aggregate: one random host's per-bucket average over the whole day ("minute bars for one
  symbol on one day"; bucket = the sample interval).

Both questions are first answered by every system and compared with the reference system.
Throughput (operations and points per second) and latency per level; the system's CPU and
the generator's CPU per level explain where each curve bends.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import threading
import time

import psycopg

from ..datagen import Dataset, HostShape, host_name, unaligned_start
from ..httpconn import HttpError
from ..progress import log
from ..questions import Answer, Question, answer_size, compare_answers
from ..runner import RunContext, sampler_for
from ..schema import AnswerCheck, ScenarioResult
from ..stats import median, p99
from ..systems import Reader, System, Writer
from .common import PayloadCache, ResultBuilder, load_dataset
from .query_latency import LANGUAGES

TITLE = "Concurrency sweep: 1 to 128 clients uploading, downloading, aggregating"
SYSTEMS = ["vigil-storage", "victoriametrics", "influxdb", "postgres"]
# Reads first: uploads leave background merges behind that would slow the reads down.
TASKS = ["download", "aggregate", "upload"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--levels",
        type=lambda s: [int(x) for x in s.split(",")],
        help="client counts (default: small 1,8; full 1,2,4,8,16,32,64,128)",
    )
    p.add_argument(
        "--seconds", type=float, help="seconds per level and task (default: small 0.5, full 2)"
    )
    p.add_argument(
        "--hosts",
        type=int,
        help="hosts of 17 cpu lines in the loaded day (default: small 2, full 10)",
    )
    p.add_argument(
        "--interval", type=int, help="seconds between samples (default: small 300, full 60)"
    )
    p.add_argument(
        "--tasks",
        type=lambda s: [x for x in s.split(",") if x],
        help="subset of upload,download,aggregate",
    )


def _questions(ds: Dataset, rnd: random.Random) -> tuple[Question, Question]:
    end = ds.start_ms - ds.start_ms % 3_600_000 + 86_400_000
    h = host_name(rnd.randrange(ds.hosts))
    download = Question("download-1h", "raw", h, end - 3_600_000, end, 60_000)
    bars = Question("aggregate-24h", "host_avg", h, end - 86_400_000, end, ds.interval_ms)
    return download, bars


def _run_level(
    s: System,
    task: str,
    clients: int,
    seconds: float,
    ds: Dataset,
    lang: str,
    pool: list[tuple[bytes, int, int]],
) -> tuple[int, int, int, list[float], float]:
    """(operations, points, refused operations, latencies, elapsed) of `clients` threads
    doing task for `seconds`. A refused operation (the server's 429/503, a PostgreSQL error)
    is counted, not fatal: overload is part of what the sweep shows."""
    barrier = threading.Barrier(clients + 1)
    lock = threading.Lock()
    lat: list[float] = []
    ops = [0, 0, 0]
    fatal: list[BaseException] = []
    stop_at = [float("inf")]

    def worker(i: int) -> None:
        rnd = random.Random(i)
        conn: Writer | Reader | None = None
        try:
            conn = s.writer() if task == "upload" else s.reader(lang)
            barrier.wait()
            n = i
            while time.monotonic() < stop_at[0] and not fatal:
                t = time.monotonic()
                pts = 0
                try:
                    if isinstance(conn, Writer):
                        body, pts, _ = pool[n % len(pool)]
                        n += clients
                        conn.write(body)
                    else:
                        q_down, q_bars = _questions(ds, rnd)
                        conn.fetch(q_down if task == "download" else q_bars)
                except (HttpError, psycopg.Error):
                    with lock:
                        ops[2] += 1
                    time.sleep(0.01)
                    continue
                took = time.monotonic() - t
                with lock:
                    lat.append(took)
                    ops[0] += 1
                    ops[1] += pts
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
    stop_at[0] = t0 + seconds
    for t in threads:
        t.join()
    elapsed = time.monotonic() - t0
    if fatal:
        raise fatal[0]
    return ops[0], ops[1], ops[2], lat, elapsed


def run(ctx: RunContext, args: argparse.Namespace) -> ScenarioResult:
    levels = args.levels or ([1, 8] if ctx.small else [1, 2, 4, 8, 16, 32, 64, 128])
    seconds = args.seconds or (0.5 if ctx.small else 2.0)
    hosts = args.hosts or (2 if ctx.small else 10)
    interval = args.interval or (300 if ctx.small else 60)
    tasks = args.tasks or TASKS
    wanted = [s for s in (args.systems or SYSTEMS) if s in SYSTEMS]
    shape = HostShape.named("cpu")
    now = int(time.time() * 1000)
    ticks = 86400 // interval
    ds = Dataset(
        shape,
        hosts=hosts,
        ticks=ticks,
        start_ms=unaligned_start(now - 3 * 3_600_000 - 86_400_000),
        interval_ms=interval * 1000,
    )
    up = Dataset(
        shape,
        hosts=100,
        ticks=120,
        start_ms=unaligned_start(now - 2 * 3_600_000),
        interval_ms=10_000,
        host_offset=1000,
    )
    rb = ResultBuilder(
        ctx,
        "concurrency",
        TITLE,
        {
            "levels": levels,
            "seconds_per_level": seconds,
            "tasks": tasks,
            "hosts": hosts,
            "interval_s": interval,
            "points_loaded": ds.points_total,
            "upload_batch_rows": 1000,
            "upload_pool_batches": up.lines_total // 1000,
        },
    )
    ok, rb.systems = ctx.probe(wanted)
    cache = PayloadCache()
    ref: dict[str, tuple[str, Answer]] = {}
    for sid in ok:
        lang = LANGUAGES[sid][0]
        with ctx.session(sid) as s:
            load_dataset(s, ds, cache, clients=2, label=f"loading {sid}")
            s.prepare(up)
            pool = cache.get(s, up, 1000)
            s.settle()
            reader = s.reader(lang)
            valid_tasks = ["upload"] if "upload" in tasks else []
            for q in _questions(ds, random.Random(0)):
                task = "download" if q.shape == "raw" else "aggregate"
                try:
                    a = reader.ask(q)
                except Exception as e:  # noqa: BLE001 - reported as a failed check
                    rb.checks.append(
                        AnswerCheck(question=q.id, ok=False, systems=[sid], detail=str(e)[:300])
                    )
                    continue
                if q.id not in ref:
                    ref[q.id] = (sid, a)
                    ok_q, detail = True, f"reference: {answer_size(a)} points"
                else:
                    rsid, ra = ref[q.id]
                    diff = compare_answers(ra, a)
                    ok_q, detail = diff is None, diff or f"same {answer_size(a)} points as {rsid}"
                rb.checks.append(AnswerCheck(question=q.id, ok=ok_q, systems=[sid], detail=detail))
                if ok_q and task in tasks:
                    valid_tasks.append(task)
            reader.close()
            for task in [t for t in TASKS if t in valid_tasks]:
                for c in levels:
                    smp = sampler_for(s).start()
                    n, pts, refused, lat, el = _run_level(s, task, c, seconds, ds, lang, pool)
                    res = smp.stop(f"{sid} {task} x{c}")
                    cpu = sum(r.cpu_percent_mean for r in res if r.role == "system")
                    gen = sum(r.cpu_percent_mean for r in res if r.role == "generator")
                    labels = {"task": task, "clients": str(c)}
                    rb.add(sid, "ops_per_second", n / el, "ops/s", labels=labels, x=c)
                    if refused:
                        rb.add(sid, "refused_per_second", refused / el, "ops/s", labels=labels, x=c)
                    if task == "upload":
                        rb.add(sid, "points_per_second", pts / el, "points/s", labels=labels, x=c)
                    rb.add(
                        sid,
                        "latency_ms_p50",
                        median(lat) * 1000 if lat else None,
                        "ms",
                        labels=labels,
                        x=c,
                    )
                    rb.add(
                        sid,
                        "latency_ms_p99",
                        p99(lat) * 1000 if lat else None,
                        "ms",
                        labels=labels,
                        x=c,
                    )
                    rb.add(sid, "cpu_percent", cpu, "%", labels=labels, x=c)
                    rb.add(sid, "generator_cpu_percent", gen, "%", labels=labels, x=c)
                    log(
                        f"{sid} {task} x{c}: {n / el:,.1f} ops/s, p50 {median(lat) * 1000:.1f} ms,"
                        f" system CPU {cpu:.0f} %, generator CPU {gen:.0f} %"
                    )
    knees(rb)
    return rb.build()


def knees(rb: ResultBuilder) -> None:
    """Per system and task: the level of peak throughput and what happened after it."""
    by: dict[tuple[str, str], list[tuple[float, float, float, float]]] = {}
    cpu: dict[tuple[str, str, float], float] = {}
    gen: dict[tuple[str, str, float], float] = {}
    for m in rb.measurements:
        if m.x is None:
            continue
        key = (m.system, m.labels.get("task", ""))
        if m.metric == "cpu_percent":
            cpu[(*key, m.x)] = m.value or 0
        elif m.metric == "generator_cpu_percent":
            gen[(*key, m.x)] = m.value or 0
    for m in rb.measurements:
        if m.metric == "ops_per_second" and m.x is not None:
            key = (m.system, m.labels["task"])
            by.setdefault(key, []).append(
                (m.x, m.value or 0, cpu.get((*key, m.x), 0), gen.get((*key, m.x), 0))
            )
    for (sid, task), pts in sorted(by.items()):
        pts.sort()
        peak = max(pts, key=lambda p: p[1])
        last = pts[-1]
        rb.summary[f"peak_clients/{task}/{sid}"] = peak[0]
        rb.summary[f"peak_ops/{task}/{sid}"] = round(peak[1], 1)
        where = (
            f"peak {peak[1]:,.1f} ops/s at {peak[0]:.0f} clients"
            if last[0] != peak[0]
            else f"still rising at {peak[0]:.0f} clients ({peak[1]:,.1f} ops/s)"
        )
        after = ""
        if last[0] != peak[0]:
            drop = 1 - last[1] / peak[1] if peak[1] else 0.0
            after = f"; {last[1]:,.1f} ops/s at {last[0]:.0f} clients ({drop * 100:.0f} % below)"
        rb.notes.append(f"{sid} {task}: {where}{after} — {bottleneck(peak[2], peak[3])}")


def bottleneck(system_cpu: float, generator_cpu: float, cores: int | None = None) -> str:
    """Why a throughput curve stops rising, from the CPU it used (percent of one core)."""
    cores = cores or os.cpu_count() or 1
    total = system_cpu + generator_cpu
    if total >= 80 * cores:
        return (
            f"CPU-bound: the {cores} cores are busy (system {system_cpu:.0f} %,"
            f" generator {generator_cpu:.0f} % of one core)"
        )
    if generator_cpu >= 85:
        return (
            f"client-bound: the generator, one Python process, uses a whole core"
            f" ({generator_cpu:.0f} %; system {system_cpu:.0f} %)"
        )
    return (
        f"not CPU-bound (system {system_cpu:.0f} %, generator {generator_cpu:.0f} % of one core):"
        " requests wait on each other — serial work per request, locks or I/O"
    )
