from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import ApiKey, AuditEvent, Membership
from tests.factories import add_member, create_key, create_workspace, signup
from tests.storage_mock import StorageMock


def test_create_and_list_my_workspaces(client: TestClient) -> None:
    user = signup(client)
    other = signup(client)
    ws = create_workspace(client, user, "Production")
    assert ws["role"] == "owner" and ws["name"] == "Production"
    create_workspace(client, other, "Not mine")
    r = client.get("/api/v1/workspaces", headers=user.headers)
    assert r.status_code == 200
    assert r.json()["count"] == 1
    assert r.json()["data"][0] == ws


def test_new_workspace_has_limits_and_host_overview(client: TestClient) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    limits = client.get(f"/api/v1/workspaces/{ws['id']}/limits", headers=user.headers).json()
    assert limits["query_timeout_seconds"] == 30
    assert limits["ingest_points_per_second"] > 0
    dashboards = client.get(
        f"/api/v1/workspaces/{ws['id']}/dashboards", headers=user.headers
    ).json()
    assert [d["title"] for d in dashboards["data"]] == ["Host overview"]


def test_blank_name_is_refused(client: TestClient) -> None:
    user = signup(client)
    r = client.post("/api/v1/workspaces", json={"name": "   "}, headers=user.headers)
    assert r.status_code == 422
    assert r.json()["detail"] == "body.name: must not be blank"


def test_other_users_workspace_is_404(client: TestClient) -> None:
    a, b = signup(client), signup(client)
    ws_b = create_workspace(client, b)
    r = client.get(f"/api/v1/workspaces/{ws_b['id']}", headers=a.headers)
    assert r.status_code == 404
    assert r.json() == {"detail": "Workspace not found", "code": "not_found"}


def test_rename_by_admin_not_by_editor(client: TestClient) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    editor = add_member(client, owner, ws["id"], "editor")
    admin = add_member(client, owner, ws["id"], "admin")
    r = client.patch(f"/api/v1/workspaces/{ws['id']}", json={"name": "x"}, headers=editor.headers)
    assert r.status_code == 403
    assert r.json() == {
        "detail": "Your role (editor) does not allow workspace.update; it needs admin or above",
        "code": "forbidden",
    }
    r = client.patch(
        f"/api/v1/workspaces/{ws['id']}", json={"name": "Renamed"}, headers=admin.headers
    )
    assert r.status_code == 200
    assert r.json()["name"] == "Renamed" and r.json()["role"] == "admin"


def test_delete_needs_the_name_and_removes_keys_members_and_data(
    client: TestClient, storage: StorageMock, db: Session
) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner, "Doomed")
    create_key(client, owner, ws["id"], "ingest")
    viewer = add_member(client, owner, ws["id"], "viewer")
    url = f"/api/v1/workspaces/{ws['id']}"
    r = client.request("DELETE", url, json={"confirm_name": "doomed"}, headers=owner.headers)
    assert r.status_code == 400
    assert r.json()["code"] == "confirmation_mismatch"
    assert not [q for q in storage.requests if q.method == "DELETE"]
    r = client.request("DELETE", url, json={"confirm_name": "Doomed"}, headers=owner.headers)
    assert r.status_code == 200
    deletes = [q for q in storage.requests if q.method == "DELETE"]
    assert len(deletes) == 1
    assert deletes[0].url.path == "/internal/v1/workspace"
    assert deletes[0].headers["x-vigil-workspace"] == ws["id"]
    assert client.get(url, headers=owner.headers).status_code == 404
    assert client.get(url, headers=viewer.headers).status_code == 404
    assert db.scalars(select(ApiKey).where(ApiKey.workspace_id == ws["id"])).all() == []
    assert db.scalars(select(Membership).where(Membership.workspace_id == ws["id"])).all() == []
    actions = db.scalars(select(AuditEvent.action).where(AuditEvent.workspace_id == ws["id"])).all()
    assert "workspace.delete" in actions


def test_delete_keeps_everything_when_storage_fails(
    client: TestClient, storage: StorageMock
) -> None:
    import httpx

    owner = signup(client)
    ws = create_workspace(client, owner, "Kept")
    storage.handler = lambda request: httpx.Response(500, text="boom")
    url = f"/api/v1/workspaces/{ws['id']}"
    r = client.request("DELETE", url, json={"confirm_name": "Kept"}, headers=owner.headers)
    assert r.status_code == 502
    assert r.json()["code"] == "storage_unavailable"
    assert client.get(url, headers=owner.headers).status_code == 200
