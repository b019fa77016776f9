from __future__ import annotations

import hashlib

from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import ApiKey
from tests.factories import create_key, create_workspace, signup


def test_key_is_shown_once_and_stored_hashed(client: TestClient, db: Session) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    created = create_key(client, user, ws["id"], "ingest")
    key = created["key"]
    assert key.startswith("vgi_") and len(key) == 47
    assert created["key_prefix"] == key[:12]
    row = db.scalar(select(ApiKey).where(ApiKey.id == created["id"]))
    assert row is not None
    assert row.key_hash == hashlib.sha256(key.encode()).hexdigest()
    assert key not in str(vars(row))
    listed = client.get(f"/api/v1/workspaces/{ws['id']}/keys", headers=user.headers).json()
    assert listed["count"] == 1
    assert "key" not in listed["data"][0]
    assert listed["data"][0]["last_used_at"] is None


def test_query_key_use_sets_last_used_at(client: TestClient) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    created = create_key(client, user, ws["id"], "query")
    assert created["key"].startswith("vgq_")
    r = client.post(
        "/v1/query/raw",
        json={"queries": [{"query": "M::cpu"}]},
        headers={"Authorization": f"Token {created['key']}"},
    )
    assert r.status_code == 200
    listed = client.get(f"/api/v1/workspaces/{ws['id']}/keys", headers=user.headers).json()
    assert listed["data"][0]["last_used_at"] is not None


def test_revoke(client: TestClient) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    created = create_key(client, user, ws["id"], "query")
    r = client.delete(f"/api/v1/workspaces/{ws['id']}/keys/{created['id']}", headers=user.headers)
    assert r.status_code == 200
    assert r.json()["revoked_at"] is not None
    other = create_workspace(client, user)
    r = client.delete(
        f"/api/v1/workspaces/{other['id']}/keys/{created['id']}", headers=user.headers
    )
    assert r.status_code == 404
    assert r.json()["detail"] == "API key not found"


def test_bad_scope_is_422(client: TestClient) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    r = client.post(
        f"/api/v1/workspaces/{ws['id']}/keys",
        json={"name": "x", "scope": "owner"},
        headers=user.headers,
    )
    assert r.status_code == 422
    assert r.json()["detail"].startswith("body.scope:")
    assert "'ingest', 'query', 'editor' or 'admin'" in r.json()["detail"]
