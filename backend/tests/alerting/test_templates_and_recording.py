from __future__ import annotations

from app.alerting.recording import field_name, lines
from app.alerting.templates import describe_tags, render


def test_render_tags_and_builtins() -> None:
    values = {"value": "97.5", "monitor": "CPU"}
    tags = {"host": "web-1", "region": "eu"}
    assert render("{{monitor}} on {{ host }} ({{tags.region}}): {{value}}", values, tags) == (
        "CPU on web-1 (eu): 97.5"
    )
    assert render("{{nosuch}}|{{ {{x}}", values, tags) == "|{{ "
    assert render("{{value.__class__}}", values, tags) == ""  # nothing is evaluated


def test_describe_tags_hides_internal_names() -> None:
    assert describe_tags({"host": "a", "__field__": "x", "dc": "b"}) == "dc=b, host=a"
    assert describe_tags({}) == "the whole query"


def test_recording_lines_one_point_per_group() -> None:
    content = {
        "series": [
            {
                "name": "cpu",
                "tags": {"host": "web 1", "dc": "a,b"},
                "columns": ["time", "avg(usage_user)", "max(usage_user)"],
                "values": [[1, 10.0, 20], [2, None, 30]],
            },
            {"name": "cpu", "tags": {}, "columns": ["time", "x"], "values": [[1, None]]},
            {
                "name": "",
                "tags": {"__field__": "u", "host": "b"},
                "columns": ["time", "value"],
                "values": [[1, 5]],
            },
        ]
    }
    assert lines(content, measurement="cpu 1m", field=None, at_ms=1000) == [
        "cpu\\ 1m,dc=a\\,b,host=web\\ 1 avg_usage_user=10.0,max_usage_user=30.0 1000",
        "cpu\\ 1m,host=b value=5.0 1000",
    ]
    assert (
        lines(content, measurement="m", field="f", at_ms=7)[0] == "m,dc=a\\,b,host=web\\ 1 f=10.0 7"
    )


def test_field_names() -> None:
    assert field_name("avg(usage_user)") == "avg_usage_user"
    assert field_name("p99") == "p99"
    assert field_name("()") == "value"
