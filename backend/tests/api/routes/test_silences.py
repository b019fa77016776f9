from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.factories import add_member, create_workspace, signup


def url(ws: dict[str, Any], path: str = "") -> str:
    return f"/api/v1/workspaces/{ws['id']}/silences{path}"


def iso(t: datetime) -> str:
    return t.isoformat().replace("+00:00", "Z")


def test_create_list_and_end_a_silence(client: TestClient) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    now = datetime.now(UTC)
    body = {
        "comment": "deploying web-1",
        "matchers": [{"label": "host", "op": "=", "value": "web-1"}],
        "ends_at": iso(now + timedelta(hours=1)),
    }
    r = client.post(url(ws), json=body, headers=user.headers)
    assert r.status_code == 201, r.text
    s = r.json()
    assert (s["state"], s["created_by_email"], s["monitor_id"]) == ("active", user.email, None)
    r = client.post(
        url(ws),
        json={
            **body,
            "starts_at": iso(now + timedelta(hours=2)),
            "ends_at": iso(now + timedelta(hours=3)),
        },
        headers=user.headers,
    )
    assert r.json()["state"] == "pending"
    r = client.patch(url(ws, f"/{s['id']}"), json={"ends_at": iso(now)}, headers=user.headers)
    assert r.json()["state"] == "expired"
    states = sorted(x["state"] for x in client.get(url(ws), headers=user.headers).json()["data"])
    assert states == ["expired", "pending"]
    assert client.get(url(ws) + "?include_expired=false", headers=user.headers).json()["count"] == 1


def test_recurring_silence(client: TestClient) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    body = {
        "comment": "weekly maintenance",
        "matchers": [{"label": "host", "op": "=~", "value": "db-.*"}],
        "recurrence": {
            "weekdays": [6, 6, 0],
            "start": "02:00",
            "duration_minutes": 120,
            "timezone": "Europe/Berlin",
        },
    }
    r = client.post(url(ws), json=body, headers=user.headers)
    assert r.status_code == 201, r.text
    s = r.json()
    assert s["recurrence"]["weekdays"] == [0, 6] and s["ends_at"] is None
    assert s["state"] in ("active", "scheduled")


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        (
            {"comment": "x", "matchers": [{"label": "host", "value": "a"}]},
            "body: Value error, a one-off silence needs ends_at",
        ),
        (
            {"comment": "x", "ends_at": "2030-01-01T00:00:00Z"},
            "body: Value error, name a monitor or at least one matcher (a silence of everything)",
        ),
        (
            {
                "comment": "x",
                "matchers": [{"label": "host", "op": "=~", "value": "web-("}],
                "ends_at": "2030-01-01T00:00:00Z",
            },
            "body.matchers.0: Value error, 'web-(' is not a regular expression: missing ): web-(",
        ),
        (
            {
                "comment": "x",
                "matchers": [{"label": "h", "value": "a"}],
                "recurrence": {"weekdays": [7], "start": "02:00", "duration_minutes": 5},
            },
            "body.recurrence.weekdays: Value error, weekdays are 0 (Monday) to 6 (Sunday)",
        ),
        (
            {
                "comment": "x",
                "matchers": [{"label": "h", "value": "a"}],
                "recurrence": {
                    "weekdays": [1],
                    "start": "02:00",
                    "duration_minutes": 5,
                    "timezone": "Mars/Olympus",
                },
            },
            "body.recurrence.timezone: Value error, unknown time zone 'Mars/Olympus'",
        ),
        (
            {
                "comment": "x",
                "matchers": [{"label": "h", "value": "a"}],
                "ends_at": "2030-01-01T00:00:00",
            },
            "body: Value error, times need a time zone (e.g. 2026-11-28T12:00:00Z)",
        ),
    ],
)
def test_invalid_silences(client: TestClient, body: dict[str, Any], detail: str) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    r = client.post(url(ws), json=body, headers=user.headers)
    assert r.status_code == 422
    assert r.json()["detail"] == detail


def test_a_silence_names_a_monitor_of_its_workspace_only(client: TestClient) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    body = {
        "comment": "x",
        "monitor_id": "8d4c7e55-0000-4000-8000-000000000000",
        "ends_at": "2030-01-01T00:00:00Z",
    }
    r = client.post(url(ws), json=body, headers=user.headers)
    assert (r.status_code, r.json()["detail"]) == (
        422,
        "monitor_id: no such monitor in this workspace",
    )


def test_viewers_cannot_silence(client: TestClient) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    viewer = add_member(client, owner, ws["id"], "viewer")
    body = {
        "comment": "x",
        "matchers": [{"label": "h", "value": "a"}],
        "ends_at": "2030-01-01T00:00:00Z",
    }
    assert client.post(url(ws), json=body, headers=viewer.headers).status_code == 403
    assert client.get(url(ws), headers=viewer.headers).status_code == 200
