"""Scenarios 7-9: the logic that needs no server (query texts, mixes, verdicts)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from vigil_bench.cli import ALL, build_parser
from vigil_bench.datagen import Dataset, HostShape
from vigil_bench.environment import glibc_version
from vigil_bench.questions import compare_answers
from vigil_bench.scenarios.point_queries import GO_BUILDINFO_MAGIC, curve_note, reads_through_glibc
from vigil_bench.scenarios.pointdata import (
    influxql_last,
    influxql_range,
    parse_copy_range,
    parse_influx_range,
    parse_prom_last,
    parse_prom_range,
    promql_last,
    promql_range,
    range_query,
    sql_last,
    sql_range,
)
from vigil_bench.scenarios.read_write_mix import is_write
from vigil_bench.scenarios.soak import flat, rss_timeline, window
from vigil_bench.schema import ResourceSample, ResourceSeries


def _ds(hosts: int = 50) -> Dataset:
    return Dataset(
        HostShape.named("point"),
        hosts=hosts,
        ticks=4,
        start_ms=1_000_001_234,
        interval_ms=3_600_000,
    )


def test_point_shape_is_one_series_per_host() -> None:
    ds = _ds(3)
    assert ds.shape.series_per_host == 1 and ds.points_total == 12
    rows = list(ds.chunks(100))[0].copy_rows().decode().splitlines()
    assert [r.split("\t")[0] for r in rows[:3]] == ["1", "2", "3"]  # series id = host + 1
    assert list(ds.chunks(1))[1].line_protocol().decode().startswith("pq,host=host-00001 v=")


def test_range_query_picks_distinct_series_and_stays_off_samples() -> None:
    ds = _ds()
    q = range_query(ds, 10, random.Random(1))
    assert len(set(q.hosts)) == 10 and list(q.hosts) == sorted(q.hosts)
    assert q == range_query(ds, 10, random.Random(1))
    # (start, end] holds every sample, and no bound falls on one
    assert q.start_ms == ds.start_ms - 1000 and q.end_ms == ds.end_ms - 1000
    assert range_query(ds, 500, random.Random(1)).hosts == tuple(range(50))


def test_native_texts_of_a_range_query() -> None:
    ds = _ds()
    q = range_query(ds, 2, random.Random(0))
    a, b = (f"host-{h:05d}" for h in q.hosts)
    p = promql_range(q, "pq_v")
    assert p["query"] == f'pq_v{{host=~"{a}|{b}"}}[14400s]'
    assert p["time"] == f"{q.end_ms / 1000:.3f}"
    assert influxql_range(q) == (
        f"SELECT v FROM pq WHERE (host = '{a}' OR host = '{b}') AND time > {q.start_ms}ms"
        f" AND time <= {q.end_ms}ms GROUP BY host"
    )
    sql = sql_range(q)
    assert f"series_id = ANY('{{{q.hosts[0] + 1},{q.hosts[1] + 1}}}'::integer[])" in sql
    assert sql.startswith("COPY (") and sql.endswith(") TO STDOUT")


def test_native_texts_of_a_lookup() -> None:
    assert promql_last(7, "pq:v") == {"query": 'last_over_time(pq:v{host="host-00007"}[86400s])'}
    assert influxql_last(7) == (
        "SELECT last(v) FROM pq WHERE host = 'host-00007' AND time > now() - 86400s"
    )
    assert sql_last(7) == "SELECT value FROM points WHERE series_id = 8 ORDER BY ts DESC LIMIT 1"


def test_three_answer_formats_compare_alike() -> None:
    prom = json.dumps(
        {
            "status": "success",
            "data": {
                "result": [
                    {"metric": {"host": "host-00002"}, "values": [[1000.5, "3"], [2000.5, "4"]]},
                    {"metric": {"host": "host-00001"}, "values": [[1000.5, "1"]]},
                ]
            },
        }
    ).encode()
    influx = json.dumps(
        {
            "results": [
                {
                    "series": [
                        {"tags": {"host": "host-00001"}, "values": [[1000500, 1]]},
                        {"tags": {"host": "host-00002"}, "values": [[2000500, 4], [1000500, 3]]},
                    ]
                }
            ]
        }
    ).encode()
    copy = b"3\t2000500\t4\n2\t1000500\t1\n3\t1000500\t3\n"
    ref = parse_prom_range(prom)
    assert ref == {"host-00001": [(1000500, 1.0)], "host-00002": [(1000500, 3.0), (2000500, 4.0)]}
    assert compare_answers(ref, parse_influx_range(influx)) is None
    assert compare_answers(ref, parse_copy_range(copy)) is None
    assert compare_answers(ref, parse_copy_range(b"2\t1000500\t1\n")) is not None


def test_a_failed_answer_is_an_error_not_an_empty_one() -> None:
    with pytest.raises(ValueError, match="query failed"):
        parse_prom_last(b'{"status": "error", "error": "bad"}')
    with pytest.raises(ValueError, match="InfluxQL failed: bad regex"):
        parse_influx_range(b'{"results": [{"error": "bad regex"}]}')
    assert parse_prom_last(b'{"status": "success", "data": {"result": []}}') is None


@pytest.mark.parametrize("w", [0, 1, 50, 100, 1000])
def test_mix_writes_w_per_1000_evenly(w: int) -> None:
    ops = [is_write(i, w) for i in range(3000)]
    assert sum(ops) == 3 * w
    for start in range(0, 3000, 1000):
        assert sum(ops[start : start + 1000]) == w
    if w == 50:
        writes = [i for i, x in enumerate(ops) if x]
        assert {b - a for a, b in zip(writes, writes[1:], strict=False)} == {20}


def test_go_binaries_do_not_read_through_glibc(tmp_path: Path) -> None:
    go_dyn = tmp_path / "go-dyn"
    go_dyn.write_bytes(b"\x7fELF" + b"\0" * 100 + b"libc.so.6\0" + GO_BUILDINFO_MAGIC + b"\0" * 10)
    go_static = tmp_path / "go-static"
    go_static.write_bytes(b"\x7fELF" + b"\0" * 100 + GO_BUILDINFO_MAGIC)
    c_prog = tmp_path / "postgres"
    c_prog.write_bytes(b"\x7fELF" + b"\0" * 100 + b"libc.so.6\0")
    assert reads_through_glibc(go_dyn) == (
        False,
        "Go binary: the Go runtime makes its own read/pread system calls"
        " (dynamically linked to glibc for other calls)",
    )
    assert reads_through_glibc(go_static)[0] is False
    assert "no libc at all" in reads_through_glibc(go_static)[1]
    assert reads_through_glibc(c_prog) == (
        True,
        "dynamically linked to glibc: read/pread go through glibc's wrappers",
    )
    ok, why = reads_through_glibc(tmp_path / "missing")
    assert not ok and why.startswith("cannot read")


def test_this_python_reads_through_glibc_on_a_glibc_host() -> None:
    import sys

    version = glibc_version()
    if version == "unknown":
        pytest.skip("not a glibc host")
    assert version[0].isdigit()
    assert reads_through_glibc(Path(sys.executable).resolve())[0] in (True, False)


def test_curve_note_says_how_time_grows_and_what_libc_has_to_do_with_it() -> None:
    note = curve_note("postgres", {1: 0.1, 100: 5.0}, "2.36", True, 190.0)
    assert note.startswith(
        "postgres: 100 queries at once took 5.00 s, 0.50x the time of running them one after"
        " another (100 ms alone)"
    )
    assert "glibc 2.36's read/pread wrappers" in note
    assert "do not touch glibc" in curve_note(
        "victoriametrics", {1: 0.1, 20: 2.0}, "2.36", False, 20
    )


def test_flat_verdicts() -> None:
    assert flat("rate", [100, 100], [95, 96]).ok
    v = flat("rate", [100, 100], [85, 86])
    assert not v.ok and v.detail == "rate: first window 100.000, last 85.500 (-14.5 %)"
    # lags: only growth counts, and a small absolute rise is accepted
    assert flat("lag", [0.2], [0.5], grow_only=True, slack=0.5).ok
    assert not flat("lag", [0.2], [0.8], grow_only=True, slack=0.5).ok
    assert flat("lag", [3.0], [1.0], grow_only=True).ok
    assert not flat("rate", [], [1.0]).ok


def test_windows_and_stack_rss() -> None:
    samples = [(float(t), float(t)) for t in range(10)]
    assert window(samples, 0, 3) == [0.0, 1.0, 2.0]
    assert window(samples, 7, 11) == [7.0, 8.0, 9.0]

    def series(name: str, role: str, rss: list[int]) -> ResourceSeries:
        return ResourceSeries(
            name=name,
            role=role,  # type: ignore[arg-type]
            cpu_percent_mean=0,
            cpu_percent_max=0,
            rss_bytes_max=max(rss),
            samples=[
                ResourceSample(t=i + 0.01, cpu_percent=0, rss_bytes=r) for i, r in enumerate(rss)
            ],
        )

    rss = rss_timeline(
        [
            series("vigil/kafka", "system", [10, 11]),
            series("vigil/storage", "system", [5, 6]),
            series("generator (vigil-agent)", "generator", [100, 100]),
        ]
    )
    assert rss == [(0, 15.0), (1, 17.0)]


def test_the_new_scenarios_are_commands_and_in_all() -> None:
    for name in ("point-queries", "read-write-mix", "soak"):
        assert name in ALL
    args = build_parser().parse_args(["point-queries", "--small", "--levels", "1,5"])
    assert args.levels == [1, 5] and args.days == 4
    args = build_parser().parse_args(["read-write-mix", "--mixes", "0,10", "--clients", "3"])
    assert args.mixes == [0, 10] and args.clients == [3]
    args = build_parser().parse_args(["soak", "--duration", "3600", "--window", "600"])
    assert args.duration == 3600 and args.window == 600 and args.mode == "full"
