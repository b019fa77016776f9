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

import stack

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
    """With the internal token /api/health details every component; without, up/down only."""
    internal = {"Authorization": f"Bearer {stack.internal_token()}"}

    def healthy() -> dict[str, Any] | None:
        body = httpx.get(f"{BACKEND}/api/health", headers=internal, timeout=15).json()
        return body if body["status"] == "ok" else None

    body = poll(healthy, timeout=60)
    assert set(body["components"]) >= {"postgres", "kafka", "storage", "gateway", "consumer"}
    for name, component in body["components"].items():
        assert component["ok"] is True, (name, component)
    assert isinstance(body["components"]["consumer"]["lag"], int)
    assert body["components"]["gateway"]["version"]  # the gateway details for the token too
    assert httpx.get(f"{BACKEND}/api/health", timeout=15).json() == {"status": "ok"}
    # the gateway: up/down for anyone, its Kafka address and metrics for the token only
    gateway = httpx.get(f"{GATEWAY}/health", timeout=5)
    assert gateway.json() == {"status": "ok"}, gateway.text
    detailed = httpx.get(f"{GATEWAY}/health", headers=internal, timeout=5).json()
    assert detailed["kafka"]["ok"] is True and detailed["kafka"]["bootstrap"]
    assert httpx.get(f"{GATEWAY}/metrics", timeout=5).status_code == 401
    metrics = httpx.get(f"{GATEWAY}/metrics", headers=internal, timeout=5)
    assert metrics.status_code == 200 and "vigil_gateway_requests" in metrics.text


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


def test_workspace_retention_applies_to_writes_and_queries() -> None:
    """A workspace's retention_days: the gateway refuses older points, and queries leave out
    older data already stored, as soon as the limit is lowered, and show it again when it is
    raised."""
    new = stack.new_workspace("retention")

    def set_retention(days: int) -> None:
        new.set_limits(retention_days=days)

    def write(age_s: int, measurement: str = "kept") -> httpx.Response:
        return new.write(f"{measurement},host=h v={age_s} {int(time.time()) - age_s}\n")

    def ages() -> list[float]:
        return sorted(row[1] for s in new.series("M::kept:(v) [5d]") for row in s["values"])

    three_days, one_hour = 3 * 86400, 3600
    assert write(three_days).status_code == 204  # default retention: 30 days
    assert write(one_hour).status_code == 204
    poll(lambda: ages() == [one_hour, three_days], timeout=30)

    set_retention(1)
    assert ages() == [one_hour]  # the next query already leaves the older point out
    # the gateway sees the new limit within its key cache's 5 s
    refused = poll(lambda: (r := write(three_days, "probe")).status_code == 400 and r, timeout=15)
    error = refused.json()["error"]
    assert "older than the retention period (1 day, the workspace's retention)" in error

    set_retention(30)
    assert ages() == [one_hour, three_days]


def test_workspace_active_series_limit_leaves_new_series_out() -> None:
    """A workspace's active_series limit: once that many series receive points, points of new
    series are left out (and counted in the workspace's usage), while the series it has keep
    receiving points."""
    new = stack.new_workspace("series-limit")
    new.set_limits(active_series=10)
    time.sleep(6)  # the gateway reads the new limit with the key, cached for up to 5 s

    def write(hosts: range) -> None:
        ts = int(time.time())
        r = new.write("".join(f"limited,host=h{h:03d} v={h} {ts}\n" for h in hosts))
        assert r.status_code == 204, r.text

    def hosts() -> list[str]:
        series = new.series("show_tag_value(from=['limited'], keyin=['host'])")
        return sorted(row[1] for s in series for row in s["values"])

    def dropped() -> int:
        return int(new.usage().get("series_limit_dropped_points") or 0)

    write(range(10))
    poll(lambda: len(hosts()) == 10, timeout=30)
    write(range(10, 40))  # 30 new series over the limit of 10
    # the consumer writes the batch, storage leaves its points out and counts them
    left_out = poll(lambda: dropped(), timeout=30)
    assert left_out == 30  # a set this small is exact
    kept = hosts()
    assert len(kept) == 40 - left_out and kept[:10] == [f"h{h:03d}" for h in range(10)]
    # the series the workspace has still receive points
    time.sleep(1.1)  # a later second than the first write
    write(range(10))

    def points_of_h000() -> int:
        return sum(len(s["values"]) for s in new.series("M::limited:(v) {host = 'h000'} [10m]"))

    poll(lambda: points_of_h000() == 2, timeout=30)
    assert dropped() == left_out

    # The points the gateway accepted are counted whether storage kept them or not: they are
    # what the workspace sent, in the unit of its ingest limit (10 + 30 + 10 lines).
    poll(lambda: new.usage()["points_today"] == 50, timeout=30)
    r = httpx.get(
        f"{BACKEND}/api/v1/workspaces/{new.id}/usage/history",
        params={"hours": 1},
        headers=new.auth,
        timeout=30,
    )
    assert r.status_code == 200, r.text
    assert round(sum(p["value"] for p in r.json()["ingest_rate"]) * 60) >= 50

    # storage counts the workspace's active series as they arrive (every 2 s in the test stack)
    def active_series() -> list[float]:
        r = httpx.get(
            f"{BACKEND}/api/v1/workspaces/{new.id}/usage/history",
            params={"hours": 1},
            headers=new.auth,
            timeout=30,
        )
        assert r.status_code == 200, r.text
        return [p["value"] for p in r.json()["active_series"]]

    assert poll(lambda: active_series()[-1:] == [10.0], timeout=30)


def _operator() -> dict[str, str]:
    """The demo operator's session (make up / make test create it, demo.env has the login)."""
    email = os.environ.get("VIGIL_DEMO_OPERATOR_EMAIL", "")
    password = os.environ.get("VIGIL_DEMO_OPERATOR_PASSWORD", "")
    if not (email and password):
        pytest.skip("demo.env has no operator login (VIGIL_DEMO_OPERATOR_EMAIL)")
    r = httpx.post(
        f"{BACKEND}/api/v1/auth/login", json={"email": email, "password": password}, timeout=15
    )
    assert r.status_code == 200, r.text
    return {"Authorization": f"Bearer {r.json()['access_token']}"}


def test_suspension_reaches_the_gateway_and_the_query_api() -> None:
    """An operator suspends a workspace: the real gateway refuses its ingest key within its
    key cache's 5 s, the query API its owner at once; its data stays and is there again after
    resuming, when writes are accepted again."""
    operator = _operator()
    new = stack.new_workspace("suspended")
    assert new.write(f"kept,host=h v=1 {int(time.time())}\n").status_code == 204
    poll(lambda: new.series("M::kept:(v) [1h]"), timeout=30)

    r = httpx.post(
        f"{BACKEND}/api/v1/operator/workspaces/{new.id}/suspend",
        json={"reason": "stack test"},
        headers=operator,
        timeout=15,
    )
    assert r.status_code == 200, r.text
    suspended_at = time.monotonic()

    def refused() -> httpx.Response | None:
        r = new.write(f"late,host=h v=2 {int(time.time())}\n")
        return r if r.status_code == 403 else None

    r = poll(refused, timeout=15, every=0.25)
    assert time.monotonic() - suspended_at < 7  # the key cache's 5 s, and a little slack
    assert r.json()["code"] == "workspace_suspended"
    assert "(stack test)" in r.json()["error"]
    q = httpx.post(
        f"{BACKEND}/api/v1/workspaces/{new.id}/query/raw",
        json={"queries": [{"query": "M::kept:(v) [1h]"}]},
        headers=new.auth,
        timeout=30,
    )
    assert q.status_code == 403 and q.json()["code"] == "workspace_suspended", q.text

    r = httpx.post(
        f"{BACKEND}/api/v1/operator/workspaces/{new.id}/resume", headers=operator, timeout=15
    )
    assert r.status_code == 200, r.text
    assert new.series("M::kept:(v) [1h]")  # the data stayed
    poll(lambda: new.write(f"back,host=h v=3 {int(time.time())}\n").status_code == 204, timeout=15)


def test_operators_see_a_workspaces_stored_size_from_storage() -> None:
    """The operator overview's storage figures come from the real vigil-storage."""
    operator = _operator()
    new = stack.new_workspace("sized")
    now = int(time.time())
    lines = "".join(f"sized,host=h{i} v={i} {now - 60 * j}\n" for i in range(5) for j in range(4))
    assert new.write(lines).status_code == 204
    poll(lambda: len(new.series("M::sized:(v) [1h] BY host")) == 5, timeout=30)

    def usage() -> dict[str, Any] | None:
        r = httpx.get(
            f"{BACKEND}/api/v1/operator/workspaces/{new.id}", headers=operator, timeout=60
        )
        assert r.status_code == 200, r.text
        figures: dict[str, Any] = r.json()["usage"]
        return figures if figures["stored_samples"] == 20 else None

    # storage's figures are kept a minute: the first answer may predate the points
    figures = poll(usage, timeout=75, every=5)
    assert figures["storage_bytes"] > 0 and figures["storage_error"] is None
    assert figures["active_series"] == 5
