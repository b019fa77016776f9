from __future__ import annotations

from fastapi.testclient import TestClient

from tests.factories import add_member, create_workspace, signup


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
    assert r.json()["detail"] == "A admin cannot grant the owner role"
    r = client.patch(f"{base}/members/{viewer.id}", json={"role": "owner"}, headers=admin.headers)
    assert r.status_code == 403
    r = client.patch(f"{base}/members/{owner.id}", json={"role": "viewer"}, headers=admin.headers)
    assert r.status_code == 403
    r = client.delete(f"{base}/members/{owner.id}", headers=admin.headers)
    assert r.status_code == 403
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
