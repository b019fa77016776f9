"""Full modes at the seeds' scale, and loads that stay bounded when a system cannot keep up."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from vigil_bench.cli import build_parser
from vigil_bench.datagen import Dataset
from vigil_bench.loadgen import paced
from vigil_bench.runner import RunContext, load
from vigil_bench.scenarios import (
    ingest,
    query_latency,
    storage_ingest,
    write_cost,
    write_saturation,
)
from vigil_bench.systems.base import System, Writer


class _SlowWriter(Writer):
    def __init__(self, owner: _FakeSystem) -> None:
        self.owner = owner

    def write(self, payload: bytes) -> None:
        time.sleep(self.owner.write_s)
        with self.owner.lock:
            self.owner.bodies += 1


class _FakeSystem(System):
    """A system the runner's own generator writes to (no agent target); each write sleeps."""

    id = "postgres"
    payload_format = "line"

    def __init__(self, workdir: Path, write_s: float) -> None:
        super().__init__(workdir)
        self.write_s = write_s
        self.bodies = 0
        self.lock = threading.Lock()

    def check(self) -> None:
        pass

    def start(self) -> None:
        pass

    def stop(self) -> None:
        pass

    def processes(self) -> list[tuple[str, int]]:
        return []

    def prepare(self, ds: Dataset) -> None:
        pass

    def writer(self) -> Writer:
        return _SlowWriter(self)


def _ctx(mode: str, tmp_path: Path) -> RunContext:
    return RunContext(mode=mode, systems=[], workdir=tmp_path)


def _args(*argv: str) -> object:
    return build_parser().parse_args(list(argv))


def test_write_cost_full_mode_is_the_published_scale(tmp_path: Path) -> None:
    full = _ctx("full", tmp_path)
    assert write_cost.sizes(full, _args("write-cost")) == (344, 60)
    assert write_cost.sizes(full, _args("write-cost", "--quick")) == (72, 45)
    assert write_cost.sizes(full, _args("write-cost", "--hosts", "100")) == (100, 60)
    assert write_cost.sizes(_ctx("small", tmp_path), _args("write-cost", "--small")) == (4, 6)
    # 344 x 1,383 series every 5 s: the published ~0.48 M series, ~95 k points/s
    assert 344 * 1383 == 475_752 and round(344 * 1383 / 5) == 95_150


def test_query_latency_seed_scale_holds_a_million_series(tmp_path: Path) -> None:
    full = _ctx("full", tmp_path)
    hosts, interval, reps = query_latency.sizes(full, _args("query-latency", "--seed-scale"))
    ds = query_latency.day_dataset(hosts, interval)
    assert (hosts, interval, reps) == (724, 3600, 10)
    assert hosts * ds.shape.series_per_host == 1_001_292
    assert ds.points_total == 1_001_292 * 24
    assert query_latency.sizes(full, _args("query-latency")) == (4, 60, 10)
    assert query_latency.sizes(_ctx("small", tmp_path), _args("query-latency", "--small")) == (
        2,
        300,
        5,
    )


def test_full_modes_last_long_enough_for_their_samples(tmp_path: Path) -> None:
    full, small = _ctx("full", tmp_path), _ctx("small", tmp_path)
    assert write_saturation.sizes(full, _args("write-saturation")) == (50, 10, 30.0, [1, 2, 4, 8])
    # small mode and --ticks keep the fixed backfill
    assert write_saturation.sizes(small, _args("write-saturation", "--small")) == (
        10,
        10,
        None,
        [1, 4],
    )
    assert write_saturation.sizes(full, _args("write-saturation", "--ticks", "30"))[2] is None


def test_repetitions_are_sized_from_a_calibration_rate() -> None:
    # storage-ingest: 100 hosts; ~40 s at the calibration rate, within [30, 400] ticks
    assert storage_ingest.ticks_for(900_000, 100) == 260  # idle machine: 36 M points, 40 s
    assert storage_ingest.ticks_for(110_000, 100) == 32  # loaded: 4.4 M points, 40 s
    assert storage_ingest.ticks_for(10_000, 100) == 30
    assert storage_ingest.ticks_for(1e9, 100) == 400
    # ingest: 20 hosts, ~30 s straight to storage
    assert ingest.ticks_for(500_000, 20) == 542
    assert ingest.ticks_for(1_000, 20) == 30 and ingest.ticks_for(1e9, 20) == 2000


def test_load_with_a_deadline_counts_only_what_was_written(tmp_path: Path) -> None:
    s = _FakeSystem(tmp_path, write_s=0.05)
    payloads = [(b"x", 100, 10)] * 200  # 10 s of writes at 2 clients
    t0 = time.monotonic()
    r = load(s, payloads, clients=2, deadline_s=0.5)
    took = time.monotonic() - t0
    assert took < 1.0
    assert r.requests == s.bodies and 16 <= r.requests <= 24
    assert r.points == 100 * r.requests and r.lines == 10 * r.requests
    r = load(s, payloads[:4], clients=2)
    assert (r.points, r.lines, r.requests) == (400, 40, 4)


def test_paced_load_reports_a_system_that_cannot_keep_up(tmp_path: Path) -> None:
    # 4 hosts' tick is one body, and each body takes 2.5 s to write: ticks 0 and 1 are
    # written (until 5 s), tick 2 is never started since the 3 s window closed meanwhile.
    slow = _FakeSystem(tmp_path, write_s=2.5)
    t0 = time.monotonic()
    out = paced(slow, hosts=4, interval_s=1, duration_s=3, generator="builtin")
    took = time.monotonic() - t0
    assert took < 5.8
    assert out.offered_points == 3 * 4 * 1383 and out.points == 2 * 4 * 1383
    assert out.taken == pytest.approx(2 / 3)
    # one tick never sent (1 s) + the last acknowledgement 2 s after the window closed
    assert out.lag_s == pytest.approx(3.0, abs=0.3)
    assert not out.kept_up


def test_paced_load_that_keeps_up_has_no_lag(tmp_path: Path) -> None:
    fast = _FakeSystem(tmp_path, write_s=0.0)
    out = paced(fast, hosts=2, interval_s=1, duration_s=2, generator="builtin")
    assert out.points == out.offered_points == 2 * 2 * 1383
    assert out.taken == 1.0 and out.lag_s == pytest.approx(0.0, abs=0.05) and out.kept_up
    assert out.offered_pps == pytest.approx(2 * 1383, rel=0.05)


class _RefusingWriter(Writer):
    def write(self, payload: bytes) -> None:
        raise RuntimeError('POST /write: HTTP 500: {"error":"timeout"}')


class _RefusingSystem(_FakeSystem):
    def __init__(self, workdir: Path) -> None:
        super().__init__(workdir, write_s=0.0)

    def writer(self) -> Writer:
        return _RefusingWriter()


def test_a_failed_load_is_reported_and_the_others_go_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from vigil_bench import runner
    from vigil_bench.scenarios.common import ResultBuilder

    monkeypatch.setitem(runner.SYSTEMS, "postgres", _RefusingSystem)
    ctx = _ctx("small", tmp_path)
    rb = ResultBuilder(ctx, "query-latency", "t", {})
    ds = query_latency.day_dataset(1, 3600)
    results = query_latency.run_suite(ctx, rb, ["postgres"], ds, [], 0)
    assert results == []
    [check] = rb.checks
    assert check.question == "load (postgres)" and not check.ok
    assert check.detail.startswith("postgres did not take the data: RuntimeError: POST /write")
    failed = next(m for m in rb.measurements if m.metric == "load_seconds")
    assert failed.value is None and "HTTP 500" in failed.labels["failed"]
    assert not rb.build().valid
