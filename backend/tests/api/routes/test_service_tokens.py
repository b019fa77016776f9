"""Service tokens: workspace API keys with the editor or admin scope, on the REST API.

A token acts with its scope's role in its own workspace and nowhere else, only as
``Authorization: Bearer``, never on account routes, never manages keys; every refused use is
audited in its workspace. The permission matrix (``tests/api/test_permissions.py``) runs every
route with both scopes; these tests follow what a script does with one.
"""

from __future__ import annotations

import base64
import hashlib
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from app.core.keys import new_key
from app.core.logging import redact
from app.models import ApiKey, KeyScope
from tests.api.routes.test_benchmarks import document
from tests.factories import SignedUpUser, add_member, create_key, create_workspace, signup
from tests.storage_mock import StorageMock

TOKENS_ONLY_ON_WORKSPACES = (
    "Service tokens act only on their workspace's routes (/api/v1/workspaces/{id}/…): "
    "account, session and operator routes need a signed-in person"
)
TOKEN_ONLY_AS_BEARER = (
    "Service tokens are accepted only as 'Authorization: Bearer <token>'; "
    "?token= and HTTP Basic are for query keys"
)
INVALID = {"detail": "API key is invalid or revoked", "code": "invalid_key"}
DASHBOARD = {
    "title": "Deploys",
    "tags": ["ops"],
    "spec": {
        "panels": [
            {
                "id": "p1",
                "type": "timeseries",
                "title": "CPU",
                "grid": {"x": 0, "y": 0, "w": 12, "h": 8},
                "queries": [{"query": "M::cpu:(avg(usage_user)) BY host"}],
            }
        ]
    },
}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def api(ws: dict[str, Any], path: str = "") -> str:
    return f"/api/v1/workspaces/{ws['id']}{path}"


def audit_events(
    client: TestClient, owner: SignedUpUser, ws: dict[str, Any], action: str
) -> list[dict[str, Any]]:
    r = client.get(api(ws, "/audit"), params={"action": action}, headers=owner.headers)
    assert r.status_code == 200, r.text
    events: list[dict[str, Any]] = r.json()["data"]
    return events


def test_a_token_is_shown_once_recognisable_and_stored_hashed(
    client: TestClient, db: Session
) -> None:
    owner = signup(client, full_name="Ada")
    ws = create_workspace(client, owner)
    created = create_key(client, owner, ws["id"], "editor")
    token = created["key"]
    assert token.startswith("vgs_") and len(token) == 47
    assert (created["scope"], created["key_prefix"]) == ("editor", token[:12])
    assert (created["created_by_email"], created["created_by_name"]) == (owner.email, "Ada")
    row = db.scalar(select(ApiKey).where(ApiKey.id == created["id"]))
    assert row is not None and row.key_hash == hashlib.sha256(token.encode()).hexdigest()
    assert token not in str(vars(row))
    listed = client.get(api(ws, "/keys"), headers=owner.headers).json()["data"]
    assert [(k["scope"], k["last_used_at"]) for k in listed] == [("editor", None)]
    assert "key" not in listed[0]
    [event] = audit_events(client, owner, ws, "api_key.create")
    assert event["actor_email"] == owner.email
    assert event["details"] == {"name": "editor key", "scope": "editor", "key_prefix": token[:12]}
    # used once: the list says when
    assert client.get(api(ws, "/dashboards"), headers=bearer(token)).status_code == 200
    listed = client.get(api(ws, "/keys"), headers=owner.headers).json()["data"]
    assert listed[0]["last_used_at"] is not None


def test_every_kind_of_key_is_redacted_from_logs() -> None:
    for scope in KeyScope:
        key = new_key(scope)
        assert key not in redact(f"GET /x?token={key} Authorization: Bearer {key}")
        assert redact(f"leaked {key}") == f"leaked {key[:3]}_[redacted]"


def test_an_editor_token_writes_dashboards_queries_monitors_and_benchmarks(
    client: TestClient, storage: StorageMock
) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    token = create_key(client, owner, ws["id"], "editor")
    auth = bearer(token["key"])

    r = client.post(api(ws, "/dashboards"), json=DASHBOARD, headers=auth)
    assert r.status_code == 201, r.text
    dashboard = r.json()
    assert (dashboard["title"], dashboard["created_by"], dashboard["version"]) == (
        "Deploys",
        None,
        1,
    )
    r = client.patch(
        api(ws, f"/dashboards/{dashboard['id']}"), json={"title": "Deploys v2"}, headers=auth
    )
    assert (r.status_code, r.json()["version"]) == (200, 2)
    exported = client.get(api(ws, f"/dashboards/{dashboard['id']}/export"), headers=auth).json()
    r = client.post(api(ws, "/dashboards/import"), json=exported, headers=auth)
    assert r.status_code == 201
    r = client.delete(api(ws, f"/dashboards/{r.json()['id']}"), headers=auth)
    assert r.status_code == 200
    # the person who looks at the workspace sees what the token did, and as whom
    titles = [
        d["title"] for d in client.get(api(ws, "/dashboards"), headers=owner.headers).json()["data"]
    ]
    assert "Deploys v2" in titles
    events = audit_events(client, owner, ws, "dashboard.*")
    assert [e["action"] for e in events] == [
        "dashboard.delete",
        "dashboard.import",
        "dashboard.update",
        "dashboard.create",
    ]
    assert {(e["actor_email"], e["actor_user_id"]) for e in events} == {
        (f"key:{token['key_prefix']}", None)
    }

    r = client.post(
        api(ws, "/saved-queries"), json={"name": "CPU", "query": "M::cpu"}, headers=auth
    )
    assert r.status_code == 201, r.text
    monitor = {
        "name": "CPU high",
        "query": "M::cpu:(avg(usage_user)) BY host",
        "conditions": [{"severity": "critical", "op": ">", "threshold": 90}],
    }
    r = client.post(api(ws, "/monitors"), json=monitor, headers=auth)
    assert r.status_code == 201, r.text
    r = client.post(api(ws, "/benchmarks"), json=document(), headers=auth)
    assert r.status_code == 201, r.text
    assert r.json()["uploaded_by"] is None
    # channels are the admins' to change; editors read them
    assert client.get(api(ws, "/channels"), headers=auth).status_code == 200
    r = client.post(api(ws, "/channels"), json={}, headers=auth)
    assert r.status_code == 403
    assert r.json()["detail"] == (
        "This token's scope (editor) does not allow channels.write; it needs admin or above"
    )


def test_a_token_queries_its_workspace(client: TestClient, storage: StorageMock) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    token = create_key(client, owner, ws["id"], "editor")["key"]
    dql = {"queries": [{"query": "M::cpu:(avg(usage_user))"}]}
    r = client.post(api(ws, "/query/raw"), json=dql, headers=bearer(token))
    assert r.status_code == 200, r.text
    assert storage.last().headers["x-vigil-workspace"] == ws["id"]
    storage.requests.clear()
    # where the key picks the workspace, the token picks its own
    r = client.post("/v1/query/raw", json=dql, headers=bearer(token))
    assert r.status_code == 200, r.text
    assert storage.last().headers["x-vigil-workspace"] == ws["id"]
    r = client.get("/prometheus/api/v1/labels", headers=bearer(token))
    assert r.status_code == 200, r.text


def test_an_editor_token_gets_403_on_member_management(client: TestClient) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    viewer = add_member(client, owner, ws["id"], "viewer")
    token = create_key(client, owner, ws["id"], "editor")
    auth = bearer(token["key"])
    denied = "This token's scope (editor) does not allow members.manage; it needs admin or above"
    for method, path, body in (
        ("PATCH", f"/members/{viewer.id}", {"role": "editor"}),
        ("DELETE", f"/members/{viewer.id}", None),
        ("POST", "/invitations", {"email": "grace@example.com", "role": "viewer"}),
        ("GET", "/invitations", None),
    ):
        r = client.request(method, api(ws, path), json=body, headers=auth)
        assert r.status_code == 403, (method, path, r.text)
        assert r.json() == {"detail": denied, "code": "forbidden"}
    # the members are as they were; the refusal is in the log once a minute, not per request
    members = client.get(api(ws, "/members"), headers=auth).json()["data"]
    assert {m["email"]: m["role"] for m in members}[viewer.email] == "viewer"
    [event] = audit_events(client, owner, ws, "api_key.refused")
    assert event["target_id"] == token["id"]
    assert event["actor_email"] == f"key:{token['key_prefix']}"
    assert event["details"] == {
        "name": "editor key",
        "scope": "editor",
        "key_prefix": token["key_prefix"],
        "reason": "not_allowed",
        "method": "PATCH",
        "path": f"/api/v1/workspaces/{ws['id']}/members/{viewer.id}",
        "permission": "members.manage",
    }


def test_an_admin_token_manages_members_but_no_keys_and_cannot_leave(
    client: TestClient, db: Session
) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    editor = add_member(client, owner, ws["id"], "editor")
    token = create_key(client, owner, ws["id"], "admin")
    auth = bearer(token["key"])
    r = client.patch(api(ws, f"/members/{editor.id}"), json={"role": "viewer"}, headers=auth)
    assert (r.status_code, r.json()["role"]) == (200, "viewer")
    # as an admin: never above its own role, never the owner
    r = client.patch(api(ws, f"/members/{editor.id}"), json={"role": "owner"}, headers=auth)
    assert r.json() == {"detail": "An admin cannot grant the owner role", "code": "forbidden"}
    r = client.patch(api(ws, f"/members/{owner.id}"), json={"role": "viewer"}, headers=auth)
    assert r.status_code == 403
    r = client.patch(api(ws), json={"name": "renamed by a script"}, headers=auth)
    assert (r.status_code, r.json()["name"], r.json()["role"]) == (
        200,
        "renamed by a script",
        "admin",
    )
    r = client.request(
        "DELETE", api(ws), json={"confirm_name": "renamed by a script"}, headers=auth
    )
    assert r.status_code == 403
    assert r.json()["detail"] == (
        "This token's scope (admin) does not allow workspace.delete; it needs owner or above"
    )
    people_only = (
        "Service tokens cannot do {}: API keys and tokens are managed by a signed-in admin or "
        "owner, and a token is not a member"
    )
    for method, path, body in (
        ("GET", "/keys", None),
        ("POST", "/keys", {"name": "successor", "scope": "admin"}),
        ("POST", "/keys", {"name": "agent", "scope": "ingest"}),
        ("DELETE", f"/keys/{token['id']}", None),
    ):
        r = client.request(method, api(ws, path), json=body, headers=auth)
        assert r.json() == {"detail": people_only.format("keys.manage"), "code": "forbidden"}
    r = client.post(api(ws, "/leave"), headers=auth)
    assert r.json() == {"detail": people_only.format("workspace.leave"), "code": "forbidden"}
    assert db.scalar(select(ApiKey.id).where(ApiKey.name == "successor")) is None


def test_a_token_of_workspace_a_gets_404_on_workspace_b(client: TestClient) -> None:
    a, b = signup(client), signup(client)
    ws_a, ws_b = create_workspace(client, a), create_workspace(client, b)
    token = create_key(client, a, ws_a["id"], "admin")
    for method, path in (("GET", "/dashboards"), ("POST", "/dashboards"), ("GET", "/members")):
        r = client.request(method, api(ws_b, path), json=DASHBOARD, headers=bearer(token["key"]))
        assert r.status_code == 404, (method, path)
        assert r.json() == {"detail": "Workspace not found", "code": "not_found"}
    assert client.get(api(ws_b, "/dashboards"), headers=b.headers).json()["data"][0]["title"] == (
        "Host overview"
    )
    # A's admins see the attempt; B's log says nothing about A
    [event] = audit_events(client, a, ws_a, "api_key.refused")
    assert event["details"]["reason"] == "other_workspace"
    assert event["details"]["workspace_id"] == ws_b["id"]
    assert audit_events(client, b, ws_b, "api_key.*") == []


def test_a_revoked_token_gets_401(client: TestClient) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    token = create_key(client, owner, ws["id"], "editor")
    assert client.get(api(ws, "/dashboards"), headers=bearer(token["key"])).status_code == 200
    r = client.delete(api(ws, f"/keys/{token['id']}"), headers=owner.headers)
    assert r.status_code == 200 and r.json()["revoked_at"] is not None
    for method, path in (
        ("GET", api(ws, "/dashboards")),
        ("POST", "/v1/query/raw"),
        ("GET", "/api/v1/auth/me"),
    ):
        r = client.request(method, path, json={}, headers=bearer(token["key"]))
        assert r.status_code == 401, path
        assert r.json() == INVALID
    r = client.post("/api/v1/workspaces", json={"name": "x"}, headers=bearer("vgs_" + "x" * 43))
    assert (r.status_code, r.json()) == (401, INVALID)
    [revoke] = audit_events(client, owner, ws, "api_key.revoke")
    assert revoke["details"] == {
        "name": "editor key",
        "scope": "editor",
        "key_prefix": token["key_prefix"],
    }
    [refused] = audit_events(client, owner, ws, "api_key.refused")
    assert refused["details"]["reason"] == "revoked"
    assert refused["details"]["path"] == f"/api/v1/workspaces/{ws['id']}/dashboards"


def test_a_token_is_refused_on_account_and_session_routes(client: TestClient) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    token = create_key(client, owner, ws["id"], "admin")
    auth = bearer(token["key"])
    for method, path, body in (
        ("GET", "/api/v1/auth/me", None),
        ("PATCH", "/api/v1/auth/me", {"full_name": "script"}),
        ("GET", "/api/v1/auth/sessions", None),
        ("POST", "/api/v1/auth/logout", None),
        ("GET", "/api/v1/auth/security-log", None),
        ("GET", "/api/v1/workspaces", None),
        ("POST", "/api/v1/workspaces", {"name": "made by a token"}),
        ("POST", "/api/v1/invitations/accept", {"code": "vginv_x"}),
        ("GET", "/api/v1/meta", None),
    ):
        r = client.request(method, path, json=body, headers=auth)
        assert r.status_code == 403, (method, path, r.text)
        assert r.json() == {"detail": TOKENS_ONLY_ON_WORKSPACES, "code": "forbidden"}
    [event] = audit_events(client, owner, ws, "api_key.refused")
    assert (event["details"]["reason"], event["details"]["path"]) == (
        "not_a_workspace_route",
        "/api/v1/auth/me",
    )
    # there is no /users route at all
    assert client.get("/api/v1/users/me", headers=auth).status_code == 404


def test_a_token_travels_only_as_bearer(client: TestClient) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    token = create_key(client, owner, ws["id"], "editor")
    basic = base64.b64encode(f"script:{token['key']}".encode()).decode()
    for path in (api(ws, "/dashboards"), "/prometheus/api/v1/labels"):
        for how in (
            {"params": {"token": token["key"]}},
            {"headers": {"Authorization": f"Basic {basic}"}},
            {"headers": {"Authorization": f"Token {token['key']}"}},
        ):
            r = client.get(path, **how)  # type: ignore[arg-type]
            assert r.status_code == 401, (path, how)
            body = r.json()
            assert body.get("detail", body.get("error")) == TOKEN_ONLY_AS_BEARER
    [event] = audit_events(client, owner, ws, "api_key.refused")
    assert (event["details"]["reason"], event["details"]["sent_as"]) == ("not_bearer", "query")
    assert "?" not in event["details"]["path"]


def test_invitations_sent_by_a_token_end_with_it(client: TestClient, db: Session) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    token = create_key(client, owner, ws["id"], "admin")
    invite = {"email": "grace@example.com", "role": "editor"}
    r = client.post(api(ws, "/invitations"), json=invite, headers=bearer(token["key"]))
    assert r.status_code == 201, r.text
    first = r.json()
    r = client.post(
        api(ws, "/invitations"), json={**invite, "role": "admin"}, headers=bearer(token["key"])
    )
    assert (r.status_code, r.json()["code"]) == (409, "invitation_pending")
    r = client.get(f"/api/v1/invitations/{first['code']}")
    assert (r.json()["inviter_email"], r.json()["state"]) == (None, "pending")
    client.delete(api(ws, f"/keys/{token['id']}"), headers=owner.headers)
    [listed] = client.get(api(ws, "/invitations"), headers=owner.headers).json()["data"]
    assert listed["revoked_at"] is not None
    [event] = audit_events(client, owner, ws, "invitation.revoke")
    assert event["details"]["reason"] == "inviter_token_revoked"
    assert event["actor_email"] == owner.email

    # revoked behind the service's back (as by a concurrent request): accepting checks again
    second = create_key(client, owner, ws["id"], "admin")
    r = client.post(
        api(ws, "/invitations"),
        json={"email": "lin@example.com", "role": "viewer"},
        headers=bearer(second["key"]),
    )
    code = r.json()["code"]
    db.execute(update(ApiKey).where(ApiKey.id == second["id"]).values(revoked_at=ApiKey.created_at))
    db.commit()
    lin = signup(client, email="lin@example.com")
    r = client.post("/api/v1/invitations/accept", json={"code": code}, headers=lin.headers)
    assert r.status_code == 409
    assert r.json()["code"] == "invitation_revoked"
    # one from a live token is accepted like any other
    third = create_key(client, owner, ws["id"], "admin")
    r = client.post(
        api(ws, "/invitations"),
        json={"email": "lin@example.com", "role": "viewer"},
        headers=bearer(third["key"]),
    )
    r = client.post(
        "/api/v1/invitations/accept", json={"code": r.json()["code"]}, headers=lin.headers
    )
    assert r.status_code == 200, r.text


def test_vigil_bench_uploads_with_an_editor_token(client: TestClient) -> None:
    """``vigil-bench upload --token vgs_…``: the runner's own upload, against this backend."""
    from vigil_bench.schema import BenchmarkRun
    from vigil_bench.upload import UploadError, upload

    owner = signup(client)
    ws = create_workspace(client, owner)
    token = create_key(client, owner, ws["id"], "editor")["key"]
    run = BenchmarkRun.model_validate(document())
    at = {"backend": "http://testserver", "transport": client._transport}  # the app, in process
    created = upload(run, token=token, workspace=ws["id"], **at)  # type: ignore[arg-type]
    assert created["run_id"] == run.run_id and created["uploaded_by"] is None
    other = create_workspace(client, signup(client))
    with pytest.raises(UploadError, match="404 — unknown workspace"):
        upload(run, token=token, workspace=other["id"], **at)  # type: ignore[arg-type]
