from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from tests.alerting.fakes import dql_answer
from tests.factories import add_member, create_workspace, signup
from tests.storage_mock import StorageMock

CPU = {
    "name": "CPU high",
    "query": "M::cpu:(avg(usage_user)) BY host",
    "conditions": [{"severity": "critical", "op": ">", "threshold": 90}],
}


def url(ws: dict[str, Any], path: str = "") -> str:
    return f"/api/v1/workspaces/{ws['id']}/monitors{path}"


def test_create_checks_the_query_with_storage_then_lists_it(
    client: TestClient, storage: StorageMock
) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    storage.handler = dql_answer({"web-1": 50, "web-2": 60})
    r = client.post(url(ws), json=CPU, headers=user.headers)
    assert r.status_code == 201, r.text
    m = r.json()
    assert (m["interval_seconds"], m["window_seconds"], m["reducer"]) == (60, 300, "last")
    assert m["status"] == "ok" and m["groups"] == {"ok": 0, "pending": 0, "firing": 0, "nodata": 0}
    assert m["title"] == "[{{severity}}] {{monitor}} is {{status}}"
    sent = json.loads(storage.last().content)["queries"][0]
    assert sent["query"] == CPU["query"] and sent["disable_slimit"] is True
    start, end = sent["time_range"]
    assert end - start == 300_000
    assert storage.last().headers["x-vigil-workspace"] == ws["id"]
    listed = client.get(url(ws), headers=user.headers).json()
    assert [x["name"] for x in listed["data"]] == ["CPU high"] and listed["count"] == 1


def test_promql_is_checked_as_an_instant_query(client: TestClient, storage: StorageMock) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    storage.handler = dql_answer({"web-1": 1})
    body = {**CPU, "language": "promql", "query": "avg by (host) (cpu:usage_user)"}
    assert client.post(url(ws), json=body, headers=user.headers).status_code == 201
    sent = json.loads(storage.last().content)["queries"][0]
    assert sent["qtype"] == "promql" and sent["step"] == "1s"
    assert sent["time_range"][1] - sent["time_range"][0] == 1000


def test_a_query_storage_refuses_is_a_400_with_its_position(
    client: TestClient, storage: StorageMock
) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    error = {
        "error_code": "dql.parse_error",
        "message": "line 1:25: unexpected keyword BY",
        "position": {"line": 1, "column": 25, "start": 24, "end": 26},
    }
    storage.handler = lambda request: httpx.Response(400, json=error)
    r = client.post(
        url(ws), json={**CPU, "query": "M::cpu:(avg(usage_user) BY host"}, headers=user.headers
    )
    assert r.status_code == 400
    assert r.json() == {
        "detail": "query: line 1:25: unexpected keyword BY",
        "code": "dql.parse_error",
        "field": "query",
        "position": {"line": 1, "column": 25, "start": 24, "end": 26},
    }
    assert client.get(url(ws), headers=user.headers).json()["count"] == 0


@pytest.mark.parametrize(
    ("change", "detail"),
    [
        (
            {"conditions": []},
            "body.conditions: List should have at least 1 item after validation, not 0",
        ),
        (
            {"conditions": [{"severity": "error", "op": "between", "threshold": 5}]},
            "body.conditions.0: Value error, between needs threshold2",
        ),
        (
            {
                "conditions": [
                    {"severity": "info", "op": ">", "threshold": 1},
                    {"severity": "info", "op": "<", "threshold": 0},
                ]
            },
            "body.conditions: Value error, one condition per severity; info appears twice",
        ),
        (
            {"interval_seconds": 0},
            "body.interval_seconds: Input should be greater than or equal to 1",
        ),
        (
            {"runbook_url": "javascript:alert(1)"},
            "body.runbook_url: String should match pattern '^https?://\\S+$'",
        ),
    ],
)
def test_invalid_monitors_are_422(
    client: TestClient, storage: StorageMock, change: dict[str, Any], detail: str
) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    r = client.post(url(ws), json={**CPU, **change}, headers=user.headers)
    assert r.status_code == 422
    assert r.json()["detail"] == detail


def test_alerting_limits_are_named(client: TestClient, storage: StorageMock) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    storage.handler = dql_answer({})
    r = client.post(url(ws), json={**CPU, "interval_seconds": 5}, headers=user.headers)
    assert r.status_code == 422
    assert r.json() == {
        "detail": "interval_seconds: 5 s is more often than the workspace's limit allows: at "
        "least 10 s (min_monitor_interval_seconds)",
        "code": "validation_error",
        "field": "interval_seconds",
        "limit": "min_monitor_interval_seconds",
    }
    limits = f"/api/v1/workspaces/{ws['id']}/limits"
    assert client.patch(limits, json={"max_monitors": 1}, headers=user.headers).status_code == 200
    assert client.post(url(ws), json=CPU, headers=user.headers).status_code == 201
    r = client.post(url(ws), json=CPU, headers=user.headers)
    assert r.status_code == 429
    assert r.json()["limit"] == "max_monitors"
    assert (
        "the workspace has 1 monitors and recording rules, its limit (max_monitors)"
        in r.json()["detail"]
    )


def test_routes_must_name_channels_of_the_workspace(
    client: TestClient, storage: StorageMock
) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    storage.handler = dql_answer({})
    ghost = "8d4c7e55-0000-4000-8000-000000000000"
    r = client.post(url(ws), json={**CPU, "routes": {"critical": [ghost]}}, headers=user.headers)
    assert r.status_code == 422
    assert r.json()["detail"] == f"routes: no such channel in this workspace: {ghost}"


def test_update_and_delete(client: TestClient, storage: StorageMock) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    storage.handler = dql_answer({})
    m = client.post(url(ws), json=CPU, headers=user.headers).json()
    calls = len(storage.requests)
    r = client.patch(
        url(ws, f"/{m['id']}"),
        json={"name": "CPU", "enabled": False, "runbook_url": "https://wiki/cpu"},
        headers=user.headers,
    )
    assert r.status_code == 200
    assert (r.json()["name"], r.json()["status"], r.json()["runbook_url"]) == (
        "CPU",
        "disabled",
        "https://wiki/cpu",
    )
    assert len(storage.requests) == calls  # the query did not change: not checked again
    r = client.patch(
        url(ws, f"/{m['id']}"),
        json={"runbook_url": None, "query": "M::cpu:(max(usage_user)) BY host"},
        headers=user.headers,
    )
    assert r.status_code == 200 and r.json()["runbook_url"] is None
    assert len(storage.requests) == calls + 1
    assert client.delete(url(ws, f"/{m['id']}"), headers=user.headers).json() == {
        "message": "Monitor deleted"
    }
    assert client.get(url(ws, f"/{m['id']}"), headers=user.headers).status_code == 404


def test_viewers_read_editors_write_and_other_workspaces_see_nothing(
    client: TestClient, storage: StorageMock
) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    storage.handler = dql_answer({})
    m = client.post(url(ws), json=CPU, headers=owner.headers).json()
    viewer = add_member(client, owner, ws["id"], "viewer")
    assert client.get(url(ws, f"/{m['id']}"), headers=viewer.headers).status_code == 200
    r = client.post(url(ws), json=CPU, headers=viewer.headers)
    assert r.status_code == 403
    assert (
        r.json()["detail"]
        == "Your role (viewer) does not allow monitors.write; it needs editor or above"
    )
    editor = add_member(client, owner, ws["id"], "editor")
    assert client.post(url(ws), json=CPU, headers=editor.headers).status_code == 201
    stranger = signup(client)
    other = create_workspace(client, stranger)
    # B asks for A's monitor through its own workspace: not found
    assert client.get(url(other, f"/{m['id']}"), headers=stranger.headers).status_code == 404
    assert client.get(url(ws), headers=stranger.headers).status_code == 404
    r = client.patch(url(other, f"/{m['id']}"), json={"name": "x"}, headers=stranger.headers)
    assert r.status_code == 404


def test_preview_draws_the_series_and_when_it_would_have_fired(
    client: TestClient, storage: StorageMock
) -> None:
    user = signup(client)
    ws = create_workspace(client, user)

    def answer(request: httpx.Request) -> httpx.Response:
        q = json.loads(request.content)["queries"][0]
        start, end = q["time_range"]
        window = 300_000
        assert q["interval"] == "300s"
        rows_a = [
            [t, 95.0 if (t // window) % 12 < 3 else 10.0]
            for t in range(start - start % window, end, window)
        ]
        rows_b = [[t, 20.0] for t in range(start - start % window, end, window)]
        series = [
            {"name": "cpu", "tags": {"host": "a"}, "columns": ["time", "v"], "values": rows_a},
            {"name": "cpu", "tags": {"host": "b"}, "columns": ["time", "v"], "values": rows_b},
        ]
        return httpx.Response(200, json={"content": [{"series": series}]})

    storage.handler = answer
    body = {k: v for k, v in CPU.items() if k != "name"} | {
        "interval_seconds": 300,
        "for_seconds": 600,
        "hours": 6,
    }
    r = client.post(url(ws, "/preview"), json=body, headers=user.headers)
    assert r.status_code == 200, r.text
    p = r.json()
    assert p["step_seconds"] == 300 and p["end"] - p["start"] == 6 * 3600 * 1000
    assert [s["tags"] for s in p["series"]] == [{"host": "a"}, {"host": "b"}]
    assert len(p["series"][0]["points"]) == 72
    # host a is above 90 for 3 of every 12 windows (15 of 60 minutes): with for 10 min it fires
    # once per hour, 10 min after the rise, and resolves when it falls
    alerts = p["alerts"]
    assert alerts and all(
        a["tags"] == {"host": "a"} and a["severity"] == "critical" for a in alerts
    )
    closed = [a for a in alerts if a["end"] is not None]
    assert closed and all(a["end"] - a["start"] == 300_000 for a in closed)
    assert p["conditions"] == [
        {"severity": "critical", "op": ">", "threshold": 90.0, "threshold2": None}
    ]
