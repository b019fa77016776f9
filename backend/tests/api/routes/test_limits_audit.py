from __future__ import annotations

import httpx
from fastapi.testclient import TestClient

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


def test_usage_reports_storage_failure(client: TestClient, storage: StorageMock) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    storage.handler = lambda request: httpx.Response(503, text="busy")
    usage = client.get(f"/api/v1/workspaces/{ws['id']}/usage", headers=user.headers).json()
    assert usage["active_series"] is None
    assert "503" in usage["storage_error"]
    assert storage.last().url.path == "/internal/v1/usage"


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
