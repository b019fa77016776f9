from __future__ import annotations

import gzip
import json

import httpx
from fastapi.testclient import TestClient

from tests.factories import add_member, create_key, create_workspace, signup
from tests.storage_mock import StorageMock

DQL = {
    "queries": [{"query": "M::cpu:(avg(usage_idle)) [1h] BY host", "time_range": [1, 2]}],
    "echo_explain": False,
}


def test_session_query_is_forwarded_with_workspace_and_limits(
    client: TestClient, storage: StorageMock
) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    client.patch(
        f"/api/v1/workspaces/{ws['id']}/limits",
        json={
            "query_timeout_seconds": 7,
            "max_points_per_query": 1234,
            "retention_days": 9,
            "concurrent_queries": 3,
        },
        headers=user.headers,
    )
    r = client.post(f"/api/v1/workspaces/{ws['id']}/query/raw", json=DQL, headers=user.headers)
    assert r.status_code == 200
    assert r.json()["content"][0]["series"][0]["name"] == "cpu"
    sent = storage.last()
    assert sent.url.path == "/v1/query/raw"
    assert sent.headers["x-vigil-workspace"] == ws["id"]
    assert sent.headers["x-vigil-query-timeout"] == "7s"
    assert sent.headers["x-vigil-max-points"] == "1234"
    assert sent.headers["x-vigil-retention"] == "216h"
    assert sent.headers["x-vigil-max-concurrent-queries"] == "3"
    assert sent.headers["authorization"] == "Bearer test-internal-token"
    assert json.loads(sent.content) == DQL


def test_unknown_request_fields_are_passed_on(client: TestClient, storage: StorageMock) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    body = {"queries": [{"query": "M::cpu", "future_field": 1}], "other": "x"}
    r = client.post(f"/api/v1/workspaces/{ws['id']}/query/raw", json=body, headers=user.headers)
    assert r.status_code == 200
    assert json.loads(storage.last().content) == body


def test_dql_errors_pass_through_unchanged(client: TestClient, storage: StorageMock) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    error = {"error_code": "dql.parse_error", "message": "1:5: unexpected ')'"}
    storage.handler = lambda request: httpx.Response(400, json=error)
    r = client.post(f"/api/v1/workspaces/{ws['id']}/query/raw", json=DQL, headers=user.headers)
    assert r.status_code == 400
    assert r.json() == error
    timeout = {"error_code": "dql.timeout", "message": "query exceeded 30s"}
    storage.handler = lambda request: httpx.Response(504, json=timeout)
    r = client.post(f"/api/v1/workspaces/{ws['id']}/query/raw", json=DQL, headers=user.headers)
    assert r.status_code == 504
    assert r.json() == timeout


def test_storage_down_is_502(client: TestClient, storage: StorageMock) -> None:
    user = signup(client)
    ws = create_workspace(client, user)

    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    storage.handler = refuse
    r = client.post(f"/api/v1/workspaces/{ws['id']}/query/raw", json=DQL, headers=user.headers)
    assert r.status_code == 502
    assert r.json()["code"] == "storage_unavailable"


def test_query_key_picks_the_workspace(client: TestClient, storage: StorageMock) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    key = create_key(client, user, ws["id"], "query")["key"]
    for kwargs in (
        {"headers": {"Authorization": f"Token {key}"}},
        {"headers": {"Authorization": f"Bearer {key}"}},
        {"params": {"token": key}},
    ):
        storage.requests.clear()
        r = client.post("/v1/query/raw", json=DQL, **kwargs)  # type: ignore[arg-type]
        assert r.status_code == 200, r.text
        assert storage.last().headers["x-vigil-workspace"] == ws["id"]


def test_query_key_errors(client: TestClient, storage: StorageMock) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    ingest = create_key(client, user, ws["id"], "ingest")
    r = client.post("/v1/query/raw", json=DQL)
    assert r.status_code == 401
    r = client.post("/v1/query/raw", json=DQL, headers={"Authorization": "Token vgq_nope"})
    assert r.status_code == 401
    assert r.json() == {"detail": "API key is invalid or revoked", "code": "invalid_key"}
    r = client.post("/v1/query/raw", json=DQL, headers={"Authorization": f"Token {ingest['key']}"})
    assert r.status_code == 403
    assert r.json()["detail"] == "This key has the ingest scope; queries need a query key"
    query = create_key(client, user, ws["id"], "query")
    client.delete(f"/api/v1/workspaces/{ws['id']}/keys/{query['id']}", headers=user.headers)
    r = client.post("/v1/query/raw", json=DQL, headers={"Authorization": f"Token {query['key']}"})
    assert r.status_code == 401
    assert storage.requests == []


def test_query_key_of_another_workspace_is_404(client: TestClient, storage: StorageMock) -> None:
    a, b = signup(client), signup(client)
    ws_a, ws_b = create_workspace(client, a), create_workspace(client, b)
    key_b = create_key(client, b, ws_b["id"], "query")["key"]
    r = client.post(
        f"/api/v1/workspaces/{ws_a['id']}/query/raw",
        json=DQL,
        headers={"Authorization": f"Bearer {key_b}"},
    )
    assert r.status_code == 404
    assert storage.requests == []
    # but on its own workspace, the key is accepted on the session path too
    r = client.post(
        f"/api/v1/workspaces/{ws_b['id']}/query/raw",
        json=DQL,
        headers={"Authorization": f"Bearer {key_b}"},
    )
    assert r.status_code == 200
    assert storage.last().headers["x-vigil-workspace"] == ws_b["id"]


def test_viewer_may_query_and_queries_are_counted(client: TestClient, storage: StorageMock) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    viewer = add_member(client, owner, ws["id"], "viewer")
    for _ in range(3):
        r = client.post(
            f"/api/v1/workspaces/{ws['id']}/query/raw", json=DQL, headers=viewer.headers
        )
        assert r.status_code == 200
    usage = client.get(f"/api/v1/workspaces/{ws['id']}/usage", headers=owner.headers).json()
    assert usage["queries_today"] == 3
    assert usage["active_series"] == 42
    assert storage.last().headers["x-vigil-workspace"] == ws["id"]


def test_empty_queries_is_422(client: TestClient, storage: StorageMock) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    r = client.post(
        f"/api/v1/workspaces/{ws['id']}/query/raw", json={"queries": []}, headers=user.headers
    )
    assert r.status_code == 422
    assert r.json()["detail"].startswith("body.queries:")
    assert storage.requests == []


def test_query_raw_body_is_json_whatever_the_content_type(
    client: TestClient, storage: StorageMock
) -> None:
    """curl -d and DataKit-style clients post the JSON body as form or without a type."""
    user = signup(client)
    ws = create_workspace(client, user)
    key = create_key(client, user, ws["id"], "query")["key"]
    for content_type in ("application/x-www-form-urlencoded", "text/plain", None):
        headers = {"Authorization": f"Bearer {key}"}
        if content_type:
            headers["Content-Type"] = content_type
        r = client.post("/v1/query/raw", content=json.dumps(DQL), headers=headers)
        assert r.status_code == 200, (content_type, r.text)
        assert json.loads(storage.last().content) == DQL


def test_a_gzip_answer_is_passed_on_compressed_or_inflated_for_clients_without_gzip(
    client: TestClient, storage: StorageMock
) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    answer = {"content": [{"series": [], "cost": "1ms"}]}
    body = gzip.compress(json.dumps(answer).encode())
    # as over the network: the gzip'd bytes, read by the client as they come
    storage.handler = lambda request: httpx.Response(
        200,
        stream=httpx.ByteStream(body),
        headers={"Content-Type": "application/json", "Content-Encoding": "gzip"},
    )
    url = f"/api/v1/workspaces/{ws['id']}/query/raw"

    r = client.post(url, json=DQL, headers={**user.headers, "Accept-Encoding": "gzip"})
    assert r.status_code == 200
    assert r.headers["content-encoding"] == "gzip"
    assert r.headers["vary"] == "Accept-Encoding"
    assert int(r.headers["content-length"]) == len(body)  # the bytes storage sent, as they were
    assert r.json() == answer
    # the backend asks storage for gzip only, the one coding it passes on
    assert storage.last().headers["accept-encoding"] == "gzip"

    for accept in ("identity", "br", "gzip;q=0"):
        r = client.post(url, json=DQL, headers={**user.headers, "Accept-Encoding": accept})
        assert r.status_code == 200
        assert "content-encoding" not in r.headers, accept
        assert json.loads(r.content) == answer

    # the Prometheus API takes the same way
    storage.handler = lambda request: httpx.Response(
        200,
        stream=httpx.ByteStream(gzip.compress(b'{"status":"success","data":[]}')),
        headers={"Content-Type": "application/json", "Content-Encoding": "gzip"},
    )
    r = client.get(
        f"/api/v1/workspaces/{ws['id']}/prometheus/api/v1/labels",
        headers={**user.headers, "Accept-Encoding": "gzip"},
    )
    assert r.status_code == 200, r.text
    assert r.headers["content-encoding"] == "gzip"
    assert r.json() == {"status": "success", "data": []}


def test_answers_say_how_long_storage_and_the_backend_took(
    client: TestClient, storage: StorageMock
) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    r = client.post(f"/api/v1/workspaces/{ws['id']}/query/raw", json=DQL, headers=user.headers)
    assert r.status_code == 200
    timing = dict(
        (name.strip(), float(dur.removeprefix("dur=")))
        for name, dur in (entry.split(";") for entry in r.headers["server-timing"].split(","))
    )
    assert set(timing) == {"storage", "app"}
    assert 0 <= timing["storage"] <= timing["app"]
    # every other answer carries the backend's share alone
    r = client.get("/api/v1/auth/me", headers=user.headers)
    assert r.headers["server-timing"].startswith("app;dur=")


def test_a_full_query_queue_is_429_with_retry_after(
    client: TestClient, storage: StorageMock
) -> None:
    """Storage answers 429 when the workspace's own queue of queries is full: the caller gets
    it as it is, with its Retry-After, through DQL and the Prometheus API alike."""
    user = signup(client)
    ws = create_workspace(client, user)
    refusal = {
        "status": "error",
        "errorType": "limit_exceeded",
        "error": "workspace limit concurrent_queries=4 reached: 4 queries running and 64 "
        "waiting, the most a workspace may queue; retry later",
    }
    storage.handler = lambda request: httpx.Response(
        429, json=refusal, headers={"Retry-After": "1"}
    )
    r = client.post(f"/api/v1/workspaces/{ws['id']}/query/raw", json=DQL, headers=user.headers)
    assert r.status_code == 429
    assert r.headers["retry-after"] == "1"
    assert r.json() == refusal
    r = client.get(
        f"/api/v1/workspaces/{ws['id']}/prometheus/api/v1/query",
        params={"query": "up"},
        headers=user.headers,
    )
    assert r.status_code == 429
    assert r.headers["retry-after"] == "1"
    assert r.json()["error"].startswith("workspace limit concurrent_queries=4 reached")
