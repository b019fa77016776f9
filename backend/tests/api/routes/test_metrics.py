from __future__ import annotations

import json
import logging
import re
import subprocess
import sys
import uuid
from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from app.core.config import settings
from app.core.logging import log_formatter
from tests.factories import create_workspace, signup

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
DQL = {"queries": [{"query": "M::cpu:(avg(usage_user))"}]}


@pytest.fixture()
def local(app: FastAPI) -> Iterator[TestClient]:
    """A client on loopback, which VIGIL_METRICS_ALLOW lets read /metrics."""
    with TestClient(app, client=("127.0.0.1", 50000)) as c:
        yield c


Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def samples(client: TestClient) -> Samples:
    r = client.get("/metrics")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain; version=")
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(r.text)
        for s in family.samples
    }


def value(
    all_: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str, **labels: str
) -> float:
    return all_.get((name, frozenset(labels.items())), 0.0)


def test_requests_are_counted_by_route_template_and_status(local: TestClient) -> None:
    route = "/api/v1/workspaces/{workspace_id}/dashboards"
    before = samples(local)
    for _ in range(2):
        r = local.get(f"/api/v1/workspaces/{uuid.uuid4()}/dashboards")
        assert r.status_code == 401
    after = samples(local)
    name = "vigil_backend_http_requests_total"
    labels = {"method": "GET", "route": route, "status": "401"}
    assert value(after, name, **labels) - value(before, name, **labels) == 2
    count = "vigil_backend_http_request_duration_seconds_count"
    assert (
        value(after, count, method="GET", route=route)
        - value(before, count, method="GET", route=route)
        == 2
    )
    # no series carries a concrete workspace id
    assert not [k for k in after if any(UUID.search(v) for _, v in k[1])]


def test_unknown_paths_count_under_one_route(local: TestClient) -> None:
    """The UI's catch-all answers every other GET (404 under /api): one series for all."""
    before = samples(local)
    assert local.get("/api/nope/at/all").status_code == 404
    assert local.get(f"/api/nope/{uuid.uuid4()}").status_code == 404
    after = samples(local)
    name = "vigil_backend_http_requests_total"
    labels = {"method": "GET", "route": "/{path:path}", "status": "404"}
    assert value(after, name, **labels) - value(before, name, **labels) == 2


def test_storage_query_latency_and_db_pool(local: TestClient) -> None:
    user = signup(local)
    ws = create_workspace(local, user)
    before = samples(local)
    r = local.post(f"/api/v1/workspaces/{ws['id']}/query/raw", json=DQL, headers=user.headers)
    assert r.status_code == 200
    after = samples(local)
    count = "vigil_backend_storage_request_duration_seconds_count"
    labels = {"operation": "/v1/query/raw", "status": "200"}
    assert value(after, count, **labels) - value(before, count, **labels) == 1
    assert value(after, "vigil_backend_db_pool_size") == settings.DB_POOL_SIZE == 40
    assert ("vigil_backend_db_pool_checked_out", frozenset()) in after


REFUSED = {
    "detail": "/metrics needs the internal token (Authorization: Bearer) or a client address "
    "in VIGIL_METRICS_ALLOW",
    "code": "forbidden",
}


def test_metrics_refused_to_other_addresses(client: TestClient) -> None:
    r = client.get("/metrics")
    assert r.status_code == 403
    assert r.json() == REFUSED
    # a session, a query key's shape or a wrong token is not the internal token
    for value in ("Bearer wrong-token", "Basic test-internal-token", "Bearer "):
        r = client.get("/metrics", headers={"Authorization": value})
        assert r.status_code == 403, value
        assert r.json() == REFUSED


def test_metrics_served_to_the_internal_token_from_anywhere(client: TestClient) -> None:
    r = client.get("/metrics", headers={"Authorization": "Bearer test-internal-token"})
    assert r.status_code == 200, r.text
    assert "\nvigil_backend_http_requests_total" in r.text


def test_metrics_allow_lists_the_client_behind_trusted_proxies(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through a trusted proxy on loopback, the client it names decides, not the proxy."""
    monkeypatch.setattr(settings, "TRUSTED_PROXIES", "127.0.0.1")
    monkeypatch.setattr(settings, "METRICS_ALLOW", "127.0.0.0/8,10.1.0.0/16")
    with TestClient(app, client=("127.0.0.1", 50000)) as proxy:
        r = proxy.get("/metrics", headers={"X-Forwarded-For": "203.0.113.9"})
        assert r.status_code == 403
        assert r.json() == REFUSED
        r = proxy.get("/metrics", headers={"X-Forwarded-For": "10.1.2.3"})
        assert r.status_code == 200, r.text
        # a hop the client wrote itself, before the proxy's, is not believed
        r = proxy.get("/metrics", headers={"X-Forwarded-For": "10.1.2.3, 203.0.113.9"})
        assert r.status_code == 403


def test_metrics_is_not_in_the_openapi_document(local: TestClient) -> None:
    assert "/metrics" not in local.get("/api/openapi.json").json()["paths"]


def test_json_log_lines_parse_with_level_message_logger() -> None:
    record = logging.LogRecord("vigil.test", logging.WARNING, __file__, 1, "hello %s", ("x",), None)
    line = json.loads(log_formatter("json").format(record))
    assert line["level"] == "WARNING"
    assert line["message"] == "hello x"
    assert line["logger"] == "vigil.test"
    assert "time" in line
    assert log_formatter("text").format(record).endswith("WARNING vigil.test hello x")


def test_backend_logs_json_when_asked() -> None:
    """A real process with VIGIL_LOG_FORMAT=json: each line it logs is a JSON object, with
    credentials redacted as in text lines."""
    code = (
        "import logging; from app.core.logging import setup_logging; setup_logging(); "
        "logging.getLogger('vigil.check').error('boom %d /x?token=%s', 7, 'vgq_topsecretkey')"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        env={**_env(), "VIGIL_LOG_FORMAT": "json"},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    lines = [json.loads(line) for line in out.stderr.splitlines() if line.startswith("{")]
    assert "topsecretkey" not in out.stderr
    want = {"level": "ERROR", "logger": "vigil.check", "message": "boom 7 /x?token=[redacted]"}
    assert want.items() <= lines[-1].items()


def test_vigil_alerting_help_lists_its_settings() -> None:
    out = _alerting("--help")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("usage: vigil-alerting")
    assert "Evaluate monitors and recording rules" in out.stdout
    assert "VIGIL_ALERTING_WORKERS" in out.stdout and " 4\n" in out.stdout
    assert "VIGIL_LOG_FORMAT" in out.stdout
    bad = _alerting("--bogus")
    assert bad.returncode == 2
    assert "unrecognized arguments: --bogus" in bad.stderr


def _alerting(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app.alerting.main", *args],
        env=_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )


def _env() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if k != "VIGIL_LOG_FORMAT"}
