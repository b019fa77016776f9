from __future__ import annotations

import hashlib
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import update
from sqlalchemy.orm import Session

from app.models import Invitation
from tests.factories import SignedUpUser, add_member, create_workspace, random_email, signup


def test_invitation_flow(client: TestClient) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    invitee = signup(client)
    r = client.post(
        f"/api/v1/workspaces/{ws['id']}/invitations",
        json={"email": invitee.email.upper(), "role": "editor"},
        headers=owner.headers,
    )
    assert r.status_code == 201
    invitation = r.json()
    assert invitation["code"].startswith("vginv_")
    assert invitation["email"] == invitee.email
    listed = client.get(f"/api/v1/workspaces/{ws['id']}/invitations", headers=owner.headers).json()
    assert listed["count"] == 1 and "code" not in listed["data"][0]

    stranger = signup(client)
    r = client.post(
        "/api/v1/invitations/accept", json={"code": invitation["code"]}, headers=stranger.headers
    )
    assert r.status_code == 403
    assert r.json()["detail"] == "This invitation was sent to a different email address"

    r = client.post(
        "/api/v1/invitations/accept", json={"code": invitation["code"]}, headers=invitee.headers
    )
    assert r.status_code == 200
    assert r.json() == {**ws, "role": "editor"}
    r = client.post(
        "/api/v1/invitations/accept", json={"code": invitation["code"]}, headers=invitee.headers
    )
    assert r.status_code == 409
    assert r.json()["code"] == "invitation_used"

    members = client.get(f"/api/v1/workspaces/{ws['id']}/members", headers=invitee.headers).json()
    assert {(m["email"], m["role"]) for m in members["data"]} == {
        (owner.email, "owner"),
        (invitee.email, "editor"),
    }


def test_bad_or_revoked_code(client: TestClient) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    invitee = signup(client)
    r = client.post(
        "/api/v1/invitations/accept", json={"code": "vginv_nope"}, headers=invitee.headers
    )
    assert r.status_code == 404
    inv = client.post(
        f"/api/v1/workspaces/{ws['id']}/invitations",
        json={"email": invitee.email, "role": "viewer"},
        headers=owner.headers,
    ).json()
    r = client.delete(
        f"/api/v1/workspaces/{ws['id']}/invitations/{inv['id']}", headers=owner.headers
    )
    assert r.status_code == 200 and r.json()["revoked_at"] is not None
    r = client.post(
        "/api/v1/invitations/accept", json={"code": inv["code"]}, headers=invitee.headers
    )
    assert r.status_code == 404


def test_admin_cannot_grant_owner_or_touch_owners(client: TestClient) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    admin = add_member(client, owner, ws["id"], "admin")
    viewer = add_member(client, owner, ws["id"], "viewer")
    base = f"/api/v1/workspaces/{ws['id']}"
    r = client.post(
        f"{base}/invitations",
        json={"email": "x@example.com", "role": "owner"},
        headers=admin.headers,
    )
    assert r.status_code == 403
    assert r.json()["detail"] == "An admin cannot grant the owner role"
    r = client.patch(f"{base}/members/{viewer.id}", json={"role": "owner"}, headers=admin.headers)
    assert r.status_code == 403
    assert r.json()["detail"] == "An admin cannot grant the owner role"
    r = client.patch(f"{base}/members/{owner.id}", json={"role": "viewer"}, headers=admin.headers)
    assert r.status_code == 403
    assert r.json()["detail"] == "An admin cannot change the role of an owner"
    r = client.delete(f"{base}/members/{owner.id}", headers=admin.headers)
    assert r.status_code == 403
    assert r.json()["detail"] == "An admin cannot remove an owner"
    r = client.patch(f"{base}/members/{viewer.id}", json={"role": "editor"}, headers=admin.headers)
    assert r.status_code == 200 and r.json()["role"] == "editor"
    r = client.delete(f"{base}/members/{viewer.id}", headers=admin.headers)
    assert r.status_code == 200
    assert client.get(base, headers=viewer.headers).status_code == 404


def test_last_owner_is_kept(client: TestClient) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    base = f"/api/v1/workspaces/{ws['id']}"
    r = client.patch(f"{base}/members/{owner.id}", json={"role": "admin"}, headers=owner.headers)
    assert r.status_code == 409
    assert r.json() == {"detail": "A workspace needs at least one owner", "code": "last_owner"}
    second = add_member(client, owner, ws["id"], "owner")
    r = client.patch(f"{base}/members/{owner.id}", json={"role": "admin"}, headers=second.headers)
    assert r.status_code == 200


def test_inviting_a_member_again_is_409(client: TestClient) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    r = client.post(
        f"/api/v1/workspaces/{ws['id']}/invitations",
        json={"email": owner.email, "role": "viewer"},
        headers=owner.headers,
    )
    assert r.status_code == 409
    assert r.json()["code"] == "already_member"


def test_leave(client: TestClient) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    viewer = add_member(client, owner, ws["id"], "viewer")
    r = client.post(f"/api/v1/workspaces/{ws['id']}/leave", headers=viewer.headers)
    assert r.status_code == 200
    assert client.get(f"/api/v1/workspaces/{ws['id']}", headers=viewer.headers).status_code == 404
    r = client.post(f"/api/v1/workspaces/{ws['id']}/leave", headers=owner.headers)
    assert r.status_code == 409
    assert r.json()["code"] == "last_owner"


def test_unknown_member_is_404(client: TestClient) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    stranger = signup(client)
    r = client.delete(f"/api/v1/workspaces/{ws['id']}/members/{stranger.id}", headers=owner.headers)
    assert r.status_code == 404
    assert r.json()["detail"] == "Member not found"


def _invite(client: TestClient, owner: SignedUpUser, workspace_id: str, email: str) -> Any:
    r = client.post(
        f"/api/v1/workspaces/{workspace_id}/invitations",
        json={"email": email, "role": "editor"},
        headers=owner.headers,
    )
    assert r.status_code == 201, r.text
    return r.json()


def test_invitation_lookup_by_code_needs_no_session_and_tells_only_the_offer(
    client: TestClient,
) -> None:
    owner = signup(client)
    r = client.patch("/api/v1/auth/me", json={"full_name": "Ada Lovelace"}, headers=owner.headers)
    assert r.status_code == 200
    ws = create_workspace(client, owner, name="Analytical Engines")
    inv = _invite(client, owner, ws["id"], "grace@example.com")

    r = client.get(f"/api/v1/invitations/{inv['code']}")
    assert r.status_code == 200
    assert r.headers["cache-control"] == "no-store"
    assert r.json() == {
        "workspace_name": "Analytical Engines",
        "role": "editor",
        "email": "grace@example.com",
        "inviter_name": "Ada Lovelace",
        "inviter_email": owner.email,
        "expires_at": inv["expires_at"],
        "state": "pending",
    }


def test_invitation_lookup_follows_the_invitation_state(client: TestClient, db: Session) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    invitee = signup(client)

    accepted = _invite(client, owner, ws["id"], invitee.email)
    r = client.post(
        "/api/v1/invitations/accept", json={"code": accepted["code"]}, headers=invitee.headers
    )
    assert r.status_code == 200
    r = client.get(f"/api/v1/invitations/{accepted['code']}")
    assert r.status_code == 200 and r.json()["state"] == "accepted"
    # A link that no longer works tells neither address.
    assert r.json()["email"] is None and r.json()["inviter_email"] is None

    revoked = _invite(client, owner, ws["id"], "revoked@example.com")
    r = client.delete(
        f"/api/v1/workspaces/{ws['id']}/invitations/{revoked['id']}", headers=owner.headers
    )
    assert r.status_code == 200
    closed = client.get(f"/api/v1/invitations/{revoked['code']}").json()
    assert closed["state"] == "revoked"
    assert closed["email"] is None and closed["inviter_email"] is None
    assert closed["workspace_name"] == ws["name"] and closed["role"] == "editor"

    expired = _invite(client, owner, ws["id"], "late@example.com")
    past = datetime.now(UTC) - timedelta(minutes=1)
    db.execute(
        update(Invitation).where(Invitation.id == uuid.UUID(expired["id"])).values(expires_at=past)
    )
    db.commit()
    r = client.get(f"/api/v1/invitations/{expired['code']}")
    assert r.status_code == 200
    assert r.json()["state"] == "expired"
    assert r.json()["inviter_name"] is None  # the owner gave no name
    assert r.json()["email"] is None and r.json()["inviter_email"] is None
    # Expired wins over nothing, but accepted and revoked win over expired.
    db.execute(
        update(Invitation).where(Invitation.id == uuid.UUID(revoked["id"])).values(expires_at=past)
    )
    db.commit()
    assert client.get(f"/api/v1/invitations/{revoked['code']}").json()["state"] == "revoked"


def test_invitation_lookup_of_an_unknown_code_is_404(client: TestClient) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    inv = _invite(client, owner, ws["id"], "someone@example.com")
    not_found = {
        "detail": "Invitation not found: check the link, or ask for a new invitation",
        "code": "not_found",
    }
    # A near miss, a route name, the invitation's id and its stored hash are all unknown codes.
    for code in (
        inv["code"][:-1] + ("A" if inv["code"][-1] != "A" else "B"),
        "vginv_nope",
        "accept",
        inv["id"],
        hashlib.sha256(inv["code"].encode()).hexdigest(),
    ):
        r = client.get(f"/api/v1/invitations/{code}")
        assert r.status_code == 404, code
        assert r.json() == not_found
    assert client.get(f"/api/v1/invitations/{'x' * 201}").status_code == 422


def test_invitation_lookup_of_a_deleted_workspace_is_404(client: TestClient) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    inv = _invite(client, owner, ws["id"], "someone@example.com")
    r = client.request(
        "DELETE",
        f"/api/v1/workspaces/{ws['id']}",
        json={"confirm_name": ws["name"]},
        headers=owner.headers,
    )
    assert r.status_code == 200, r.text
    r = client.get(f"/api/v1/invitations/{inv['code']}")
    assert r.status_code == 404
    assert r.json()["code"] == "not_found"


def test_role_names_in_messages_take_the_right_article(client: TestClient) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    base = f"/api/v1/workspaces/{ws['id']}"
    admin = add_member(client, owner, ws["id"], "admin")
    second_owner = add_member(client, owner, ws["id"], "owner")
    r = client.delete(f"{base}/members/{second_owner.id}", headers=admin.headers)
    assert r.status_code == 403
    assert r.json()["detail"] == "An admin cannot remove an owner"
    r = client.patch(
        f"{base}/members/{second_owner.id}", json={"role": "editor"}, headers=admin.headers
    )
    assert r.status_code == 403
    assert r.json()["detail"] == "An admin cannot change the role of an owner"


def test_a_second_pending_invitation_for_the_same_email_is_409(
    client: TestClient, db: Session
) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    base = f"/api/v1/workspaces/{ws['id']}"
    email = random_email()
    first = _invite(client, owner, ws["id"], email)

    # The same address in other case and with spaces around it is the same invitee.
    r = client.post(
        f"{base}/invitations",
        json={"email": f"  {email.upper()} ", "role": "viewer"},
        headers=owner.headers,
    )
    assert r.status_code == 409
    assert r.json() == {
        "detail": f"{email} already has a pending invitation to this workspace: "
        "reuse the link sent with it, or revoke it to create a new one",
        "code": "invitation_pending",
    }
    listed = client.get(f"{base}/invitations", headers=owner.headers).json()
    assert [i["id"] for i in listed["data"]] == [first["id"]]

    # Another workspace may invite the same address.
    other = create_workspace(client, owner)
    _invite(client, owner, other["id"], email)

    # Revoked: a new one may be sent.
    r = client.delete(f"{base}/invitations/{first['id']}", headers=owner.headers)
    assert r.status_code == 200
    second = _invite(client, owner, ws["id"], email)

    # Expired: likewise.
    past = datetime.now(UTC) - timedelta(minutes=1)
    db.execute(
        update(Invitation).where(Invitation.id == uuid.UUID(second["id"])).values(expires_at=past)
    )
    db.commit()
    third = _invite(client, owner, ws["id"], email)

    # Accepted: the invitee is a member, which has its own answer.
    grace = signup(client, email=email)
    r = client.post(
        "/api/v1/invitations/accept", json={"code": third["code"]}, headers=grace.headers
    )
    assert r.status_code == 200
    r = client.post(
        f"{base}/invitations",
        json={"email": email, "role": "viewer"},
        headers=owner.headers,
    )
    assert r.status_code == 409 and r.json()["code"] == "already_member"
