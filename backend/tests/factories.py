"""Test data through the public API (so every factory exercises the real code path)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from fastapi.testclient import TestClient

PASSWORD = "correct horse battery staple"


def random_email() -> str:
    return f"user-{secrets.token_hex(6)}@example.com"


@dataclass
class SignedUpUser:
    email: str
    password: str
    token: str
    refresh_token: str
    id: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


def signup(
    client: TestClient,
    *,
    email: str | None = None,
    password: str = PASSWORD,
    full_name: str | None = None,
) -> SignedUpUser:
    """Sign up the way people do: the address gets a link, the link's page sets the password."""
    from tests.conftest import mail_server

    email = email or random_email()
    r = client.post("/api/v1/auth/signup", json={"email": email})
    assert r.status_code == 202, r.text
    token = mail_server().link_token(email, "/signup/complete")
    r = client.post(
        "/api/v1/auth/signup/complete",
        json={"token": token, "password": password, "full_name": full_name},
    )
    assert r.status_code == 201, r.text
    body = r.json()
    return SignedUpUser(
        email, password, body["access_token"], body["refresh_token"], body["user"]["id"]
    )


def create_workspace(
    client: TestClient, user: SignedUpUser, name: str | None = None
) -> dict[str, Any]:
    r = client.post(
        "/api/v1/workspaces",
        json={"name": name or f"ws-{secrets.token_hex(3)}"},
        headers=user.headers,
    )
    assert r.status_code == 201, r.text
    result: dict[str, Any] = r.json()
    return result


def add_member(
    client: TestClient, owner: SignedUpUser, workspace_id: str, role: str
) -> SignedUpUser:
    """A new user who joined ``workspace_id`` with ``role`` through an invitation."""
    member = signup(client)
    r = client.post(
        f"/api/v1/workspaces/{workspace_id}/invitations",
        json={"email": member.email, "role": role},
        headers=owner.headers,
    )
    assert r.status_code == 201, r.text
    r = client.post(
        "/api/v1/invitations/accept", json={"code": r.json()["code"]}, headers=member.headers
    )
    assert r.status_code == 200, r.text
    return member


def create_key(
    client: TestClient, user: SignedUpUser, workspace_id: str, scope: str
) -> dict[str, Any]:
    r = client.post(
        f"/api/v1/workspaces/{workspace_id}/keys",
        json={"name": f"{scope} key", "scope": scope},
        headers=user.headers,
    )
    assert r.status_code == 201, r.text
    result: dict[str, Any] = r.json()
    return result


def grant_operator(email: str) -> None:
    """Make an account a platform operator, as ``vigil-admin operator grant`` does."""
    from app.core.db import get_sessionmaker
    from app.services import operators
    from app.services.audit import Actor

    with get_sessionmaker()() as db:
        operators.grant(db, email=email, actor=Actor(None, "vigil-admin", None, "tests"))


def signup_operator(client: TestClient) -> SignedUpUser:
    """A new account that is a platform operator."""
    user = signup(client)
    grant_operator(user.email)
    return user
