from __future__ import annotations

import gzip
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from vigil_bench.agent import agent_available, finish_agent, start_agent
from vigil_bench.datagen import Dataset, HostShape, unaligned_start
from vigil_bench.procs import free_port
from vigil_bench.runner import RunContext
from vigil_bench.scenarios.common import ResultBuilder
from vigil_bench.scenarios.storage_ingest import (
    END_LAG_S,
    Phases,
    agent_phase_flags,
    phase_payloads,
    report_phases,
    system_cpu_per_million,
)
from vigil_bench.schema import ResourceSample, ResourceSeries
from vigil_bench.systems.vm import VictoriaMetrics

Sample = tuple[str, int]  # (series: line prefix and field, timestamp)


def _samples(body: bytes) -> list[Sample]:
    """Every (series, timestamp) of a line protocol body."""
    out = []
    for line in body.decode().splitlines():
        head, fields, ts = line.rsplit(" ", 2)
        for f in fields.split(","):
            out.append((f"{head} {f.split('=')[0]}", int(ts)))
    return out


def test_builtin_steady_phase_continues_the_same_series_later() -> None:
    ticks = 3
    ds = Dataset(
        HostShape.named("node"),
        hosts=2,
        ticks=2 * ticks,
        start_ms=unaligned_start(1_700_000_000_000),
        interval_ms=10_000,
    )
    backfill, steady = phase_payloads(ds, ticks, 700)
    assert sum(p[1] for p in backfill) == sum(p[1] for p in steady) == 2 * ticks * 1383
    first = [x for body, _, _ in backfill for x in _samples(body)]
    second = [x for body, _, _ in steady for x in _samples(body)]
    assert len(first) == len(set(first)) == 2 * ticks * 1383
    assert {s for s, _ in first} == {s for s, _ in second}
    assert min(t for _, t in second) == max(t for _, t in first) + 10_000
    # together they are the whole dataset, rendered exactly as one backfill would be
    assert b"".join(p[0] for p in backfill + steady) == next(ds.chunks(10**9)).line_protocol()


class _Sink(BaseHTTPRequestHandler):
    """Takes what the agent sends to VictoriaMetrics' /influx/write."""

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        if self.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        with self.server.lock:  # type: ignore[attr-defined]
            self.server.bodies.append((self.path, body))  # type: ignore[attr-defined]
        self.send_response(204)
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def sink() -> Iterator[ThreadingHTTPServer]:
    srv = ThreadingHTTPServer(("127.0.0.1", free_port()), _Sink)
    srv.lock = threading.Lock()  # type: ignore[attr-defined]
    srv.bodies = []  # type: ignore[attr-defined]
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    yield srv
    srv.shutdown()
    srv.server_close()


@pytest.mark.skipif(agent_available() is not None, reason=f"vigil-agent: {agent_available()}")
def test_agent_steady_phase_sends_the_same_series_at_later_timestamps(
    tmp_path: Path, sink: ThreadingHTTPServer
) -> None:
    vm = VictoriaMetrics(tmp_path)
    vm.port = sink.server_address[1]
    hosts, ticks = 2, 3
    phases: list[list[Sample]] = []
    started = time.time()
    for steady in (False, True):
        sink.bodies.clear()  # type: ignore[attr-defined]
        flags = agent_phase_flags(hosts=hosts, ticks=ticks, clients=2, interval_s=10, steady=steady)
        agent = start_agent(vm, tmp_path, hosts=hosts, interval_s=10, extra=flags)
        res = finish_agent(agent, time.monotonic(), timeout=60)
        assert res.sent == res.points == hosts * ticks * 1383 and res.errors == 0
        assert {p for p, _ in sink.bodies} == {"/influx/write?precision=ms"}  # type: ignore[attr-defined]
        phases.append([x for _, b in sink.bodies for x in _samples(b)])  # type: ignore[attr-defined]
    backfill, steady_phase = phases
    for got in phases:
        assert len(got) == len(set(got)) == hosts * ticks * 1383
        assert len({t for _, t in got}) == ticks
        assert all(t % 10_000 == 0 for _, t in got)
    assert {s for s, _ in backfill} == {s for s, _ in steady_phase}
    last_backfill = max(t for _, t in backfill)
    assert min(t for _, t in steady_phase) > last_backfill
    # Both phases stay about END_LAG_S behind the clock, where every engine shows them.
    assert last_backfill < (started - END_LAG_S + 10) * 1000
    assert max(t for _, t in steady_phase) < (time.time() - END_LAG_S + 40) * 1000


def _series(cpu_percent: float, seconds: float, role: str = "system") -> ResourceSeries:
    return ResourceSeries(
        name="x",
        role=role,  # type: ignore[arg-type]
        cpu_percent_mean=cpu_percent,
        cpu_percent_max=cpu_percent,
        rss_bytes_max=0,
        samples=[ResourceSample(t=seconds, cpu_percent=cpu_percent, rss_bytes=0)],
    )


def test_cpu_per_million_counts_the_system_only() -> None:
    series = [_series(150.0, 4.0), _series(90.0, 4.0, role="generator")]
    assert system_cpu_per_million(series, 2_000_000, 4.0) == pytest.approx(3.0)
    assert system_cpu_per_million([_series(0.0, 4.0)], 2_000_000, 4.0) is None


def test_summary_keeps_the_backfill_ratio_and_adds_the_steady_one(tmp_path: Path) -> None:
    ctx = RunContext(mode="small", systems=[], workdir=tmp_path)
    rb = ResultBuilder(ctx, "storage-ingest", "t", {})
    ph = Phases(["vigil-storage", "victoriametrics"])
    for vigil, vm, steady in [
        (100.0, 200.0, False),
        (300.0, 400.0, False),
        (500.0, 600.0, False),
        (900.0, 1000.0, True),
        (950.0, 1000.0, True),
        (1000.0, 1000.0, True),
    ]:
        ph.record("vigil-storage", steady, vigil, 2.0 if steady else 4.0)
        ph.record("victoriametrics", steady, vm, None)
    report_phases(rb, ph, "vigil-storage", "victoriametrics")
    assert rb.summary == {
        "ratio": 0.75,
        "vigil_pps": 300,
        "reference_pps": 400,
        "goal": 0.95,
        "pass": False,
        "steady_ratio": 0.95,
        "vigil_steady_pps": 950,
        "reference_steady_pps": 1000,
    }
    rows = {(m.system, m.metric): m for m in rb.measurements}
    assert rows["vigil-storage", "points_per_second"].repetitions == [100.0, 300.0, 500.0]
    assert rows["vigil-storage", "steady_points_per_second"].value == 950.0
    assert rows["vigil-storage", "steady_cpu_seconds_per_million_points"].value == 2.0
    assert rows["vigil-storage", "cpu_seconds_per_million_points"].value == 4.0
    assert ("victoriametrics", "steady_cpu_seconds_per_million_points") not in rows


def test_summary_without_a_steady_phase_says_so(tmp_path: Path) -> None:
    rb = ResultBuilder(RunContext(mode="small", systems=[], workdir=tmp_path), "s", "t", {})
    ph = Phases(["a", "b"])
    ph.record("a", False, 10.0, None)
    ph.record("b", False, 20.0, None)
    report_phases(rb, ph, "a", "b")
    assert rb.summary["ratio"] == 0.5
    assert rb.summary["steady_ratio"] is None and rb.summary["vigil_steady_pps"] is None
