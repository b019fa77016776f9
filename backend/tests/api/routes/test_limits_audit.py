from __future__ import annotations

import time
import uuid
from datetime import UTC, datetime

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from app.models import WorkspaceIngestMinutely, WorkspaceIngestParked
from app.services import limits as limits_service
from tests.factories import add_member, create_key, create_workspace, signup
from tests.storage_mock import StorageMock


def test_update_limits_partially(client: TestClient) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    url = f"/api/v1/workspaces/{ws['id']}/limits"
    before = client.get(url, headers=user.headers).json()
    r = client.patch(
        url, json={"ingest_points_per_second": 5000, "retention_days": 7}, headers=user.headers
    )
    assert r.status_code == 200
    assert r.json() == {**before, "ingest_points_per_second": 5000, "retention_days": 7}
    r = client.patch(url, json={"query_timeout_seconds": 0}, headers=user.headers)
    assert r.status_code == 422
    assert r.json()["detail"].startswith("body.query_timeout_seconds:")


def test_concurrent_queries_limit(client: TestClient) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    url = f"/api/v1/workspaces/{ws['id']}/limits"
    assert client.get(url, headers=user.headers).json()["concurrent_queries"] == 4
    r = client.patch(url, json={"concurrent_queries": 2}, headers=user.headers)
    assert r.status_code == 200
    assert r.json()["concurrent_queries"] == 2
    for bad, why in ((0, "greater than or equal to 1"), (65, "less than or equal to 64")):
        r = client.patch(url, json={"concurrent_queries": bad}, headers=user.headers)
        assert r.status_code == 422
        assert r.json()["detail"] == f"body.concurrent_queries: Input should be {why}"


def test_usage_shows_parked_ingest_batches(client: TestClient, db: Session) -> None:
    """Batches the consumer parked (storage kept refusing the workspace) are counted in the
    workspace's usage with the last reason."""
    user = signup(client)
    ws = create_workspace(client, user)
    url = f"/api/v1/workspaces/{ws['id']}/usage"
    usage = client.get(url, headers=user.headers).json()
    assert usage["ingest_parked_batches"] == 0
    assert usage["ingest_parked_last_reason"] is None
    at = datetime(2026, 11, 28, 9, 30, tzinfo=UTC)
    reason = (
        "parked after 9 attempts over 61 s while storage took other workspaces' writes: "
        "storage answered 503: busy"
    )
    db.add(
        WorkspaceIngestParked(
            workspace_id=uuid.UUID(ws["id"]), batches=3, points=1500, last_reason=reason, last_at=at
        )
    )
    db.commit()
    usage = client.get(url, headers=user.headers).json()
    assert usage["ingest_parked_batches"] == 3
    assert usage["ingest_parked_points"] == 1500
    assert usage["ingest_parked_last_reason"] == reason
    assert usage["ingest_parked_last_at"] == "2026-11-28T09:30:00Z"


def test_usage_reports_storage_failure(client: TestClient, storage: StorageMock) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    storage.handler = lambda request: httpx.Response(503, text="busy")
    usage = client.get(f"/api/v1/workspaces/{ws['id']}/usage", headers=user.headers).json()
    assert usage["active_series"] is None
    assert "503" in usage["storage_error"]
    assert storage.last().url.path == "/internal/v1/usage"


def test_usage_of_a_workspace_too_big_to_count(client: TestClient, storage: StorageMock) -> None:
    """Storage answers null counts with the reason; the rest of the usage is still shown."""
    user = signup(client)
    ws = create_workspace(client, user)
    storage.usage = {
        "active_series": None,
        "series_total": None,
        "series_limit_dropped_points": 1234,
        "error": "active series not counted: too many series: …",
    }
    usage = client.get(f"/api/v1/workspaces/{ws['id']}/usage", headers=user.headers).json()
    assert usage["active_series"] is None and usage["series_total"] is None
    assert usage["series_limit_dropped_points"] == 1234
    assert usage["storage_error"].startswith("active series not counted")
    assert usage["queries_today"] == 0


def test_audit_log_records_security_actions(client: TestClient) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    key = create_key(client, owner, ws["id"], "ingest")
    client.delete(f"/api/v1/workspaces/{ws['id']}/keys/{key['id']}", headers=owner.headers)
    member = add_member(client, owner, ws["id"], "viewer")
    client.patch(
        f"/api/v1/workspaces/{ws['id']}/members/{member.id}",
        json={"role": "editor"},
        headers=owner.headers,
    )
    client.patch(
        f"/api/v1/workspaces/{ws['id']}/limits", json={"retention_days": 9}, headers=owner.headers
    )
    client.patch(f"/api/v1/workspaces/{ws['id']}", json={"name": "renamed"}, headers=owner.headers)
    r = client.get(f"/api/v1/workspaces/{ws['id']}/audit", headers=owner.headers)
    assert r.status_code == 200
    events = r.json()["data"]
    actions = [e["action"] for e in events]
    assert actions == [
        "workspace.rename",
        "limits.update",
        "member.role_change",
        "invitation.accept",
        "invitation.create",
        "api_key.revoke",
        "api_key.create",
        "workspace.create",
    ]
    create = events[-1]
    assert create["actor_email"] == owner.email
    assert create["ip"] and create["ip"].startswith("10.")
    limits = events[1]
    assert limits["details"]["retention_days"] == {"from": 30, "to": 9}
    r = client.get(
        f"/api/v1/workspaces/{ws['id']}/audit",
        params={"action": "api_key.create"},
        headers=owner.headers,
    )
    assert r.json()["count"] == 1
    assert (
        client.get(f"/api/v1/workspaces/{ws['id']}/audit", headers=member.headers).status_code
        == 403
    )


def test_audit_log_filters_by_actor_action_family_target_and_time(client: TestClient) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    url = f"/api/v1/workspaces/{ws['id']}/audit"
    member = add_member(client, owner, ws["id"], "viewer")
    client.patch(
        f"/api/v1/workspaces/{ws['id']}/members/{member.id}",
        json={"role": "editor"},
        headers=owner.headers,
    )
    create_key(client, owner, ws["id"], "ingest")

    def actions(**params: str) -> list[str]:
        r = client.get(url, params=params, headers=owner.headers)
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["count"] == len(body["data"])
        return [e["action"] for e in body["data"]]

    assert actions(action="member.*") == ["member.role_change"]
    assert actions(action="invitation.*") == ["invitation.accept", "invitation.create"]
    # The invitee accepted; everything else was the owner. Part of the email, any case.
    assert actions(actor=member.email.split("@")[0].upper()) == ["invitation.accept"]
    assert "invitation.accept" not in actions(actor=owner.email)
    assert actions(target_type="user", target_id=member.id) == ["member.role_change"]
    assert actions(target_type="api_key") == ["api_key.create"]
    everything = client.get(url, headers=owner.headers).json()["data"]
    newest = everything[0]["created_at"]
    oldest = everything[-1]["created_at"]
    assert actions(since=newest) == [everything[0]["action"]]
    assert everything[-1]["action"] not in actions(since=newest)
    assert actions(until=oldest) == []
    # Without an offset a time is read as UTC.
    assert actions(until="2000-01-01T00:00:00") == []
    assert len(actions(since="2000-01-01T00:00:00")) == len(everything)


def test_audit_log_refuses_an_inverted_time_range(client: TestClient) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    r = client.get(
        f"/api/v1/workspaces/{ws['id']}/audit",
        params={"since": "2026-01-02T00:00:00Z", "until": "2026-01-01T00:00:00Z"},
        headers=owner.headers,
    )
    assert r.status_code == 400
    assert r.json()["detail"] == "since must be before until"
    r = client.get(
        f"/api/v1/workspaces/{ws['id']}/audit",
        params={"since": "yesterday"},
        headers=owner.headers,
    )
    assert r.status_code == 422
    assert r.json()["detail"].startswith("query.since:")
    for name in ("action", "actor", "target_type", "target_id"):
        r = client.get(
            f"/api/v1/workspaces/{ws['id']}/audit",
            params={name: "a\x00b"},
            headers=owner.headers,
        )
        assert r.status_code == 422, name
        assert r.json()["detail"].startswith(f"query.{name}:")


def test_usage_history_reads_storage_and_daily_queries(
    client: TestClient, storage: StorageMock, db: Session
) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    client.post(
        f"/api/v1/workspaces/{ws['id']}/query/raw",
        json={"queries": [{"query": "M::cpu:(avg(usage_idle)) [1h] BY host"}]},
        headers=owner.headers,
    )
    # what the gateway counted: 1440 points in the minute starting at the step 40 min ago,
    # 2880 across two minutes of the step before it
    step = 1440
    now = int(time.time())
    last = now // step * step
    minutes = [(last - step, 1440), (last - 2 * step, 1000), (last - 2 * step + 60, 1880)]
    for t, points in minutes:
        db.add(
            WorkspaceIngestMinutely(
                workspace_id=uuid.UUID(ws["id"]),
                minute=datetime.fromtimestamp(t, UTC),
                points=points,
            )
        )
    db.commit()
    r = client.get(
        f"/api/v1/workspaces/{ws['id']}/usage/history",
        params={"hours": 48},
        headers=owner.headers,
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["step_seconds"] == step  # 48 h in 120 points
    assert body["end"] - body["start"] == 48 * 3_600_000
    assert body["storage_error"] is None
    assert body["ingest_rate"] == [
        {"t": (last - 2 * step) * 1000, "value": 2880 / step},
        {"t": (last - step) * 1000, "value": 1440 / step},
    ]
    # StorageMock answers the active series request with 40 at t=1700000000 and 42 a minute later
    assert body["active_series"] == [
        {"t": 1_700_000_000_000, "value": 40.0},
        {"t": 1_700_000_060_000, "value": 42.0},
    ]
    asked = [r for r in storage.requests if r.url.path == "/internal/v1/usage/active_series"]
    assert [dict(r.url.params) for r in asked] == [
        {"start": str(body["start"] // 1000), "end": str(body["end"] // 1000), "step": f"{step}s"}
    ]
    assert all(r.headers["x-vigil-workspace"] == ws["id"] for r in asked)
    # nothing scans the workspace's series any more
    assert not [r for r in storage.requests if r.url.path == "/api/v1/query_range"]
    days = body["queries_per_day"]
    # every UTC day from the range's start to today (the range's end is rounded up to a whole
    # step, which may be in the next day)
    first = datetime.fromtimestamp(body["start"] / 1000, UTC).date()
    assert len(days) == (datetime.now(UTC).date() - first).days + 1
    assert sum(d["queries"] for d in days) == 1  # today's, or yesterday's around midnight
    usage = client.get(f"/api/v1/workspaces/{ws['id']}/usage", headers=owner.headers).json()
    midnight = now // 86400 * 86400
    assert usage["points_today"] == sum(p for t, p in minutes if t >= midnight)


def test_usage_history_survives_storage_failure_and_is_for_admins(
    client: TestClient, storage: StorageMock
) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    url = f"/api/v1/workspaces/{ws['id']}/usage/history"
    storage.handler = lambda request: httpx.Response(503, text="busy")
    body = client.get(url, headers=owner.headers).json()
    assert body["step_seconds"] == 720
    assert body["ingest_rate"] == [] and body["active_series"] == []
    assert "503" in body["storage_error"]
    assert client.get(url, params={"hours": 0}, headers=owner.headers).status_code == 422
    assert client.get(url, params={"hours": 721}, headers=owner.headers).status_code == 422
    viewer = add_member(client, owner, ws["id"], "viewer")
    assert client.get(url, headers=viewer.headers).status_code == 403


@pytest.mark.parametrize(
    ("hours", "step"),
    [(1, 60), (6, 180), (24, 720), (168, 5040), (720, 21600), (5, 180)],
)
def test_usage_history_steps_are_whole_minutes_for_about_120_points(hours: int, step: int) -> None:
    assert limits_service.history_step(hours) == step


def test_usage_history_averages_the_interval_in_progress_over_its_elapsed_part(
    client: TestClient, db: Session
) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    now = int(time.time())
    step = 720
    end = -(-now // step) * step
    # 720 points in the finished interval, 720 so far in the one in progress
    for t in (end - 2 * step, end - step):
        db.add(
            WorkspaceIngestMinutely(
                workspace_id=uuid.UUID(ws["id"]),
                minute=datetime.fromtimestamp(t, UTC),
                points=720,
            )
        )
    db.commit()
    body = client.get(f"/api/v1/workspaces/{ws['id']}/usage/history", headers=owner.headers).json()
    finished, in_progress = body["ingest_rate"]
    assert finished == {"t": (end - 2 * step) * 1000, "value": 1.0}
    assert in_progress["t"] == (end - step) * 1000
    elapsed = now - (end - step)
    assert in_progress["value"] == pytest.approx(720 / max(1, elapsed), rel=0.05)


def test_dashboards_and_saved_queries_are_audited(client: TestClient) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    editor = add_member(client, owner, ws["id"], "editor")
    base = f"/api/v1/workspaces/{ws['id']}"
    body = {"title": "cpu", "spec": {"schema_version": 1, "panels": []}}
    d = client.post(f"{base}/dashboards", json=body, headers=editor.headers).json()
    client.patch(
        f"{base}/dashboards/{d['id']}",
        json={"title": "cpu 2", "message": "renamed"},
        headers=editor.headers,
    )
    client.post(f"{base}/dashboards/{d['id']}/versions/1/restore", headers=editor.headers)
    exported = client.get(f"{base}/dashboards/{d['id']}/export", headers=editor.headers).json()
    imported = client.post(f"{base}/dashboards/import", json=exported, headers=editor.headers)
    client.delete(f"{base}/dashboards/{d['id']}", headers=editor.headers)
    q = client.post(
        f"{base}/saved-queries",
        json={"name": "load", "query": "M::cpu:(avg(usage_user))"},
        headers=editor.headers,
    ).json()
    client.patch(f"{base}/saved-queries/{q['id']}", json={"name": "load 2"}, headers=editor.headers)
    client.delete(f"{base}/saved-queries/{q['id']}", headers=editor.headers)

    r = client.get(f"{base}/audit", params={"actor": editor.email}, headers=owner.headers)
    events = r.json()["data"]
    assert [(e["action"], e["target_type"]) for e in events] == [
        ("saved_query.delete", "saved_query"),
        ("saved_query.update", "saved_query"),
        ("saved_query.create", "saved_query"),
        ("dashboard.delete", "dashboard"),
        ("dashboard.import", "dashboard"),
        ("dashboard.restore", "dashboard"),
        ("dashboard.update", "dashboard"),
        ("dashboard.create", "dashboard"),
        ("invitation.accept", "invitation"),
    ]
    by_action = {e["action"]: e for e in events}
    assert by_action["dashboard.update"]["details"] == {
        "title": "cpu 2",
        "version": 2,
        "message": "renamed",
    }
    assert by_action["dashboard.restore"]["details"] == {
        "title": "cpu",
        "version": 3,
        "restored_version": 1,
    }
    assert by_action["dashboard.import"]["target_id"] == imported.json()["id"]
    assert by_action["saved_query.update"]["details"] == {"name": "load 2", "changed": ["name"]}
