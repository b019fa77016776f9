from __future__ import annotations

from vigil_bench.scenarios.concurrency import bottleneck


def test_knee_explanations() -> None:
    assert bottleneck(150, 30, cores=2).startswith("CPU-bound: the 2 cores are busy")
    assert bottleneck(40, 95, cores=2).startswith("client-bound: the generator")
    assert bottleneck(40, 10, cores=2).startswith("not CPU-bound (system 40 %")
