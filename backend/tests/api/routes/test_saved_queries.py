from __future__ import annotations

from fastapi.testclient import TestClient

from tests.factories import add_member, create_workspace, signup


def test_saved_query_crud(client: TestClient) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    base = f"/api/v1/workspaces/{ws['id']}/saved-queries"
    r = client.post(
        base,
        json={"name": "CPU", "query": "M::cpu:(avg(usage_user)) BY host"},
        headers=owner.headers,
    )
    assert r.status_code == 201
    saved = r.json()
    viewer = add_member(client, owner, ws["id"], "viewer")
    listed = client.get(base, headers=viewer.headers).json()
    assert listed["count"] == 1 and listed["data"][0]["query"] == saved["query"]
    r = client.patch(f"{base}/{saved['id']}", json={"name": "CPU by host"}, headers=viewer.headers)
    assert r.status_code == 403
    r = client.patch(f"{base}/{saved['id']}", json={"name": "CPU by host"}, headers=owner.headers)
    assert r.status_code == 200 and r.json()["name"] == "CPU by host"
    assert r.json()["query"] == saved["query"]
    assert client.delete(f"{base}/{saved['id']}", headers=owner.headers).status_code == 200
    r = client.get(f"{base}/{saved['id']}", headers=owner.headers)
    assert r.status_code == 404
    assert r.json()["detail"] == "Saved query not found"


def test_saved_query_of_another_workspace_is_404(client: TestClient) -> None:
    owner = signup(client)
    ws_a, ws_b = create_workspace(client, owner), create_workspace(client, owner)
    saved = client.post(
        f"/api/v1/workspaces/{ws_a['id']}/saved-queries",
        json={"name": "x", "query": "M::cpu"},
        headers=owner.headers,
    ).json()
    r = client.get(
        f"/api/v1/workspaces/{ws_b['id']}/saved-queries/{saved['id']}", headers=owner.headers
    )
    assert r.status_code == 404
