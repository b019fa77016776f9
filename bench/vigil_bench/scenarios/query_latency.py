"""Scenario 3: query latency by range (1 h, 8 h, 24 h) in each system's own language.

The same day of node-exporter-like data is loaded into each system; three question shapes
(raw samples of one series, a per-host average per bucket, a fleet-wide max per bucket BY cpu)
are asked over each window in DQL and PromQL (vigil-storage), MetricsQL (VictoriaMetrics),
InfluxQL (InfluxDB) and SQL (PostgreSQL). Every answer is first compared with the reference
system's; only questions answered alike are timed. Median and p99 of the repetitions; a
query over 60 s counts as failed. Each system's load time, its peak RSS while loading and its
RSS once the load has settled are reported beside the latencies.

``--seed-scale`` is the published run's cardinality: 724 hosts (1,001,292 active series) over
the same day, one sample an hour (24.0 M points), so that the claim (over 30x faster than
InfluxDB at ~1 M series) is measured where it was made.
"""

from __future__ import annotations

import argparse
import math
import time
from dataclasses import dataclass, field

from ..datagen import Dataset, host_name
from ..progress import log
from ..questions import Answer, Question, answer_size, compare_answers, suite
from ..runner import RunContext, sampler_for
from ..sampler import settled_dir_bytes, tree_rss_bytes
from ..schema import AnswerCheck, ScenarioResult
from ..stats import median, p99
from ..systems import System
from .common import PayloadCache, ResultBuilder, load_dataset, recent_dataset

TITLE = "Query latency by range (1 h, 8 h, 24 h) in each system's own language"
QUERY_TIMEOUT_S = 60.0
LANGUAGES = {
    "vigil-storage": ["dql", "promql"],
    "victoriametrics": ["promql"],
    "influxdb": ["influxql"],
    "postgres": ["sql"],
}
LANGUAGE_NAMES = {"dql": "DQL", "promql": "PromQL", "influxql": "InfluxQL", "sql": "SQL"}
#: --seed-scale: >= 1 M active series (724 x 1,383 = 1,001,292), hourly over the day
SEED_HOSTS = 724
SEED_INTERVAL_S = 3600


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--hosts", type=int, help="virtual hosts of 1,383 series")
    p.add_argument("--interval", type=int, help="seconds between samples")
    p.add_argument("--repetitions", type=int, help="timed repetitions per question")
    p.add_argument(
        "--seed-scale",
        action="store_true",
        help=f"{SEED_HOSTS} hosts (1,001,292 active series), one sample every"
        f" {SEED_INTERVAL_S} s over the day: the published run's cardinality",
    )


def sizes(ctx: RunContext, args: argparse.Namespace) -> tuple[int, int, int]:
    seed = getattr(args, "seed_scale", False)
    hosts = getattr(args, "hosts", None) or (SEED_HOSTS if seed else 2 if ctx.small else 4)
    interval = getattr(args, "interval", None) or (
        SEED_INTERVAL_S if seed else 300 if ctx.small else 60
    )
    reps = getattr(args, "repetitions", None) or (5 if ctx.small else 10)
    return hosts, interval, reps


def day_dataset(hosts: int, interval: int) -> Dataset:
    return recent_dataset("node", hosts, 86400 // interval, interval, end_lag_s=3 * 3600)


def questions_for(ds: Dataset) -> list[Question]:
    end = ds.start_ms - ds.start_ms % 3_600_000 + 86_400_000
    return suite(host_name(ds.host_offset), end, [3600, 8 * 3600, 86400])


@dataclass
class Asked:
    """Answers and latencies of one (system, language)."""

    client: str
    answers: dict[str, Answer] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    latencies: dict[str, list[float]] = field(default_factory=dict)


def ask_all(system: System, language: str, questions: list[Question]) -> Asked:
    out = Asked(f"{system.id}/{language}")
    reader = system.reader(language)
    try:
        for q in questions:
            try:
                out.answers[q.id] = reader.ask(q)
            except Exception as e:  # noqa: BLE001 - an error answer is a result to report
                out.errors[q.id] = str(e)[:400]
    finally:
        reader.close()
    return out


def time_all(
    system: System, language: str, questions: list[Question], asked: Asked, reps: int
) -> None:
    reader = system.reader(language)
    try:
        for q in questions:
            lat: list[float] = []
            for _ in range(reps):
                s = time.monotonic()
                try:
                    reader.fetch(q)
                except Exception as e:  # noqa: BLE001 - a failed query is a result
                    asked.errors[q.id] = str(e)[:400]
                    lat.append(math.inf)
                    break
                d = time.monotonic() - s
                lat.append(d)
                if d > QUERY_TIMEOUT_S:
                    break
            asked.latencies[q.id] = lat
    finally:
        reader.close()


def run(ctx: RunContext, args: argparse.Namespace) -> ScenarioResult:
    hosts, interval, reps = sizes(ctx, args)
    ds = day_dataset(hosts, interval)
    questions = questions_for(ds)
    wanted = [s for s in (args.systems or list(LANGUAGES)) if s in LANGUAGES]
    rb = ResultBuilder(
        ctx,
        "query-latency",
        TITLE,
        {
            "scale": "seed" if getattr(args, "seed_scale", False) else ctx.mode,
            "hosts": hosts,
            "series": hosts * ds.shape.series_per_host,
            "interval_s": interval,
            "points": ds.points_total,
            "windows": ["1h", "8h", "24h"],
            "repetitions": reps,
            "query_timeout_s": QUERY_TIMEOUT_S,
        },
    )
    ok, rb.systems = ctx.probe(wanted)
    if "vigil" in (args.systems or []):
        rb.notes.append(
            "vigil (full path) reads are vigil-storage's: the backend proxies them; see vigil-storage"
        )
    results = run_suite(ctx, rb, ok, ds, questions, reps)
    summarise(rb, results, questions)
    return rb.build()


def run_suite(
    ctx: RunContext,
    rb: ResultBuilder,
    system_ids: list[str],
    ds: Dataset,
    questions: list[Question],
    reps: int,
    languages: dict[str, list[str]] | None = None,
    measure_disk: bool = False,
) -> list[Asked]:
    languages = LANGUAGES if languages is None else languages
    cache = PayloadCache()
    results: list[Asked] = []
    refs: dict[str, tuple[str, Answer]] = {}
    for sid in system_ids:
        with ctx.session(sid) as s:
            smp = sampler_for(s).start()
            try:
                res = load_dataset(s, ds, cache, clients=2, label=f"loading {sid}")
            except Exception as e:  # noqa: BLE001 - one system's failed load is a result
                # The others are still compared; this one is reported with its reason.
                partial = smp.stop("load")
                rb.resources.extend(partial)
                reason = f"{type(e).__name__}: {e}"[:300]
                log(f"{sid}: the load failed: {reason}")
                rb.add(sid, "load_seconds", None, "s", labels={"failed": reason[:200]})
                peak = sum(r.rss_bytes_max for r in partial if r.role == "system")
                rb.add(sid, "rss_bytes_peak_load", peak, "bytes")
                rb.checks.append(
                    AnswerCheck(
                        question=f"load ({sid})",
                        ok=False,
                        systems=[sid],
                        detail=f"{sid} did not take the data: {reason}",
                    )
                )
                continue
            loaded = smp.stop("load")
            rb.resources.extend(loaded)
            rb.add(sid, "load_points_per_second", res.pps, "points/s", reps=[res.pps])
            rb.add(sid, "load_seconds", res.elapsed_s, "s")
            peak = sum(r.rss_bytes_max for r in loaded if r.role == "system")
            rb.add(sid, "rss_bytes_peak_load", peak, "bytes")
            log(f"{sid}: loaded {res.points:,} points in {res.elapsed_s:.1f} s ({res.pps:,.0f}/s)")
            s.settle()
            after = sum(tree_rss_bytes(pid) for _, pid in s.processes())
            rb.add(sid, "rss_bytes_after_load", after, "bytes")
            rb.summary[f"load_s/{sid}"] = round(res.elapsed_s, 1)
            rb.summary[f"rss_mib_after_load/{sid}"] = round(after / 2**20)
            rb.summary[f"rss_mib_peak_load/{sid}"] = round(peak / 2**20)
            log(f"{sid}: RSS {after / 2**20:,.0f} MiB after the load, peak {peak / 2**20:,.0f} MiB")
            if measure_disk:
                rb.add(
                    sid,
                    "disk_bytes",
                    settled_dir_bytes(str(s.data_dir), min_wait=s.flush_wait_s),
                    "bytes",
                )
                for k, v in s.disk_bytes_extra().items():
                    rb.add(sid, k, v, "bytes")
            for lang in languages.get(sid, []):
                asked = ask_all(s, lang, questions)
                timed = []
                for q in questions:
                    # The first answer to a question is its reference; every later one
                    # must match it before it is timed.
                    if q.id in asked.errors:
                        okq, detail = False, f"{asked.client} failed: {asked.errors[q.id]}"
                    elif q.id not in refs:
                        refs[q.id] = (asked.client, asked.answers[q.id])
                        okq, detail = True, "reference"
                    else:
                        diff = compare_answers(refs[q.id][1], asked.answers[q.id])
                        okq = diff is None
                        detail = (
                            f"same {answer_size(asked.answers[q.id])} points as {refs[q.id][0]}"
                            if diff is None
                            else f"{asked.client} differs from {refs[q.id][0]}: {diff}"
                        )
                    if detail != "reference":
                        rb.checks.append(
                            AnswerCheck(
                                question=q.id,
                                ok=okq,
                                systems=[refs[q.id][0] if q.id in refs else "-", asked.client],
                                detail=detail,
                            )
                        )
                    if okq:
                        timed.append(q)
                log(
                    f"{asked.client}: {len(timed)}/{len(questions)} questions answered alike; timing them"
                )
                time_all(s, lang, timed, asked, reps)
                results.append(asked)
                for q in timed:
                    lat = asked.latencies[q.id]
                    failed = max(lat) > QUERY_TIMEOUT_S
                    labels = {
                        "language": LANGUAGE_NAMES[lang],
                        "query": q.id,
                        "shape": q.shape,
                        "window": q.id.split("-")[-1],
                    }
                    if failed:
                        labels["failed"] = asked.errors.get(q.id, f"over {QUERY_TIMEOUT_S:.0f} s")[
                            :200
                        ]
                        rb.notes.append(f"{asked.client} {q.id} failed: {labels['failed']}")
                    rb.add(
                        sid,
                        "latency_ms_p50",
                        None if failed else median(lat) * 1000,
                        "ms",
                        labels=labels,
                        reps=[x * 1000 for x in lat if math.isfinite(x)],
                    )
                    rb.add(
                        sid,
                        "latency_ms_p99",
                        None if failed else p99(lat) * 1000,
                        "ms",
                        labels=labels,
                    )
    return results


def summarise(rb: ResultBuilder, results: list[Asked], questions: list[Question]) -> None:
    """Geometric mean over questions of each client's median latency / the reference's."""
    if not results:
        rb.valid = False
        return
    ref = results[0]
    rb.summary["reference"] = ref.client
    for r in results[1:]:
        logs = []
        for q in questions:
            a, b = ref.latencies.get(q.id), r.latencies.get(q.id)
            if a and b and 0 < max(a) <= QUERY_TIMEOUT_S and max(b) <= QUERY_TIMEOUT_S:
                logs.append(math.log(median(b) / median(a)))
        if logs:
            rb.summary[f"latency_ratio/{r.client}"] = round(math.exp(sum(logs) / len(logs)), 3)
    for q in questions:
        if ref.latencies.get(q.id) and max(ref.latencies[q.id]) <= QUERY_TIMEOUT_S:
            rb.summary[f"{ref.client} p50 ms/{q.id}"] = round(median(ref.latencies[q.id]) * 1000, 3)
