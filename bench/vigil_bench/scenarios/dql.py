"""DQL vs hand-written MetricsQL on the same vigil-storage (issue 3).

At least 100 k series (73 virtual hosts of 1,383) are loaded into one vigil-storage; the
same questions are asked as DQL (``POST /v1/query/raw``) and as hand-written MetricsQL
(``/api/v1/query``, ``/api/v1/query_range``), first compared for equal answers, then timed in
alternating order. Figure: per question, median DQL latency / median MetricsQL latency
(goal <= 1.05): the cost of the DQL layer over the engine it compiles to.
"""

from __future__ import annotations

import argparse
import math
import time

from ..datagen import host_name
from ..progress import log
from ..questions import answer_size, compare_answers, suite
from ..runner import RunContext, sampler_for
from ..schema import AnswerCheck, ScenarioResult
from ..stats import median, p99
from .common import PayloadCache, ResultBuilder, load_dataset, recent_dataset

TITLE = "DQL vs hand-written MetricsQL on the same vigil-storage"
GOAL = 1.05


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--hosts", type=int, help="virtual hosts of 1,383 series (default 73 = 100,959 series)"
    )
    p.add_argument("--ticks", type=int, help="samples per series, one a minute")
    p.add_argument("--repetitions", type=int, help="timed repetitions per question and language")


def run(ctx: RunContext, args: argparse.Namespace) -> ScenarioResult:
    hosts = args.hosts or (8 if ctx.small else 73)
    ticks = args.ticks or (30 if ctx.small else 60)
    reps = args.repetitions or (10 if ctx.small else 30)
    ds = recent_dataset("node", hosts, ticks, 60, end_lag_s=2 * 3600)
    end = ds.start_ms - ds.start_ms % 3_600_000 + ticks * 60_000
    windows = [900, 1800] if ticks < 60 else [900, 3600]
    questions = suite(host_name(0), end, windows)
    rb = ResultBuilder(
        ctx,
        "dql",
        TITLE,
        {
            "hosts": hosts,
            "series": hosts * ds.shape.series_per_host,
            "ticks": ticks,
            "interval_s": 60,
            "points": ds.points_total,
            "repetitions": reps,
            "goal_ratio": GOAL,
        },
    )
    ok, rb.systems = ctx.probe(["vigil-storage"])
    if not ok:
        rb.valid = False
        return rb.build()
    with ctx.session("vigil-storage") as s:
        smp = sampler_for(s).start()
        res = load_dataset(s, ds, PayloadCache(), clients=2, label="loading vigil-storage")
        rb.resources.extend(smp.stop("load"))
        log(f"loaded {res.points:,} points in {res.elapsed_s:.1f} s")
        s.settle()
        dql, prom = s.reader("dql"), s.reader("promql")
        timed = []
        for q in questions:
            try:
                a = dql.ask(q)
            except Exception as e:  # noqa: BLE001 - reported as a failed check
                rb.checks.append(
                    AnswerCheck(
                        question=q.id,
                        ok=False,
                        systems=["dql", "promql"],
                        detail=f"DQL failed: {e}"[:400],
                    )
                )
                continue
            b = prom.ask(q)
            diff = compare_answers(b, a)
            rb.checks.append(
                AnswerCheck(
                    question=q.id,
                    ok=diff is None,
                    systems=["vigil-storage/promql", "vigil-storage/dql"],
                    detail=diff or f"same {answer_size(a)} points",
                )
            )
            if diff is None:
                timed.append(q)
        lat: dict[tuple[str, str], list[float]] = {}
        for rep in range(reps):
            for q in timed:
                order = [("dql", dql), ("promql", prom)]
                if rep % 2:
                    order.reverse()
                for lang, reader in order:
                    t = time.monotonic()
                    reader.fetch(q)
                    lat.setdefault((q.id, lang), []).append(time.monotonic() - t)
        dql.close()
        prom.close()
    ratios = []
    for q in timed:
        for lang in ("dql", "promql"):
            xs = lat[(q.id, lang)]
            labels = {
                "language": "DQL" if lang == "dql" else "MetricsQL",
                "query": q.id,
                "shape": q.shape,
            }
            rb.add(
                "vigil-storage",
                "latency_ms_p50",
                median(xs) * 1000,
                "ms",
                labels=labels,
                reps=[x * 1000 for x in xs],
            )
            rb.add("vigil-storage", "latency_ms_p99", p99(xs) * 1000, "ms", labels=labels)
        r = median(lat[(q.id, "dql")]) / median(lat[(q.id, "promql")])
        ratios.append(r)
        rb.add(
            "vigil-storage",
            "dql_over_metricsql",
            r,
            "ratio",
            labels={"query": q.id, "shape": q.shape},
        )
        rb.summary[f"ratio/{q.id}"] = round(r, 3)
    if ratios:
        rb.summary["ratio_max"] = round(max(ratios), 3)
        rb.summary["ratio_geomean"] = round(
            math.exp(sum(math.log(r) for r in ratios) / len(ratios)), 3
        )
        rb.summary["goal"] = GOAL
        rb.summary["pass"] = max(ratios) <= GOAL
    else:
        rb.valid = False
    return rb.build()
