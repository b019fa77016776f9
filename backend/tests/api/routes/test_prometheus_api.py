"""The rest of the Prometheus API Grafana's data source calls — metadata, build information,
exemplars, format_query, rules and alerts — and Prometheus' error envelope on every error
under the Prometheus prefixes. Driven by ``prometheus-api-client`` over HTTP where it has a
call for the endpoint, by plain requests otherwise; storage is ``StorageMock``.
"""

from __future__ import annotations

import base64
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from prometheus_api_client import PrometheusApiClientException, PrometheusConnect
from sqlalchemy.orm import Session

from app.models import Monitor, MonitorGroup, RecordingRule
from app.services.prometheus_rules import go_float
from tests.alerting.fakes import dql_answer
from tests.factories import add_member, create_key, create_workspace, signup
from tests.storage_mock import StorageMock

AT = datetime(2024, 5, 1, 12, 0, 0, tzinfo=UTC)


@pytest.fixture()
def setup(client: TestClient) -> Iterator[dict[str, Any]]:
    user = signup(client)
    ws = create_workspace(client, user)
    key = create_key(client, user, ws["id"], "query")["key"]
    yield {"user": user, "ws": ws, "key": key, "auth": {"Authorization": f"Bearer {key}"}}


def _err(error_type: str, message: str) -> dict[str, str]:
    return {"status": "error", "errorType": error_type, "error": message}


# --- endpoints ------------------------------------------------------------------------------


def test_metadata_lists_the_workspace_metrics_as_unknown(
    client: TestClient, setup: dict[str, Any], storage: StorageMock
) -> None:
    r = client.get("/prometheus/api/v1/metadata", headers=setup["auth"])
    assert r.status_code == 200
    assert r.json() == {
        "status": "success",
        "data": {"cpu:usage_user": [{"type": "unknown", "help": "", "unit": ""}]},
    }
    sent = storage.last()
    assert sent.url.path == "/api/v1/label/__name__/values"
    assert sent.headers["x-vigil-workspace"] == setup["ws"]["id"]
    r = client.get("/prometheus/api/v1/metadata", params={"metric": "nope"}, headers=setup["auth"])
    assert r.json() == {"status": "success", "data": {}}
    r = client.get("/prometheus/api/v1/metadata", params={"limit": "0"}, headers=setup["auth"])
    assert r.json() == {"status": "success", "data": {}}
    r = client.get("/prometheus/api/v1/metadata", params={"limit": "x"}, headers=setup["auth"])
    assert r.status_code == 400
    assert r.json() == _err("bad_data", 'invalid parameter "limit": "x" is not a number')


def test_buildinfo_and_exemplars(client: TestClient, setup: dict[str, Any]) -> None:
    ws = setup["ws"]
    r = client.get(
        f"/api/v1/workspaces/{ws['id']}/prometheus/api/v1/status/buildinfo",
        headers=setup["user"].headers,
    )
    assert r.status_code == 200
    assert r.json() == {
        "status": "success",
        "data": {
            "version": "2.53.0",
            "revision": "vigil-0.1.0",
            "branch": "",
            "buildUser": "",
            "buildDate": "",
            "goVersion": "",
        },
    }
    r = client.post(
        "/prometheus/api/v1/query_exemplars",
        content="query=up&start=2024-05-01T00:00:00Z&end=1714600000.5",
        headers={**setup["auth"], "Content-Type": "application/x-www-form-urlencoded"},
    )
    assert r.status_code == 200
    assert r.json() == {"status": "success", "data": []}
    r = client.get(
        "/prometheus/api/v1/query_exemplars",
        params={"query": "up", "start": "yesterday"},
        headers=setup["auth"],
    )
    assert r.status_code == 400
    assert r.json() == _err(
        "bad_data", 'invalid parameter "start": cannot parse "yesterday" to a valid timestamp'
    )
    r = client.get("/prometheus/api/v1/query_exemplars", headers=setup["auth"])
    assert r.json() == _err("bad_data", "missing `query` parameter")


def test_format_query_goes_to_storage_scoped(
    client: TestClient, setup: dict[str, Any], storage: StorageMock
) -> None:
    storage.handler = lambda request: httpx.Response(
        200, json={"status": "success", "data": "sum by(job) (up)"}
    )
    r = client.get(
        "/prometheus/api/v1/format_query",
        params={"query": "sum(up)by(job)"},
        headers=setup["auth"],
    )
    assert r.status_code == 200
    assert r.json() == {"status": "success", "data": "sum by(job) (up)"}
    sent = storage.last()
    assert sent.url.path == "/api/v1/format_query"
    assert dict(sent.url.params) == {"query": "sum(up)by(job)"}
    assert sent.headers["x-vigil-workspace"] == setup["ws"]["id"]


def _monitor(client: TestClient, setup: dict[str, Any], storage: StorageMock, **kw: Any) -> str:
    storage.handler = dql_answer({"web-1": 50})
    body = {
        "name": "CPU high",
        "query": "M::cpu:(avg(usage_user)) BY host",
        "conditions": [
            {"severity": "critical", "op": ">", "threshold": 90},
            {"severity": "warning", "op": ">", "threshold": 70},
        ],
        "for_seconds": 120,
        "title": "{{monitor}} on {{host}}",
        "message": "value {{value}} ({{condition}})",
        **kw,
    }
    r = client.post(
        f"/api/v1/workspaces/{setup['ws']['id']}/monitors",
        json=body,
        headers=setup["user"].headers,
    )
    assert r.status_code == 201, r.text
    storage.handler = None
    return str(r.json()["id"])


def _evaluated(
    db: Session, monitor_id: str, groups: list[tuple[str, str, str | None, float | None]]
) -> None:
    """The state the evaluator leaves: the last run, and one row per group."""
    m = db.get(Monitor, uuid.UUID(monitor_id))
    assert m is not None
    m.last_eval_at = AT
    m.last_eval_ms = 12.5
    for host, state, severity, value in groups:
        db.add(
            MonitorGroup(
                monitor_id=m.id,
                group_key=f"host={host}",
                workspace_id=m.workspace_id,
                tags={"host": host},
                state=state,
                severity=severity,
                value=value,
                since=AT,
                first_seen_at=AT,
            )
        )
    db.commit()


def test_rules_and_alerts_from_monitors(
    client: TestClient, live_server: str, setup: dict[str, Any], storage: StorageMock, db: Session
) -> None:
    cpu = _monitor(client, setup, storage)
    disk = _monitor(client, setup, storage, name="Disk full", runbook_url="https://run.book/disk")
    _monitor(client, setup, storage, name="Paused", enabled=False)
    _evaluated(
        db,
        cpu,
        [
            ("web-1", "firing", "critical", 95.5),
            ("web-2", "pending", "warning", 75.0),
            ("web-3", "ok", None, 10.0),
        ],
    )
    m = db.get(Monitor, uuid.UUID(disk))
    assert m is not None
    m.last_error = "storage: timeout"
    db.add(
        RecordingRule(
            workspace_id=uuid.UUID(setup["ws"]["id"]),
            name="cpu by host",
            language="dql",
            query="M::cpu:(avg(usage_user)) BY host",
            interval_seconds=60,
            window_seconds=60,
            measurement="cpu_host",
            field="avg",
            next_eval_at=AT,
        )
    )
    db.commit()

    prom = PrometheusConnect(url=f"{live_server}/prometheus", headers=setup["auth"])
    # prometheus-api-client has no rules/alerts calls: its session, its headers
    r = prom._session.get(f"{live_server}/prometheus/api/v1/rules", headers=setup["auth"])
    assert r.status_code == 200
    firing = {
        "labels": {"host": "web-1", "severity": "critical", "alertname": "CPU high"},
        "annotations": {"summary": "CPU high on web-1", "description": "value 95.5 (> 90)"},
        "state": "firing",
        "activeAt": "2024-05-01T12:00:00Z",
        "value": "9.55e+01",
    }
    pending = {
        "labels": {"host": "web-2", "severity": "warning", "alertname": "CPU high"},
        "annotations": {"summary": "CPU high on web-2", "description": "value 75 (> 70)"},
        "state": "pending",
        "activeAt": "2024-05-01T12:00:00Z",
        "value": "7.5e+01",
    }
    assert r.json() == {
        "status": "success",
        "data": {
            "groups": [
                {
                    "name": "CPU high",
                    "file": "monitors",
                    "rules": [
                        {
                            "state": "firing",
                            "name": "CPU high",
                            "query": "M::cpu:(avg(usage_user)) BY host",
                            "duration": 120,
                            "keepFiringFor": 0,
                            "labels": {"language": "dql"},
                            "annotations": {
                                "summary": "{{monitor}} on {{host}}",
                                "description": "value {{value}} ({{condition}})",
                            },
                            "health": "ok",
                            "lastError": "",
                            "evaluationTime": 0.0125,
                            "lastEvaluation": "2024-05-01T12:00:00Z",
                            "type": "alerting",
                            "alerts": [firing, pending],
                        }
                    ],
                    "interval": 60,
                    "limit": 0,
                    "evaluationTime": 0.0125,
                    "lastEvaluation": "2024-05-01T12:00:00Z",
                },
                {
                    "name": "Disk full",
                    "file": "monitors",
                    "rules": [
                        {
                            "state": "inactive",
                            "name": "Disk full",
                            "query": "M::cpu:(avg(usage_user)) BY host",
                            "duration": 120,
                            "keepFiringFor": 0,
                            "labels": {"language": "dql"},
                            "annotations": {
                                "summary": "{{monitor}} on {{host}}",
                                "description": "value {{value}} ({{condition}})",
                                "runbook_url": "https://run.book/disk",
                            },
                            "health": "err",
                            "lastError": "storage: timeout",
                            "evaluationTime": 0.0,
                            "lastEvaluation": "0001-01-01T00:00:00Z",
                            "type": "alerting",
                            "alerts": [],
                        }
                    ],
                    "interval": 60,
                    "limit": 0,
                    "evaluationTime": 0.0,
                    "lastEvaluation": "0001-01-01T00:00:00Z",
                },
                {
                    "name": "cpu by host",
                    "file": "recording_rules",
                    "rules": [
                        {
                            "name": "cpu_host:avg",
                            "query": "M::cpu:(avg(usage_user)) BY host",
                            "labels": {"language": "dql"},
                            "health": "unknown",
                            "lastError": "",
                            "evaluationTime": 0.0,
                            "lastEvaluation": "0001-01-01T00:00:00Z",
                            "type": "recording",
                        }
                    ],
                    "interval": 60,
                    "limit": 0,
                    "evaluationTime": 0.0,
                    "lastEvaluation": "0001-01-01T00:00:00Z",
                },
            ]
        },
    }
    r = prom._session.get(f"{live_server}/prometheus/api/v1/alerts", headers=setup["auth"])
    assert r.json() == {"status": "success", "data": {"alerts": [firing, pending]}}

    def names(**params: Any) -> list[str]:
        r = client.get("/prometheus/api/v1/rules", params=params, headers=setup["auth"])
        assert r.status_code == 200, r.text
        return [g["name"] for g in r.json()["data"]["groups"]]

    assert names(type="record") == ["cpu by host"]
    assert names(type="alert") == ["CPU high", "Disk full"]
    assert names(**{"rule_name[]": "Disk full"}) == ["Disk full"]
    assert names(**{"rule_group[]": ["CPU high", "cpu by host"]}) == ["CPU high", "cpu by host"]
    assert names(**{"file[]": "recording_rules"}) == ["cpu by host"]
    r = client.get(
        "/prometheus/api/v1/rules", params={"exclude_alerts": "true"}, headers=setup["auth"]
    )
    assert "alerts" not in r.json()["data"]["groups"][0]["rules"][0]

    # another workspace sees none of it
    other = create_workspace(client, setup["user"])
    r = client.get(
        f"/api/v1/workspaces/{other['id']}/prometheus/api/v1/rules", headers=setup["user"].headers
    )
    assert r.json() == {"status": "success", "data": {"groups": []}}


def test_nodata_alert_is_firing_with_a_label(
    client: TestClient, setup: dict[str, Any], storage: StorageMock, db: Session
) -> None:
    cpu = _monitor(client, setup, storage)
    _evaluated(db, cpu, [("web-9", "nodata", "warning", None)])
    r = client.get("/prometheus/api/v1/alerts", headers=setup["auth"])
    assert r.json()["data"]["alerts"] == [
        {
            "labels": {
                "host": "web-9",
                "severity": "warning",
                "nodata": "true",
                "alertname": "CPU high",
            },
            "annotations": {
                "summary": "CPU high on web-9",
                "description": "value no value (no data)",
            },
            "state": "firing",
            "activeAt": "2024-05-01T12:00:00Z",
            "value": "NaN",
        }
    ]


@pytest.mark.parametrize(
    ("x", "text"),
    [(1.0, "1e+00"), (95.5, "9.55e+01"), (0.00025, "2.5e-04"), (-3e300, "-3e+300"), (None, "NaN")],
)
def test_values_are_written_as_go_writes_them(x: float | None, text: str) -> None:
    assert go_float(x) == text


# --- errors ---------------------------------------------------------------------------------


def test_rules_parameters(client: TestClient, setup: dict[str, Any]) -> None:
    def get(**params: str) -> httpx.Response:
        return client.get("/prometheus/api/v1/rules", params=params, headers=setup["auth"])

    r = get(type="x")
    assert r.status_code == 400
    assert r.json() == _err("bad_data", 'invalid parameter "type": not supported value "x"')
    r = get(exclude_alerts="maybe")
    assert r.json() == _err(
        "bad_data", 'invalid parameter "exclude_alerts": "maybe" is not a boolean'
    )
    r = get(**{"match[]": '{severity="critical"}'})
    assert r.status_code == 400
    assert r.json() == _err("bad_data", 'invalid parameter "match[]": not supported by Vigil')


def test_auth_failures_in_the_prometheus_envelope(
    client: TestClient, setup: dict[str, Any]
) -> None:
    r = client.get("/prometheus/api/v1/labels")
    assert r.status_code == 401
    assert r.headers["www-authenticate"] == "Bearer"
    assert r.json() == _err(
        "unauthorized", "Not authenticated: send a query key as Authorization: Token <key>"
    )
    r = client.get("/prometheus/api/v1/rules", headers={"Authorization": "Token vgq_nope"})
    assert r.status_code == 401
    assert r.json()["errorType"] == "unauthorized"
    assert set(r.json()) == {"status", "errorType", "error"}
    basic = base64.b64encode(b"grafana:wrong").decode()
    r = client.get("/prometheus/api/v1/alerts", headers={"Authorization": f"Basic {basic}"})
    assert r.status_code == 401 and r.json()["errorType"] == "unauthorized"
    # a non-member, on the workspace's path
    stranger = signup(client)
    r = client.get(
        f"/api/v1/workspaces/{setup['ws']['id']}/prometheus/api/v1/alerts",
        headers=stranger.headers,
    )
    assert r.status_code == 404
    assert r.json() == _err("not_found", "Workspace not found")
    # the query key of one workspace on another's path
    other = create_workspace(client, setup["user"])
    r = client.get(
        f"/api/v1/workspaces/{other['id']}/prometheus/api/v1/query",
        params={"query": "up"},
        headers=setup["auth"],
    )
    assert r.status_code == 404
    assert r.json() == _err("not_found", "Workspace not found")
    # outside the Prometheus prefixes nothing changes
    r = client.get(f"/api/v1/workspaces/{other['id']}/monitors")
    assert r.json() == {"detail": "Not authenticated", "code": "unauthorized"}


def test_a_key_without_the_query_scope_is_forbidden_in_the_envelope(
    client: TestClient, setup: dict[str, Any]
) -> None:
    # an ingest key is not a query key
    ingest = create_key(client, setup["user"], setup["ws"]["id"], "ingest")["key"]
    r = client.get("/prometheus/api/v1/labels", headers={"Authorization": f"Token {ingest}"})
    assert r.status_code == 403
    assert r.json() == _err("forbidden", "This key has the ingest scope; queries need a query key")
    viewer = add_member(client, setup["user"], setup["ws"]["id"], "viewer")
    r = client.get(
        f"/api/v1/workspaces/{setup['ws']['id']}/prometheus/api/v1/rules", headers=viewer.headers
    )
    assert r.status_code == 200


def test_bad_requests_in_the_envelope(client: TestClient, setup: dict[str, Any]) -> None:
    r = client.post(
        "/prometheus/api/v1/query",
        content=b'{"query":"up"}',
        headers={**setup["auth"], "Content-Type": "application/json"},
    )
    assert r.status_code == 400
    assert r.json() == _err("bad_data", "POST bodies must be application/x-www-form-urlencoded")
    r = client.get("/prometheus/api/v1/label/bad%20name/values", headers=setup["auth"])
    assert r.status_code == 400
    assert r.json() == _err(
        "bad_data",
        "invalid label name 'bad name': expected [A-Za-z_][A-Za-z0-9_.:-]*, at most 256 characters",
    )
    r = client.get("/prometheus/api/v1/nothing", headers=setup["auth"])
    assert r.status_code == 404
    assert r.json() == _err("not_found", "No such endpoint: /prometheus/api/v1/nothing")
    r = client.delete("/prometheus/api/v1/query", headers=setup["auth"])
    assert r.status_code == 405
    assert r.json() == _err("method_not_allowed", "Method Not Allowed")
    r = client.post(
        "/prometheus/api/v1/query",
        content=b"query=" + b"x" * (5 * 1024 * 1024),
        headers={**setup["auth"], "Content-Type": "application/x-www-form-urlencoded"},
    )
    assert r.status_code == 413
    assert r.json() == _err("too_large", "request body larger than 4194304 bytes")


def test_storage_refusals_timeouts_and_limits(
    client: TestClient, setup: dict[str, Any], storage: StorageMock
) -> None:
    def raise_timeout(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("slow", request=request)

    storage.handler = raise_timeout
    r = client.get("/prometheus/api/v1/query", params={"query": "up"}, headers=setup["auth"])
    assert r.status_code == 503
    assert r.json() == _err("timeout", "vigil-storage did not answer in time (ReadTimeout)")

    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    storage.handler = refuse
    r = client.get("/prometheus/api/v1/labels", headers=setup["auth"])
    assert r.status_code == 502
    assert r.json() == _err("unavailable", "vigil-storage is unreachable: connection refused")
    # storage's own refusals keep its status, envelope and Retry-After
    full = _err("limit_exceeded", "too many concurrent queries of this workspace (limit 4)")
    storage.handler = lambda request: httpx.Response(429, json=full, headers={"Retry-After": "1"})
    r = client.get("/prometheus/api/v1/query", params={"query": "up"}, headers=setup["auth"])
    assert r.status_code == 429
    assert r.headers["retry-after"] == "1"
    assert r.json() == full


def test_client_library_raises_with_prometheus_message(
    live_server: str,
    setup: dict[str, Any],
) -> None:
    prom = PrometheusConnect(url=f"{live_server}/prometheus", headers={"Authorization": "Token x"})
    with pytest.raises(PrometheusApiClientException) as exc:
        prom.get_label_names()
    assert "401" in str(exc.value)
