"""POST …/dashboards/import/grafana: a Grafana dashboard's JSON becomes a Vigil dashboard."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from app.core.config import settings
from tests.factories import add_member, create_workspace, signup

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "grafana"


def fixture(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / name).read_text())
    return data


def test_node_exporter_full_is_imported_with_what_it_left_out(client: TestClient) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    base = f"/api/v1/workspaces/{ws['id']}/dashboards"
    r = client.post(
        f"{base}/import/grafana", json=fixture("node-exporter-full.json"), headers=user.headers
    )
    assert r.status_code == 201, r.text
    body = r.json()
    d = body["dashboard"]
    assert (d["title"], d["version"], d["workspace_id"]) == ("Node Exporter Full", 1, ws["id"])
    spec = d["spec"]
    assert [v["name"] for v in spec["variables"]] == ["job", "node", "cpu", "diskdevices"]
    assert spec["panels"][1]["queries"][0]["language"] == "promql"
    assert len([p for p in spec["panels"] if p["type"] == "row"]) == 5
    assert body["unmapped"][0] == {
        "kind": "variable",
        "title": "Filters",
        "grafana_id": None,
        "reason": "variables of type 'adhoc' are not supported",
    }
    assert {(u["title"], u["grafana_id"]) for u in body["unmapped"] if u["kind"] == "panel"} == {
        ("Uptime", 15),
        ("CPU Basic", 77),
        ("Filesystem details", 300),
        ("Network packets by device", 273),
    }
    # stored as a dashboard like any other: read back the same, version 1 says "imported"
    again = client.get(f"{base}/{d['id']}", headers=user.headers).json()
    assert again["spec"] == spec
    versions = client.get(f"{base}/{d['id']}/versions", headers=user.headers).json()
    assert [(v["version"], v["message"]) for v in versions["data"]] == [(1, "imported")]
    # and the audit log says who brought it from where
    audit = client.get(
        f"/api/v1/workspaces/{ws['id']}/audit",
        params={"action": "dashboard.import"},
        headers=user.headers,
    ).json()
    assert audit["count"] == 1
    event = audit["data"][0]
    assert (event["target_type"], event["target_id"]) == ("dashboard", d["id"])
    assert event["details"] == {"title": "Node Exporter Full", "source": "grafana", "unmapped": 7}


def test_the_api_envelope_and_a_title_of_ones_own(client: TestClient) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    r = client.post(
        f"/api/v1/workspaces/{ws['id']}/dashboards/import/grafana",
        params={"title": "  Go services  "},
        json={"dashboard": fixture("go-processes.json"), "overwrite": True, "folderUid": "x"},
        headers=user.headers,
    )
    assert r.status_code == 201, r.text
    assert r.json()["dashboard"]["title"] == "Go services"
    assert len(r.json()["unmapped"]) == 7


def test_bad_documents_get_a_422_naming_what_is_wrong(client: TestClient) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    url = f"/api/v1/workspaces/{ws['id']}/dashboards/import/grafana"
    cases: list[tuple[object, str]] = [
        ({"title": "x"}, "body.panels: not a Grafana dashboard: a list of panels is expected"),
        ({"panels": []}, "body.title: a Grafana dashboard has a title"),
        (
            {"title": "old", "rows": []},
            "body.rows: this is a dashboard of Grafana 4 or older (rows at the top level): "
            "open it in a newer Grafana and export it again",
        ),
        ([1, 2], "body: Input should be a valid dictionary"),
    ]
    for doc, detail in cases:
        r = client.post(url, json=doc, headers=user.headers)
        assert r.status_code == 422, r.text
        assert r.json()["detail"] == detail
        assert r.json()["code"] == "validation_error"
    r = client.post(
        url,
        content=b'{"title": "x", "panels": [',
        headers={**user.headers, "Content-Type": "application/json"},
    )
    assert r.status_code == 422
    assert r.json()["detail"].startswith("the body is not valid JSON")
    r = client.post(url, params={"title": " "}, json={"panels": []}, headers=user.headers)
    assert r.status_code == 422
    assert r.json()["detail"] == "query.title: must not be blank"
    # nothing was created
    listed = client.get(f"/api/v1/workspaces/{ws['id']}/dashboards", headers=user.headers).json()
    assert [d["title"] for d in listed["data"]] == ["Host overview"]


def test_a_body_over_the_size_limit_is_refused_before_it_is_read(client: TestClient) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    doc = {"title": "huge", "panels": [], "description": "x" * settings.MAX_REQUEST_BYTES}
    r = client.post(
        f"/api/v1/workspaces/{ws['id']}/dashboards/import/grafana", json=doc, headers=user.headers
    )
    assert r.status_code == 413
    assert r.json()["limit"] == "max_request_bytes"


def test_viewers_cannot_import(client: TestClient) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    viewer = add_member(client, owner, ws["id"], "viewer")
    editor = add_member(client, owner, ws["id"], "editor")
    url = f"/api/v1/workspaces/{ws['id']}/dashboards/import/grafana"
    doc = fixture("go-processes.json")
    r = client.post(url, json=doc, headers=viewer.headers)
    assert r.status_code == 403
    assert r.json()["code"] == "forbidden"
    assert client.post(url, json=doc, headers=editor.headers).status_code == 201


def test_the_dashboards_limit_holds_for_grafana_imports(client: TestClient) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)  # comes with one shipped dashboard
    url = f"/api/v1/workspaces/{ws['id']}"
    client.patch(f"{url}/limits", json={"max_dashboards": 1}, headers=owner.headers)
    r = client.post(
        f"{url}/dashboards/import/grafana", json=fixture("go-processes.json"), headers=owner.headers
    )
    assert r.status_code == 429, r.text
    assert r.json()["limit"] == "max_dashboards"
    assert client.get(f"{url}/dashboards", headers=owner.headers).json()["count"] == 1
