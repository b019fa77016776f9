"""Names and titles people type: surrounding whitespace is dropped, and a blank one is 422."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.schemas.api_key import ApiKeyCreate
from app.schemas.dashboard import DashboardCreate, DashboardExport, DashboardUpdate
from app.schemas.saved_query import SavedQueryCreate, SavedQueryUpdate
from app.schemas.workspace import WorkspaceCreate, WorkspaceUpdate
from tests.factories import create_workspace, signup

QUERY = "M::cpu:(avg(usage_user)) [1h]"

# (what, method, path under the workspace ("" is the workspace itself; None: POST /workspaces),
#  the field, the rest of the body)
CASES: list[tuple[str, str, str | None, str, dict[str, Any]]] = [
    ("api key name", "POST", "/keys", "name", {"scope": "ingest"}),
    ("workspace name", "POST", None, "name", {}),
    ("workspace rename", "PATCH", "", "name", {}),
    ("dashboard title", "POST", "/dashboards", "title", {}),
    ("dashboard import title", "POST", "/dashboards/import", "title", {"spec": {}}),
    ("saved query name", "POST", "/saved-queries", "name", {"query": QUERY}),
]


def _url(workspace_id: str, path: str | None) -> str:
    return "/api/v1/workspaces" if path is None else f"/api/v1/workspaces/{workspace_id}{path}"


@pytest.mark.parametrize(
    ("what", "method", "path", "field", "rest"), CASES, ids=[c[0] for c in CASES]
)
@pytest.mark.parametrize("blank", ["", "   ", " \t\n "])
def test_a_blank_name_is_422_naming_the_field(
    client: TestClient,
    what: str,
    method: str,
    path: str | None,
    field: str,
    rest: dict[str, Any],
    blank: str,
) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    r = client.request(
        method, _url(ws["id"], path), json={**rest, field: blank}, headers=owner.headers
    )
    assert r.status_code == 422, r.text
    assert r.json()["detail"] == f"body.{field}: must not be blank"
    assert r.json()["code"] == "validation_error"


@pytest.mark.parametrize(
    ("what", "method", "path", "field", "rest"), CASES, ids=[c[0] for c in CASES]
)
def test_a_name_is_stored_without_surrounding_whitespace(
    client: TestClient, what: str, method: str, path: str | None, field: str, rest: dict[str, Any]
) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    r = client.request(
        method, _url(ws["id"], path), json={**rest, field: "  web 01\t"}, headers=owner.headers
    )
    assert r.status_code in (200, 201), r.text
    assert r.json()[field] == "web 01"


def test_renaming_a_dashboard_or_a_saved_query_to_blank_is_422(client: TestClient) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    base = f"/api/v1/workspaces/{ws['id']}"
    dashboard = client.post(f"{base}/dashboards", json={"title": "CPU"}, headers=owner.headers)
    saved = client.post(
        f"{base}/saved-queries", json={"name": "cpu", "query": QUERY}, headers=owner.headers
    )
    assert dashboard.status_code == 201 and saved.status_code == 201
    for url, field in (
        (f"{base}/dashboards/{dashboard.json()['id']}", "title"),
        (f"{base}/saved-queries/{saved.json()['id']}", "name"),
    ):
        r = client.patch(url, json={field: "  "}, headers=owner.headers)
        assert r.status_code == 422, r.text
        assert r.json()["detail"] == f"body.{field}: must not be blank"
        r = client.patch(url, json={field: " renamed "}, headers=owner.headers)
        assert r.status_code == 200, r.text
        assert r.json()[field] == "renamed"


@pytest.mark.parametrize(
    ("model", "field", "max_length"),
    [
        (ApiKeyCreate, "name", 100),
        (WorkspaceCreate, "name", 100),
        (WorkspaceUpdate, "name", 100),
        (DashboardCreate, "title", 200),
        (DashboardUpdate, "title", 200),
        (DashboardExport, "title", 200),
        (SavedQueryCreate, "name", 200),
        (SavedQueryUpdate, "name", 200),
    ],
)
def test_maximum_lengths_are_kept_and_counted_after_stripping(
    model: Any, field: str, max_length: int
) -> None:
    rest: dict[str, Any] = {
        ApiKeyCreate: {"scope": "query"},
        SavedQueryCreate: {"query": QUERY},
        DashboardExport: {"spec": {}},
    }.get(model, {})
    longest = "x" * max_length
    assert getattr(model(**rest, **{field: f"  {longest}  "}), field) == longest
    with pytest.raises(ValueError, match=f"at most {max_length} characters"):
        model(**rest, **{field: longest + "x"})
