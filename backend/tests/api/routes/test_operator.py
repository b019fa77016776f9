"""The operator plane: plans and their ceilings over every limit, plan changes, suspension at
the query API, member and dashboard counts, usage across workspaces, the operator audit log."""

from __future__ import annotations

import json
import uuid
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import inspect

from app.models import Plan, WorkspaceLimits
from app.schemas.limits import LimitsUpdate, LimitValues
from app.schemas.plan import PlanBounds
from app.services import plans, platform_usage
from tests.factories import (
    SignedUpUser,
    add_member,
    create_key,
    create_workspace,
    signup,
    signup_operator,
)
from tests.storage_mock import StorageMock

OP = "/api/v1/operator"


def _plan_body(name: str, **overrides: int) -> dict[str, Any]:
    body: dict[str, Any] = {
        "name": name,
        "description": "for tests",
        "ingest_points_per_second": 1_000,
        "ingest_burst": 2_000,
        "max_body_bytes": 65_536,
        "active_series": 5_000,
        "query_timeout_seconds": 10,
        "max_points_per_query": 50_000,
        "concurrent_queries": 2,
        "retention_days": 7,
        "max_monitors": 5,
        "min_monitor_interval_seconds": 60,
        "max_notifications_per_hour": 20,
        "max_members": 3,
        "max_dashboards": 4,
    }
    body.update(overrides)
    return body


def _create_plan(client: TestClient, operator: SignedUpUser, **overrides: int) -> dict[str, Any]:
    r = client.post(
        f"{OP}/plans",
        json=_plan_body(f"plan-{uuid.uuid4().hex[:8]}", **overrides),
        headers=operator.headers,
    )
    assert r.status_code == 201, r.text
    result: dict[str, Any] = r.json()
    return result


def _set_plan(
    client: TestClient, operator: SignedUpUser, workspace_id: str, plan_id: str
) -> dict[str, Any]:
    r = client.put(
        f"{OP}/workspaces/{workspace_id}/plan", json={"plan_id": plan_id}, headers=operator.headers
    )
    assert r.status_code == 200, r.text
    result: dict[str, Any] = r.json()
    return result


@pytest.fixture()
def operator(client: TestClient) -> SignedUpUser:
    return signup_operator(client)


def test_the_bounds_table_covers_every_limit_and_plan_column() -> None:
    """One table maps each limit to its plan bound: exactly the workspace's limit columns, the
    plan's columns and what owners may PATCH."""
    limit_columns = {c.key for c in inspect(WorkspaceLimits).columns} - {"workspace_id"}
    plan_columns = {c.key for c in inspect(Plan).columns} - {
        "id",
        "name",
        "description",
        "is_default",
        "created_at",
        "updated_at",
    }
    assert set(plans.BOUND_FIELDS) == plan_columns == set(PlanBounds.model_fields)
    assert set(plans.BOUND_FIELDS) == limit_columns
    assert limit_columns == set(LimitsUpdate.model_fields) == set(LimitValues.model_fields)
    assert [b.limit for b in plans.BOUNDS if b.direction == "floor"] == [
        "min_monitor_interval_seconds"
    ]


def test_a_new_workspace_is_on_the_default_plan_at_its_ceilings(
    client: TestClient, operator: SignedUpUser
) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    body = client.get(f"/api/v1/workspaces/{ws['id']}/limits", headers=owner.headers).json()
    listed = client.get(f"{OP}/plans", headers=operator.headers).json()["data"]
    default = next(p for p in listed if p["is_default"])
    assert listed[0] == default  # the default first
    assert body["plan"] == {"id": default["id"], "name": default["name"]}
    for b in plans.BOUNDS:
        assert body["ceilings"][b.limit] == default[b.limit]
        assert body[b.limit] == default[b.limit]


@pytest.mark.parametrize("bound", plans.BOUNDS, ids=lambda b: b.limit)
def test_owners_set_each_limit_within_its_bound_never_beyond(
    client: TestClient, operator: SignedUpUser, bound: plans.Bound
) -> None:
    """At most a ceiling; at least a floor (the monitor interval)."""
    owner = signup(client)
    ws = create_workspace(client, owner)
    plan = _create_plan(client, operator)
    _set_plan(client, operator, ws["id"], plan["id"])
    url = f"/api/v1/workspaces/{ws['id']}/limits"
    limit = plan[bound.limit]
    ceiling = bound.direction == "ceiling"
    beyond, side = (limit + 1, "above the ceiling") if ceiling else (limit - 1, "below the floor")

    r = client.patch(url, json={bound.limit: beyond}, headers=owner.headers)
    assert r.status_code == 422, r.text
    msg = (
        f"{bound.limit}: {beyond:,} is {side} of the plan {plan['name']} ({limit:,}); "
        "a platform operator sets the plan"
    )
    assert r.json() == {
        "detail": msg,
        "code": "plan_ceiling",
        "limit": bound.limit,
        "errors": [{"loc": ["body", bound.limit], "msg": msg, "type": "plan_ceiling"}],
    }
    assert client.get(url, headers=owner.headers).json()[bound.limit] == limit  # unchanged

    least = 1024 if bound.limit == "max_body_bytes" else 1
    inside = max(least, limit // 2) if ceiling else limit * 2
    for value in (inside, limit):
        r = client.patch(url, json={bound.limit: value}, headers=owner.headers)
        assert r.status_code == 200, r.text
        assert r.json()[bound.limit] == value


def test_every_value_above_its_ceiling_is_named(client: TestClient, operator: SignedUpUser) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    plan = _create_plan(client, operator)
    _set_plan(client, operator, ws["id"], plan["id"])
    too_much = {"ingest_burst": 10**9, "retention_days": 3650, "active_series": 1}
    r = client.patch(f"/api/v1/workspaces/{ws['id']}/limits", json=too_much, headers=owner.headers)
    assert r.status_code == 422
    body = r.json()
    assert body["detail"].endswith("(and 1 more)")
    assert [e["loc"][1] for e in body["errors"]] == ["ingest_burst", "retention_days"]


def test_plan_crud_default_and_conflicts(client: TestClient, operator: SignedUpUser) -> None:
    plan = _create_plan(client, operator)
    assert plan["workspaces"] == 0 and plan["is_default"] is False
    r = client.post(f"{OP}/plans", json=_plan_body(plan["name"].upper()), headers=operator.headers)
    assert r.status_code == 409
    assert r.json() == {
        "detail": f"A plan named {plan['name'].upper()!r} already exists",
        "code": "plan_name_taken",
    }
    r = client.patch(
        f"{OP}/plans/{plan['id']}", json={"description": "renamed"}, headers=operator.headers
    )
    assert r.status_code == 200 and r.json()["description"] == "renamed"
    assert client.get(f"{OP}/plans/{plan['id']}", headers=operator.headers).json() == r.json()

    default = next(
        p
        for p in client.get(f"{OP}/plans", headers=operator.headers).json()["data"]
        if p["is_default"]
    )
    r = client.patch(
        f"{OP}/plans/{default['id']}", json={"is_default": False}, headers=operator.headers
    )
    assert r.status_code == 409 and r.json()["code"] == "default_plan_required"
    r = client.delete(f"{OP}/plans/{default['id']}", headers=operator.headers)
    assert r.status_code == 409 and r.json()["code"] == "default_plan_required"

    # another plan becomes the default: new workspaces get it
    r = client.patch(
        f"{OP}/plans/{plan['id']}", json={"is_default": True}, headers=operator.headers
    )
    assert r.status_code == 200 and r.json()["is_default"] is True
    try:
        owner = signup(client)
        ws = create_workspace(client, owner)
        limits = client.get(f"/api/v1/workspaces/{ws['id']}/limits", headers=owner.headers)
        assert limits.json()["plan"]["id"] == plan["id"]
        r = client.delete(f"{OP}/plans/{plan['id']}", headers=operator.headers)
        assert r.status_code == 409
        assert r.json() == {
            "detail": "The default plan cannot be deleted: make another plan the default first",
            "code": "default_plan_required",
        }
    finally:
        r = client.patch(
            f"{OP}/plans/{default['id']}", json={"is_default": True}, headers=operator.headers
        )
        assert r.status_code == 200
    r = client.delete(f"{OP}/plans/{plan['id']}", headers=operator.headers)
    assert r.status_code == 409
    assert r.json() == {
        "detail": f"1 workspace is on the plan {plan['name']}: move them to another plan first",
        "code": "plan_in_use",
    }
    _set_plan(client, operator, ws["id"], default["id"])
    r = client.delete(f"{OP}/plans/{plan['id']}", headers=operator.headers)
    assert r.status_code == 200
    assert client.get(f"{OP}/plans/{plan['id']}", headers=operator.headers).status_code == 404


def test_a_smaller_plan_lowers_the_limits_and_says_so(
    client: TestClient, operator: SignedUpUser
) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    url = f"/api/v1/workspaces/{ws['id']}/limits"
    r = client.patch(url, json={"query_timeout_seconds": 5}, headers=owner.headers)
    assert r.status_code == 200
    before = r.json()
    plan = _create_plan(client, operator)
    changed = _set_plan(client, operator, ws["id"], plan["id"])
    assert changed["workspace"]["plan"] == {"id": plan["id"], "name": plan["name"]}
    lowered = changed["lowered"]
    # 5 s is already below the plan's 10 s: kept; everything else came down to the plan
    assert "query_timeout_seconds" not in lowered
    for b in plans.BOUNDS:
        if b.limit == "query_timeout_seconds":
            continue
        assert lowered[b.limit] == {"from": before[b.limit], "to": plan[b.limit]}, b.limit
        assert changed["workspace"]["limits"][b.limit] == plan[b.limit]
    after = client.get(url, headers=owner.headers).json()
    assert after["query_timeout_seconds"] == 5 and after["ingest_burst"] == plan["ingest_burst"]

    # the workspace's own audit log says what the operator did to it
    events = client.get(f"/api/v1/workspaces/{ws['id']}/audit", headers=owner.headers).json()[
        "data"
    ]
    # (one transaction: the two events share their time, so their order is not defined)
    by_action = {e["action"]: e for e in events[:2]}
    assert set(by_action) == {"limits.update", "workspace.plan_change"}
    assert by_action["limits.update"]["actor_email"] == operator.email
    assert by_action["limits.update"]["details"]["ingest_burst"] == lowered["ingest_burst"]
    assert by_action["workspace.plan_change"]["details"] == {"from": "Default", "to": plan["name"]}
    # and the operator audit log too
    ops = client.get(
        f"{OP}/audit", params={"workspace_id": ws["id"]}, headers=operator.headers
    ).json()
    assert ops["count"] == 1
    assert ops["data"][0]["action"] == "workspace.plan_change"
    assert ops["data"][0]["details"]["limits_lowered"] == lowered

    # the same plan again changes nothing
    assert _set_plan(client, operator, ws["id"], plan["id"])["lowered"] == {}
    r = client.put(
        f"{OP}/workspaces/{ws['id']}/plan",
        json={"plan_id": str(uuid.uuid4())},
        headers=operator.headers,
    )
    assert r.status_code == 404 and r.json()["detail"] == "Plan not found"


def test_lowering_a_ceiling_lowers_every_workspace_on_the_plan(
    client: TestClient, operator: SignedUpUser
) -> None:
    plan = _create_plan(client, operator)
    owner = signup(client)
    spaces = [create_workspace(client, owner) for _ in range(2)]
    for ws in spaces:
        _set_plan(client, operator, ws["id"], plan["id"])
    client.patch(
        f"/api/v1/workspaces/{spaces[0]['id']}/limits",
        json={"retention_days": 2},
        headers=owner.headers,
    )
    r = client.patch(
        f"{OP}/plans/{plan['id']}", json={"retention_days": 3}, headers=operator.headers
    )
    assert r.status_code == 200 and r.json()["retention_days"] == 3
    got = [
        client.get(f"/api/v1/workspaces/{ws['id']}/limits", headers=owner.headers).json()
        for ws in spaces
    ]
    assert [g["retention_days"] for g in got] == [2, 3]
    assert all(g["ceilings"]["retention_days"] == 3 for g in got)
    event = client.get(f"{OP}/audit", params={"action": "plan.*"}, headers=operator.headers)
    update = event.json()["data"][0]
    assert update["action"] == "plan.update" and update["target_id"] == plan["id"]
    assert update["details"]["changes"] == {"retention_days": {"from": 7, "to": 3}}
    assert update["details"]["workspaces_lowered"] == 1


def test_suspension_refuses_queries_keeps_the_workspace_and_is_lifted(
    client: TestClient, operator: SignedUpUser
) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    viewer = add_member(client, owner, ws["id"], "viewer")
    key = create_key(client, owner, ws["id"], "query")["key"]
    dql = {"queries": [{"query": "M::cpu:(avg(usage_idle)) [1h]"}]}
    calls = [
        ("POST", f"/api/v1/workspaces/{ws['id']}/query/raw", owner.headers, dql),
        ("POST", f"/api/v1/workspaces/{ws['id']}/query/raw", viewer.headers, dql),
        (
            "POST",
            f"/api/v1/workspaces/{ws['id']}/query/raw",
            {"Authorization": f"Token {key}"},
            dql,
        ),
        ("POST", "/v1/query/raw", {"Authorization": f"Token {key}"}, dql),
        ("GET", "/prometheus/api/v1/query?query=up", {"Authorization": f"Bearer {key}"}, None),
        (
            "GET",
            f"/api/v1/workspaces/{ws['id']}/prometheus/api/v1/labels",
            viewer.headers,
            None,
        ),
    ]
    for method, url, headers, body in calls:
        assert client.request(method, url, headers=headers, json=body).status_code == 200, url

    r = client.post(
        f"{OP}/workspaces/{ws['id']}/suspend",
        json={"reason": "Payment overdue"},
        headers=operator.headers,
    )
    assert r.status_code == 200, r.text
    assert r.json()["suspended_reason"] == "Payment overdue" and r.json()["suspended_at"]
    message = (
        "This workspace is suspended (Payment overdue): its data is kept, but queries and "
        "writes are refused until a platform operator resumes it"
    )
    for method, url, headers, body in calls:
        r = client.request(method, url, headers=headers, json=body)
        assert r.status_code == 403, url
        if "/prometheus/" in url:  # Prometheus' own error envelope, for Grafana
            assert r.json() == {"status": "error", "errorType": "forbidden", "error": message}, url
        else:
            assert r.json() == {"detail": message, "code": "workspace_suspended"}, url
    # the workspace itself, its dashboards and settings stay readable, and say why
    r = client.get(f"/api/v1/workspaces/{ws['id']}", headers=viewer.headers)
    assert r.status_code == 200 and r.json()["suspended_reason"] == "Payment overdue"
    r = client.get(f"/api/v1/workspaces/{ws['id']}/dashboards", headers=viewer.headers)
    assert r.status_code == 200 and r.json()["count"] == 1
    r = client.post(
        f"{OP}/workspaces/{ws['id']}/suspend", json={"reason": "again"}, headers=operator.headers
    )
    assert r.status_code == 409 and r.json()["code"] == "already_suspended"

    r = client.post(f"{OP}/workspaces/{ws['id']}/resume", headers=operator.headers)
    assert r.status_code == 200 and r.json()["suspended_at"] is None
    for method, url, headers, body in calls:
        assert client.request(method, url, headers=headers, json=body).status_code == 200, url
    r = client.post(f"{OP}/workspaces/{ws['id']}/resume", headers=operator.headers)
    assert r.status_code == 409 and r.json()["code"] == "not_suspended"

    actions = [
        e["action"]
        for e in client.get(f"/api/v1/workspaces/{ws['id']}/audit", headers=owner.headers).json()[
            "data"
        ][:2]
    ]
    assert actions == ["workspace.resume", "workspace.suspend"]
    ops = client.get(f"{OP}/audit", params={"workspace_id": ws["id"]}, headers=operator.headers)
    assert [e["action"] for e in ops.json()["data"]] == ["workspace.resume", "workspace.suspend"]
    assert ops.json()["data"][1]["details"]["reason"] == "Payment overdue"
    assert ops.json()["data"][1]["actor_email"] == operator.email


@pytest.mark.parametrize("reason", ["", "   ", "a\nb", "x" * 501])
def test_a_suspension_needs_a_reason(
    client: TestClient, operator: SignedUpUser, reason: str
) -> None:
    ws = create_workspace(client, signup(client))
    r = client.post(
        f"{OP}/workspaces/{ws['id']}/suspend", json={"reason": reason}, headers=operator.headers
    )
    assert r.status_code == 422
    assert r.json()["errors"][0]["loc"] == ["body", "reason"]


def test_members_limit_counts_pending_invitations(
    client: TestClient, operator: SignedUpUser
) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    url = f"/api/v1/workspaces/{ws['id']}"
    assert (
        client.patch(f"{url}/limits", json={"max_members": 2}, headers=owner.headers).status_code
        == 200
    )
    r = client.post(
        f"{url}/invitations",
        json={"email": "a@example.com", "role": "viewer"},
        headers=owner.headers,
    )
    assert r.status_code == 201
    r = client.post(
        f"{url}/invitations",
        json={"email": "b@example.com", "role": "viewer"},
        headers=owner.headers,
    )
    assert r.status_code == 429
    assert r.json() == {
        "detail": "This workspace has reached its limit of 2 members (max_members): remove "
        "one first, or ask an owner or admin to raise the limit within the plan",
        "code": "limit_exceeded",
        "limit": "max_members",
    }
    # the limit is lowered while the invitation is pending: accepting it is refused too
    assert (
        client.patch(f"{url}/limits", json={"max_members": 1}, headers=owner.headers).status_code
        == 200
    )
    member = signup(client)
    r = client.post(
        f"{url}/invitations",
        json={"email": member.email, "role": "viewer"},
        headers=owner.headers,
    )
    assert r.status_code == 429 and r.json()["limit"] == "max_members"
    client.patch(f"{url}/limits", json={"max_members": 3}, headers=owner.headers)
    r = client.post(
        f"{url}/invitations",
        json={"email": member.email, "role": "viewer"},
        headers=owner.headers,
    )
    assert r.status_code == 201
    code = r.json()["code"]
    client.patch(f"{url}/limits", json={"max_members": 1}, headers=owner.headers)
    r = client.post("/api/v1/invitations/accept", json={"code": code}, headers=member.headers)
    assert r.status_code == 429 and r.json()["limit"] == "max_members"
    client.patch(f"{url}/limits", json={"max_members": 2}, headers=owner.headers)
    r = client.post("/api/v1/invitations/accept", json={"code": code}, headers=member.headers)
    assert r.status_code == 200


def test_dashboards_limit(client: TestClient) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)  # comes with one shipped dashboard
    url = f"/api/v1/workspaces/{ws['id']}"
    client.patch(f"{url}/limits", json={"max_dashboards": 2}, headers=owner.headers)
    spec = {"schema_version": 1, "panels": []}
    r = client.post(
        f"{url}/dashboards", json={"title": "second", "spec": spec}, headers=owner.headers
    )
    assert r.status_code == 201, r.text
    refused = {
        "detail": "This workspace has reached its limit of 2 dashboards (max_dashboards): "
        "remove one first, or ask an owner or admin to raise the limit within the plan",
        "code": "limit_exceeded",
        "limit": "max_dashboards",
    }
    r = client.post(
        f"{url}/dashboards", json={"title": "third", "spec": spec}, headers=owner.headers
    )
    assert (r.status_code, r.json()) == (429, refused)
    first = client.get(f"{url}/dashboards", headers=owner.headers).json()["data"][0]["id"]
    exported = client.get(f"{url}/dashboards/{first}/export", headers=owner.headers)
    assert exported.status_code == 200
    r = client.post(f"{url}/dashboards/import", json=exported.json(), headers=owner.headers)
    assert (r.status_code, r.json()) == (429, refused)
    assert client.get(f"{url}/dashboards", headers=owner.headers).json()["count"] == 2


def test_workspaces_usage_and_top(
    client: TestClient, storage: StorageMock, operator: SignedUpUser
) -> None:
    """Every workspace with its plan, owners and usage; sorted by a usage figure; the top five
    by each figure in the overview. Storage's figures come per workspace."""
    platform_usage.storage_figures.forget()
    owner = signup(client)
    spaces = [
        create_workspace(client, owner, name=f"usage-{i}-{uuid.uuid4().hex[:6]}") for i in range(3)
    ]
    series = {spaces[0]["id"]: 5, spaces[1]["id"]: 500, spaces[2]["id"]: 50}

    def answer(request: httpx.Request) -> httpx.Response:
        ws = request.headers["x-vigil-workspace"]
        n = series.get(ws, 1)
        if request.url.path == "/internal/v1/usage":
            return httpx.Response(200, json={"active_series": n, "series_total": n})
        if request.url.path == "/internal/v1/usage/storage":
            return httpx.Response(200, json={"samples": n * 100, "series": n, "bytes": n * 1000})
        return httpx.Response(404, json={})

    storage.handler = answer
    r = client.get(
        f"{OP}/workspaces",
        params={"search": "usage-", "sort": "-storage_bytes"},
        headers=operator.headers,
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert [w["id"] for w in body["data"]][:3] == [
        spaces[1]["id"],
        spaces[2]["id"],
        spaces[0]["id"],
    ]
    top = body["data"][0]
    assert top["owners"] == [owner.email]
    assert top["plan"]["name"] == "Default"
    assert top["members"] == 1 and top["dashboards"] == 1
    assert top["usage"] == {
        "active_series": 500,
        "series_total": 500,
        "points_today": 0,
        "queries_today": 0,
        "storage_bytes": 500_000,
        "stored_samples": 50_000,
        "storage_error": None,
    }
    r = client.get(
        f"{OP}/workspaces", params={"search": owner.email.upper()}, headers=operator.headers
    )
    assert r.json()["count"] == 3
    r = client.get(f"{OP}/workspaces/{spaces[2]['id']}", headers=operator.headers)
    assert r.status_code == 200 and r.json()["limits"]["max_members"] == 50

    overview = client.get(f"{OP}/overview", headers=operator.headers).json()
    assert overview["top"]["storage_bytes"][0] == {
        "workspace_id": spaces[1]["id"],
        "name": spaces[1]["name"],
        "value": 500_000,
    }
    assert overview["totals"]["active_series"] >= 555
    assert overview["workspaces"] >= 3 and overview["operators"] >= 1

    # storage down: the figures it gives are null, with the reason; the rest stays
    platform_usage.storage_figures.forget()
    storage.handler = lambda request: httpx.Response(503, json={})
    r = client.get(f"{OP}/workspaces/{spaces[0]['id']}", headers=operator.headers)
    usage = r.json()["usage"]
    assert usage["active_series"] is None and usage["storage_bytes"] is None
    assert usage["storage_error"] == (
        "vigil-storage answered 503 to the usage request; "
        "vigil-storage answered 503 to the stored size request"
    )
    platform_usage.storage_figures.forget()


def test_operator_audit_log_filters(client: TestClient, operator: SignedUpUser) -> None:
    plan = _create_plan(client, operator)
    r = client.get(f"{OP}/audit", params={"action": "plan.create"}, headers=operator.headers)
    assert r.status_code == 200
    mine = [e for e in r.json()["data"] if e["target_id"] == plan["id"]]
    assert len(mine) == 1
    assert mine[0]["actor_email"] == operator.email
    assert mine[0]["details"]["name"] == plan["name"]
    assert mine[0]["details"]["max_dashboards"] == 4
    r = client.get(
        f"{OP}/audit", params={"actor": operator.email.upper()}, headers=operator.headers
    )
    assert {e["action"] for e in r.json()["data"]} == {"plan.create"}
    assert json.dumps(r.json())  # serialisable
