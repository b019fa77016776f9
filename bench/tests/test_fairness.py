"""The fairness scenario's figures from recorded samples (no servers)."""

from __future__ import annotations

import collections
import datetime as dt
from pathlib import Path

from vigil_bench.runner import RunContext
from vigil_bench.scenarios.common import ResultBuilder
from vigil_bench.scenarios.fairness import Result, Samples, _summarize


def _samples(alone: list[float], flood: list[float], bad: int = 0) -> Samples:
    s = Samples()
    for x in alone:
        s.add("alone", 200, x)
    for x in flood:
        s.add("flood", 200, x)
    for _ in range(bad):
        s.add("flood", 429, 0.001)
    return s


def _result(b_flood: list[float], *, bad: int = 0, a_per_s: int = 1000) -> Result:
    return Result(
        b_queries=_samples([0.010] * 100, b_flood, bad),
        b_writes=_samples([0.005] * 50, [0.006] * 50),
        a_queries=_samples([], [2.0] * 10),
        a_accepted_per_s={k: a_per_s for k in range(10)},
        a_writes=collections.Counter({204: 20, 429: 40}),
    )


def _summary(r: Result) -> dict[str, object]:
    rb = ResultBuilder(RunContext("small", ["vigil"], Path("/tmp")), "fairness", "t", {})
    _summarize(rb, r, 1000)
    sc = rb.build()
    assert sc.started_at <= dt.datetime.now(dt.UTC)
    return dict(sc.summary)


def test_ratios_and_pass() -> None:
    s = _summary(_result([0.012] * 100))
    assert s["b_query_p50_ratio"] == 1.2
    assert s["b_write_p50_ratio"] == 1.2
    assert s["a_pps"] == 1000 and s["a_pps_ratio"] == 1.0
    assert s["b_errors_flood"] == 0
    assert s["pass"] is True


def test_fails_over_the_goal_on_errors_or_an_unfair_rate() -> None:
    assert _summary(_result([0.020] * 100))["pass"] is False  # B twice as slow
    over = _summary(_result([0.012] * 100, bad=1))
    assert over["b_errors_flood"] == 1 and over["pass"] is False
    assert _summary(_result([0.012] * 100, a_per_s=1200))["pass"] is False  # A got 20 % more
