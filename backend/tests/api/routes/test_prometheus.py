"""The Prometheus-compatible read API, driven by a real Prometheus client library
(prometheus-api-client) over HTTP against a live uvicorn server of the app.

vigil-storage is replaced at the HTTP client level (httpx.MockTransport, see StorageMock), so
these tests pin what the backend forwards and returns; the storage side is tested in storage/.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl

from fastapi.testclient import TestClient
from prometheus_api_client import PrometheusConnect

from tests.factories import create_key, create_workspace, signup
from tests.storage_mock import StorageMock


def _setup(client: TestClient) -> tuple[dict[str, Any], str, Any]:
    user = signup(client)
    ws = create_workspace(client, user)
    key = create_key(client, user, ws["id"], "query")["key"]
    return ws, key, user


def test_prometheus_client_through_the_key_scoped_path(
    client: TestClient, live_server: str, storage: StorageMock
) -> None:
    ws, key, _ = _setup(client)
    prom = PrometheusConnect(
        url=f"{live_server}/prometheus",
        headers={"Authorization": f"Bearer {key}"},
        disable_ssl=True,
    )
    assert prom.get_label_names() == ["__name__", "host"]
    assert prom.get_label_values("host") == ["web-01"]
    result = prom.custom_query("sum(rate(cpu:usage_user[5m]))")
    assert result == [
        {"metric": {"__name__": "cpu:usage_user", "host": "web-01"}, "value": [1700000000, "1.5"]}
    ]
    sent = storage.last()
    assert sent.url.path == "/api/v1/query"
    assert sent.headers["x-vigil-workspace"] == ws["id"]
    assert sent.headers["x-vigil-query-timeout"] == "30s"
    from datetime import datetime, timedelta

    end = datetime.now()
    ranged = prom.custom_query_range(
        "cpu:usage_user", start_time=end - timedelta(hours=1), end_time=end, step="60"
    )
    assert ranged[0]["values"] == [[1700000000, "1.5"], [1700000060, "2.5"]]
    params = dict(storage.last().url.params)
    assert params["query"] == "cpu:usage_user" and params["step"] == "60"
    # every request of the client went to this workspace and none carried the key onwards
    for request in storage.requests:
        assert request.headers["x-vigil-workspace"] == ws["id"]
        assert key not in str(request.url)
        assert request.headers["authorization"] == "Bearer test-internal-token"


def test_prometheus_client_through_the_workspace_path_with_a_session(
    client: TestClient, live_server: str, storage: StorageMock
) -> None:
    ws, _, user = _setup(client)
    prom = PrometheusConnect(
        url=f"{live_server}/api/v1/workspaces/{ws['id']}/prometheus",
        headers=user.headers,
        disable_ssl=True,
    )
    assert prom.all_metrics() == ["cpu:usage_user"]
    assert storage.last().url.path == "/api/v1/label/__name__/values"
    assert storage.last().headers["x-vigil-workspace"] == ws["id"]


def test_post_form_with_repeated_fields_is_forwarded(
    client: TestClient, storage: StorageMock
) -> None:
    ws, key, _ = _setup(client)
    r = client.post(
        "/prometheus/api/v1/series",
        content="match[]=up&match[]=cpu:usage_user&start=1",
        headers={
            "Authorization": f"Token {key}",
            "Content-Type": "application/x-www-form-urlencoded",
        },
    )
    assert r.status_code == 200
    assert r.json()["data"] == [{"__name__": "cpu:usage_user", "host": "web-01"}]
    sent = storage.last()
    assert sent.method == "POST"
    assert parse_qsl(sent.content.decode()) == [
        ("match[]", "up"),
        ("match[]", "cpu:usage_user"),
        ("start", "1"),
    ]
    assert sent.headers["x-vigil-workspace"] == ws["id"]


def test_label_endpoints_document_and_forward_their_selectors(
    client: TestClient, storage: StorageMock
) -> None:
    """The UI's typed client sends ``match[]`` (completion, PromQL variables): the OpenAPI
    document names it on the label and series endpoints, and it reaches storage."""
    doc = client.get("/api/openapi.json").json()
    for path in (
        "/api/v1/workspaces/{workspace_id}/prometheus/api/v1/labels",
        "/api/v1/workspaces/{workspace_id}/prometheus/api/v1/label/{label_name}/values",
        "/api/v1/workspaces/{workspace_id}/prometheus/api/v1/series",
        "/prometheus/api/v1/labels",
    ):
        names = [p["name"] for p in doc["paths"][path]["get"].get("parameters", [])]
        assert {"match[]", "start", "end"} <= set(names), (path, names)
        assert "parameters" not in doc["paths"][path]["post"] or "match[]" not in [
            p["name"] for p in doc["paths"][path]["post"]["parameters"]
        ]
    ws, _, user = _setup(client)
    r = client.get(
        f"/api/v1/workspaces/{ws['id']}/prometheus/api/v1/label/instance/values",
        params=[("match[]", 'node_uname_info{job="node"}')],
        headers=user.headers,
    )
    assert r.status_code == 200
    assert storage.last().url.path == "/api/v1/label/instance/values"
    assert storage.last().url.params.get_list("match[]") == ['node_uname_info{job="node"}']


def test_token_query_parameter_and_basic_auth(client: TestClient, storage: StorageMock) -> None:
    import base64

    ws, key, _ = _setup(client)
    r = client.get("/prometheus/api/v1/labels", params={"token": key})
    assert r.status_code == 200
    assert "token" not in dict(storage.last().url.params)
    basic = base64.b64encode(f"grafana:{key}".encode()).decode()
    r = client.get("/prometheus/api/v1/labels", headers={"Authorization": f"Basic {basic}"})
    assert r.status_code == 200
    assert storage.last().headers["x-vigil-workspace"] == ws["id"]


def test_storage_errors_keep_the_prometheus_envelope(
    client: TestClient, storage: StorageMock
) -> None:
    import httpx

    ws, key, _ = _setup(client)
    error = {
        "status": "error",
        "errorType": "bad_data",
        "error": "label vigil_workspace is reserved",
    }
    storage.handler = lambda request: httpx.Response(400, json=error)
    r = client.get(
        "/prometheus/api/v1/query",
        params={"query": '{vigil_workspace="x"}'},
        headers={"Authorization": f"Token {key}"},
    )
    assert r.status_code == 400
    assert r.json() == error


def test_unauthenticated_and_wrong_content_type(client: TestClient, storage: StorageMock) -> None:
    ws, key, _ = _setup(client)
    assert client.get("/prometheus/api/v1/labels").status_code == 401
    r = client.post(
        "/prometheus/api/v1/query",
        content=b'{"query":"up"}',
        headers={"Authorization": f"Token {key}", "Content-Type": "application/json"},
    )
    assert r.status_code == 400
    assert r.json() == {
        "status": "error",
        "errorType": "bad_data",
        "error": "POST bodies must be application/x-www-form-urlencoded",
    }
    assert storage.requests == []
