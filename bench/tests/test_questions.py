from __future__ import annotations

import json

import pytest

from vigil_bench.questions import Answer, Question, compare_answers, suite
from vigil_bench.systems.influxdb import influxql_text, parse_influx
from vigil_bench.systems.postgres import sql_text
from vigil_bench.systems.vm import dql_text, parse_dql, parse_prom, promql_text

Q_AVG = Question(
    "host_avg-1h",
    "host_avg",
    "host-00000",
    1_700_000_000_000 - 3_600_000,
    1_700_000_000_000,
    60_000,
)
Q_MAX = Question("fleet_max-1h", "fleet_max", "host-00000", Q_AVG.start_ms, Q_AVG.end_ms, 60_000)
Q_RAW = Question("raw-1h", "raw", "host-00000", Q_AVG.start_ms, Q_AVG.end_ms, 60_000)


def test_equal_answers_pass_within_float_tolerance() -> None:
    a = {"": [(1, 0.1 + 0.2), (2, 5.0)]}
    b = {"": [(1, 0.3), (2, 5.0)]}
    assert compare_answers(a, b) is None


@pytest.mark.parametrize(
    ("other", "message"),
    [
        ({"": [(1, 1.0), (2, 2.5)]}, "group '' at 2: 2.0 vs 2.5"),
        ({"": [(1, 1.0)]}, "group '': 2 vs 1 points (only in reference [2], only in other [])"),
        ({"": [(1, 1.0), (3, 2.0)]}, "group '': time 2 vs 3"),
        ({"x": [(1, 1.0), (2, 2.0)]}, "groups differ: missing [''], unexpected ['x']"),
    ],
)
def test_different_answers_name_the_first_difference(other: Answer, message: str) -> None:
    ref = {"": [(1, 1.0), (2, 2.0)]}
    assert compare_answers(ref, other) == message


def test_empty_reference_is_not_a_pass() -> None:
    assert compare_answers({}, {}) == "reference answer is empty (nothing to compare)"


def test_suite_has_three_shapes_per_window() -> None:
    qs = suite("h", 7_200_000, [3600, 28800])
    assert [q.id for q in qs] == [
        "raw-1h",
        "host_avg-1h",
        "fleet_max-1h",
        "raw-8h",
        "host_avg-8h",
        "fleet_max-8h",
    ]
    assert qs[3].start_ms == 7_200_000 - 28_800_000 and qs[3].bucket_ms == 480_000


def test_native_queries_say_the_same_thing() -> None:
    assert (
        dql_text(Q_AVG)
        == "M::cpu:(avg(usage_user)) {host='host-00000'} [1699996400000:1700000000000:60s]"
    )
    assert dql_text(Q_MAX) == "M::cpu:(max(usage_user)) [1699996400000:1700000000000:60s] BY cpu"
    text, params = promql_text(Q_AVG, "cpu:usage_user")
    assert text == (
        'sum(sum_over_time(cpu:usage_user{host="host-00000"}[60s]))'
        ' / sum(count_over_time(cpu:usage_user{host="host-00000"}[60s]))'
    )
    # PromQL windows are (t - w, t]: the first point is one step after the first bucket start
    assert params["start"] == "1699996460.000" and params["end"] == "1700000000.000"
    assert (
        promql_text(Q_RAW, "cpu_usage_user")[0]
        == 'cpu_usage_user{host="host-00000",cpu="cpu-total"}[3600s]'
    )
    assert influxql_text(Q_MAX) == (
        "SELECT max(usage_user) FROM cpu WHERE time >= 1699996400000ms"
        ' AND time < 1700000000000ms GROUP BY time(60000ms), "cpu" fill(none)'
    )
    assert "GROUP BY 1, 2" in sql_text(Q_MAX) and 'tags @> \'{"host": "host-00000"}\'' in sql_text(
        Q_AVG
    )


def test_parsers_agree_on_bucket_times() -> None:
    t0 = Q_AVG.start_ms
    prom = json.dumps(
        {
            "status": "success",
            "data": {
                "resultType": "matrix",
                "result": [
                    {
                        "metric": {},
                        "values": [[(t0 + 60_000) / 1000, "1.5"], [(t0 + 120_000) / 1000, "2"]],
                    }
                ],
            },
        }
    ).encode()
    dql = json.dumps(
        {
            "content": [
                {
                    "series": [
                        {
                            "name": "cpu",
                            "columns": ["time", "avg(usage_user)"],
                            "values": [[t0, 1.5], [t0 + 60_000, 2.0]],
                        }
                    ]
                }
            ]
        }
    ).encode()
    influx = json.dumps(
        {
            "results": [
                {
                    "series": [
                        {
                            "name": "cpu",
                            "columns": ["time", "mean"],
                            "values": [[t0, 1.5], [t0 + 60_000, 2], [t0 + 120_000, None]],
                        }
                    ]
                }
            ]
        }
    ).encode()
    want = {"": [(t0, 1.5), (t0 + 60_000, 2.0)]}
    assert parse_prom(Q_AVG, prom) == want
    assert parse_dql(Q_AVG, dql) == want
    assert parse_influx(Q_AVG, influx) == want


def test_parsers_group_by_cpu_tag() -> None:
    t0 = Q_MAX.start_ms
    prom = json.dumps(
        {
            "status": "success",
            "data": {
                "resultType": "matrix",
                "result": [
                    {"metric": {"cpu": "cpu1"}, "values": [[(t0 + 60_000) / 1000, "7"]]},
                    {"metric": {"cpu": "cpu0"}, "values": [[(t0 + 60_000) / 1000, "3"]]},
                ],
            },
        }
    ).encode()
    assert parse_prom(Q_MAX, prom) == {"cpu0": [(t0, 3.0)], "cpu1": [(t0, 7.0)]}


def test_error_answers_raise() -> None:
    with pytest.raises(ValueError, match="DQL failed"):
        parse_dql(Q_AVG, b'{"error_code": "dql.parse_error", "message": "x"}')
    with pytest.raises(ValueError, match="InfluxQL failed: boom"):
        parse_influx(Q_AVG, b'{"results": [{"error": "boom"}]}')


def test_suite_ends_on_a_boundary_of_every_bucket_width() -> None:
    # 8 h -> 480 s buckets, 24 h -> 1,440 s: an hour boundary is not enough
    qs = suite("h", 1_795_201_800_000, [3600, 28800, 86400])
    for q in qs:
        assert q.start_ms % q.bucket_ms == 0 and q.end_ms % q.bucket_ms == 0, q
    assert qs[0].end_ms == 1_795_201_800_000 - 1_795_201_800_000 % 1_440_000
