"""System tests of the assembled stack, through its public contracts only.

Run by `make test` against the test stack (infra/test.sh exports the URLs and the demo
workspace's keys from demo.env). Every check talks to a real service: the gateway, Kafka,
the consumer, vigil-storage, PostgreSQL and the backend.
"""

from __future__ import annotations

import gzip
import os
import time
import uuid
from collections.abc import Callable
from typing import Any

import httpx
import pytest

BACKEND = os.environ.get("VIGIL_BACKEND_URL", "http://127.0.0.1:8000")
GATEWAY = os.environ.get("VIGIL_GATEWAY_URL", "http://127.0.0.1:8001")
INGEST_KEY = os.environ.get("VIGIL_DEMO_INGEST_KEY", "")
QUERY_KEY = os.environ.get("VIGIL_DEMO_QUERY_KEY", "")

pytestmark = pytest.mark.skipif(
    not (INGEST_KEY and QUERY_KEY),
    reason="needs the running stack's demo.env (run through `make test`)",
)


def poll(fn: Callable[[], Any], timeout: float = 30.0, every: float = 0.5) -> Any:
    """Call fn until it returns something truthy; fail with its last value after timeout."""
    deadline = time.monotonic() + timeout
    last: Any = None
    while time.monotonic() < deadline:
        last = fn()
        if last:
            return last
        time.sleep(every)
    pytest.fail(f"condition not met within {timeout}s; last value: {last!r}")


def dql(query: str, key: str = QUERY_KEY, **extra: Any) -> httpx.Response:
    return httpx.post(
        f"{BACKEND}/v1/query/raw",
        json={"queries": [{"query": query, **extra}]},
        headers={"Authorization": f"Bearer {key}"},
        timeout=30,
    )


def test_health_reports_every_component_ok() -> None:
    def healthy() -> dict[str, Any] | None:
        body = httpx.get(f"{BACKEND}/api/health", timeout=15).json()
        return body if body["status"] == "ok" else None

    body = poll(healthy, timeout=60)
    assert set(body["components"]) >= {"postgres", "kafka", "storage", "gateway", "consumer"}
    for name, component in body["components"].items():
        assert component["ok"] is True, (name, component)
    assert isinstance(body["components"]["consumer"]["lag"], int)


def test_point_written_to_gateway_is_queryable_through_backend() -> None:
    measurement = f"stack_{uuid.uuid4().hex[:8]}"
    now_ms = int(time.time() * 1000)
    body = (
        f"{measurement},host=probe-1 value=41.5 {now_ms}\n"
        f"{measurement},host=probe-2 value=7 {now_ms}\n"
    )
    r = httpx.post(
        f"{GATEWAY}/v1/write/metric?precision=ms",
        content=gzip.compress(body.encode()),
        headers={"Authorization": f"Token {INGEST_KEY}", "Content-Encoding": "gzip"},
        timeout=30,
    )
    assert r.status_code == 204, r.text

    def written() -> list[dict[str, Any]]:
        r = dql(f"M::{measurement}:(last(value)) [5m] BY host")
        assert r.status_code == 200, r.text
        return r.json()["content"][0]["series"]

    series = poll(written, timeout=30)
    by_host = {s["tags"]["host"]: s["values"][0][1] for s in series}
    assert by_host == {"probe-1": 41.5, "probe-2": 7}


def test_agent_cpu_query_in_guance_shape() -> None:
    def answered() -> dict[str, Any] | None:
        r = dql("M::cpu:(avg(usage_user)) [15m::1m] BY host")
        assert r.status_code == 200, r.text
        content = r.json()["content"][0]
        return content if content["series"] else None

    content = poll(answered, timeout=90, every=2)
    series = content["series"][0]
    assert series["name"] == "cpu"
    assert series["columns"] == ["time", "avg(usage_user)"]
    assert "host" in series["tags"]
    assert series["values"], series
    t, v = series["values"][-1]
    assert isinstance(t, int) and t % 60_000 == 0
    assert 0 <= v <= 100


def test_bad_dql_is_a_400_with_a_code() -> None:
    r = dql("M::cpu:(avg(usage_user) [15m")
    assert r.status_code == 400
    assert r.json()["error_code"] == "dql.parse_error"


def test_gateway_refuses_unknown_and_wrong_scope_keys() -> None:
    line = b"cpu,host=x usage_user=1\n"
    r = httpx.post(
        f"{GATEWAY}/v1/write/metric", content=line, headers={"Authorization": "Token vgi_nope"}
    )
    assert r.status_code == 401
    r = httpx.post(
        f"{GATEWAY}/v1/write/metric", content=line, headers={"Authorization": f"Token {QUERY_KEY}"}
    )
    assert r.status_code == 403


def test_gateway_names_the_bad_line() -> None:
    body = b"ok_m,host=a v=1\nbroken line without fields\n"
    r = httpx.post(
        f"{GATEWAY}/v1/write/metric", content=body, headers={"Authorization": f"Token {INGEST_KEY}"}
    )
    assert r.status_code == 400
    assert "line 2" in r.text


def test_query_api_refuses_ingest_key() -> None:
    r = dql("M::cpu:(avg(usage_user)) [5m]", key=INGEST_KEY)
    assert r.status_code in (401, 403), r.text


def test_query_cannot_name_the_tenant_label() -> None:
    r = dql("M::cpu:(avg(usage_user)) {vigil_workspace = 'other'} [5m]")
    assert r.status_code == 400
    assert r.json()["error_code"] == "dql.forbidden_label"
