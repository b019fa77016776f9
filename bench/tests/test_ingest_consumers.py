"""The consumer-scaling mode of the ingest benchmark: its figures from recorded runs, and how
it reads the consumers' partitions (no servers)."""

from __future__ import annotations

from pathlib import Path

import pytest

from vigil_bench.runner import RunContext
from vigil_bench.scenarios.common import ResultBuilder
from vigil_bench.scenarios.ingest_consumers import (
    cpu_by_process,
    line_partitions,
    parse_levels,
    report,
    shared_evenly,
)
from vigil_bench.schema import ResourceSeries


def test_levels_always_hold_one_consumer_as_the_reference() -> None:
    assert parse_levels("1,2,3") == [1, 2, 3]
    assert parse_levels("3, 2") == [1, 2, 3]
    assert parse_levels("2,2,1") == [1, 2]
    with pytest.raises(SystemExit, match="numbers like 1,2,3, got 'two'"):
        parse_levels("two")
    with pytest.raises(SystemExit, match="at least 1, got '0,2'"):
        parse_levels("0,2")


def test_the_line_topic_partitions_of_a_health_answer() -> None:
    health = {
        "partitions": {
            "vigil.metrics.line/0": 0,
            "vigil.metrics.line/11": 4,
            "vigil.metrics.promrw/0": 0,
            "vigil.metrics.otlp/3": 0,
        }
    }
    assert line_partitions(health) == {0, 11}
    assert line_partitions({}) == set()


def test_a_group_is_settled_when_every_consumer_owns_a_share_and_all_are_owned() -> None:
    assert shared_evenly([set(range(12))], 12)
    assert shared_evenly([{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}], 12)
    assert not shared_evenly([set(range(12)), set()], 12)  # the new one has nothing yet
    assert not shared_evenly([set(range(12)), {3}], 12)  # the old owner still has it
    assert not shared_evenly([{0, 1}, {2}], 12)  # mid-rebalance: some unowned


def _series(name: str, cpu: float) -> ResourceSeries:
    return ResourceSeries(
        name=name, role="system", cpu_percent_mean=cpu, cpu_percent_max=cpu, rss_bytes_max=0
    )


def test_cpu_is_grouped_by_part_of_the_path_and_other_work_is_what_is_left() -> None:
    series = [
        _series("vigil/gateway", 30.0),
        _series("vigil/kafka", 20.0),
        _series("vigil/consumer", 40.0),
        _series("vigil/consumer-41234", 35.0),
        _series("vigil/storage", 50.0),
        _series("generator (vigil-agent)", 10.0),
    ]
    got = cpu_by_process(series, machine=199.0)
    assert got == {
        "gateway": 30.0,
        "kafka": 20.0,
        "consumers": 75.0,
        "storage": 50.0,
        "agent": 10.0,
        "machine": 199.0,
        "other work": 14.0,
    }
    assert cpu_by_process(series, machine=100.0)["other work"] == 0.0


def test_report_gives_each_level_its_median_and_its_ratio_to_one_consumer() -> None:
    rb = ResultBuilder(RunContext("small", ["vigil"], Path("/tmp")), "ingest-consumers", "t", {})
    pps = {"1": [100.0, 120.0, 110.0], "2": [180.0, 200.0, 190.0], "3": [240.0], "keyed": [105.0]}
    # per run: consumers 11 % of a core, storage 22 %, the agent 5.5 %, the machine all of it
    run = {"consumers": 11.0, "storage": 22.0, "agent": 5.5, "machine": 190.0}
    cpu = {k: [dict(run) for _ in v] for k, v in pps.items()}
    report(
        rb,
        ["1", "2", "3", "keyed"],
        pps,
        cpu,
        {"1": [1.0], "2": [0.5], "3": [0.34], "keyed": [1.0]},
    )
    sc = rb.build()
    s = sc.summary
    assert s["pps/1"] == 110 and s["pps/2"] == 190 and s["pps/3"] == 240
    assert s["ratio/2"] == round(190 / 110, 3) and s["ratio/3"] == round(240 / 110, 3)
    assert s["ratio"] == s["ratio/3"]  # the most consumers, never the keyed reference
    assert s["ratio/keyed"] == round(105 / 110, 3)
    assert s["consumers_max"] == 3
    assert s["machine_cpu_percent/2"] == 190.0
    # at 110 points/s (the median run), 11 % of a core is 1,000 CPU s per million points
    assert s["consumer_cpu_s_per_million"] == 1000.0
    assert s["path_cpu_s_per_million"] == 3000.0  # consumers + storage (+ gateway, kafka: 0)
    assert s["agent_cpu_s_per_million"] == 500.0
    assert s["ceiling_one_consumer_pps"] == 1000  # one core / 1,000 CPU s per million
    assert s["ceiling_machine_pps"] == round(s["cpus"] * 1e6 / 3500)  # type: ignore[operator]
    by = {
        (m.metric, m.labels.get("consumers"), m.labels.get("process")): m for m in sc.measurements
    }
    assert by[("points_per_second", "2", None)].repetitions == [180.0, 200.0, 190.0]
    assert by[("points_per_second", "2", None)].x == 2.0
    assert by[("points_per_second", "keyed", None)].x is None
    assert by[("busiest_consumer_share", "3", None)].value == 0.34
    assert by[("cpu_percent", "1", "consumers")].value == 11.0
    assert by[("cpu_percent", "1", "gateway")].value == 0.0
    assert by[("cpu_seconds_per_million_points", "3", "storage")].value == round(22e4 / 240, 6)
