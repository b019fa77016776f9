"""Every workspace endpoint × every role × member/non-member, against the permission table;
and every operator endpoint × everyone who is not a platform operator.

The routes are discovered from the app: a route under ``/workspaces/{workspace_id}`` that does
not declare a permission through ``WorkspaceDep`` fails the test, so a new endpoint cannot
skip tenancy; a route under ``/operator`` that does not depend on ``get_operator`` fails too.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from app.core.permissions import MIN_ROLE, Permission, allows
from app.models import Role
from tests.factories import (
    SignedUpUser,
    add_member,
    create_key,
    create_workspace,
    signup,
    signup_operator,
)

WORKSPACE_PREFIX = "/api/v1/workspaces/{workspace_id}"
OPERATOR_PREFIX = "/api/v1/operator"


def unknown_path(path: str) -> dict[str, str]:
    """What every operator route answers anyone but an operator: an unknown path's 404."""
    return {"detail": f"No such endpoint: {path}", "code": "not_found"}


def _permission_of(route: APIRoute) -> Permission | None:
    stack = list(route.dependant.dependencies)
    while stack:
        dep = stack.pop()
        permission = getattr(dep.call, "permission", None)
        if permission is not None:
            return Permission(permission)
        stack.extend(dep.dependencies)
    return None


def api_routes(app: FastAPI) -> Iterator[tuple[str, APIRoute]]:
    """(full path, route) of every API route, through included routers."""
    try:
        from fastapi.routing import iter_route_contexts
    except ImportError:  # FastAPI before lazily included routers
        for route in app.routes:
            if isinstance(route, APIRoute):
                yield route.path, route
        return
    for context in iter_route_contexts(app.routes):
        if isinstance(context.route, APIRoute):
            yield context.path, context.route


def workspace_routes(app: FastAPI) -> list[tuple[str, str, Permission]]:
    found = []
    for path, route in api_routes(app):
        if path.startswith(WORKSPACE_PREFIX):
            permission = _permission_of(route)
            assert permission is not None, f"{path} is not guarded by WorkspaceDep"
            for method in sorted(route.methods):
                found.append((method, path, permission))
    # leaving ends the membership the other requests rely on: do it last
    return sorted(found, key=lambda r: r[1].endswith("/leave"))


def _is_operator_route(route: APIRoute) -> bool:
    stack = list(route.dependant.dependencies)
    while stack:
        dep = stack.pop()
        if getattr(dep.call, "operator", False):
            return True
        stack.extend(dep.dependencies)
    return False


def operator_routes(app: FastAPI) -> list[tuple[str, str]]:
    found = []
    for path, route in api_routes(app):
        if path.startswith(OPERATOR_PREFIX):
            assert _is_operator_route(route), f"{path} is not guarded by OperatorDep"
            found.extend((method, path) for method in sorted(route.methods))
        else:
            assert not _is_operator_route(route), f"{path} is an operator route outside /operator"
    return found


def _fill(path: str, workspace_id: str) -> str:
    filler = str(uuid.uuid4())
    return (
        path.replace("{workspace_id}", workspace_id)
        .replace("{version}", "1")
        .replace("{label_name}", "host")
        .replace("{user_id}", filler)
        .replace("{key_id}", filler)
        .replace("{invitation_id}", filler)
        .replace("{dashboard_id}", filler)
        .replace("{query_id}", filler)
        .replace("{benchmark_id}", filler)
        .replace("{plan_id}", filler)
        .replace("{monitor_id}", filler)
        .replace("{channel_id}", filler)
        .replace("{silence_id}", filler)
        .replace("{event_id}", filler)
        .replace("{rule_id}", filler)
    )


def _error(r: Any) -> dict[str, Any]:
    """An error body as ``{"detail", "code"}``: the Prometheus API answers in Prometheus'
    envelope (``error``, ``errorType``), checked to say the same thing."""
    if not r.headers.get("content-type", "").startswith("application/json"):
        return {}
    body: dict[str, Any] = r.json()
    if "/prometheus/" in r.url.path and body.get("status") == "error":
        assert set(body) == {"status", "errorType", "error"}, body
        return {"detail": body["error"], "code": body["errorType"]}
    return body


def _request(client: TestClient, method: str, url: str, user: SignedUpUser) -> Any:
    # An empty JSON object: allowed callers get past the permission check and then fail
    # validation (422) or lookup (404 "… not found"), never 403 or "Workspace not found".
    kwargs: dict[str, Any] = {"headers": user.headers}
    if method in ("POST", "PATCH", "PUT", "DELETE") and "/prometheus/" not in url:
        kwargs["json"] = {}
    return client.request(method, url, **kwargs)


@pytest.fixture(scope="module")
def setup() -> dict[str, Any]:
    from app.main import create_app
    from tests.storage_mock import StorageMock

    mock = StorageMock()
    app = create_app(storage=mock.client(), async_storage=mock.async_client())
    with TestClient(app, client=("10.99.0.1", 50000)) as client:
        owner = signup(client)
        ws = create_workspace(client, owner)
        users = {Role.owner: owner}
        for role in (Role.admin, Role.editor, Role.viewer):
            users[role] = add_member(client, owner, ws["id"], role.value)
        outsider = signup(client)
        create_workspace(client, outsider)
        operator = signup_operator(client)
        keys = {
            scope: create_key(client, owner, ws["id"], scope)["key"]
            for scope in ("ingest", "query")
        }
    return {
        "app": app,
        "ws": ws,
        "users": users,
        "outsider": outsider,
        "operator": operator,
        "keys": keys,
    }


def test_every_permission_is_used_and_every_route_is_guarded(setup: dict[str, Any]) -> None:
    routes = workspace_routes(setup["app"])
    assert len(routes) >= 30
    assert {p for _, _, p in routes} == set(Permission)
    assert set(MIN_ROLE) == set(Permission)


def test_roles_against_the_table(setup: dict[str, Any]) -> None:
    app, ws, users = setup["app"], setup["ws"], setup["users"]
    failures = []
    with TestClient(app, client=("10.99.0.2", 50000)) as client:
        for method, path, permission in workspace_routes(app):
            url = _fill(path, ws["id"])
            for role, user in users.items():
                r = _request(client, method, url, user)
                body = _error(r)
                denied = r.status_code == 403 and body.get("code") == "forbidden"
                hidden = r.status_code == 404 and body.get("detail") == "Workspace not found"
                if allows(role, permission):
                    ok = not denied and not hidden and r.status_code < 500
                else:
                    ok = denied and permission.value in body.get("detail", "")
                if not ok:
                    failures.append((method, path, role.value, r.status_code, body))
    assert failures == []


@pytest.mark.parametrize("who", ["outsider", "operator"])
def test_non_members_get_404_everywhere(setup: dict[str, Any], who: str) -> None:
    """A platform operator is no member either: the role gives no access to workspaces."""
    app, ws, outsider = setup["app"], setup["ws"], setup[who]
    with TestClient(app, client=("10.99.0.3", 50000)) as client:
        for method, path, _ in workspace_routes(app):
            r = _request(client, method, _fill(path, ws["id"]), outsider)
            assert r.status_code == 404, (method, path, r.text)
            assert _error(r) == {"detail": "Workspace not found", "code": "not_found"}
            r = _request(client, method, _fill(path, str(uuid.uuid4())), outsider)
            assert r.status_code == 404, (method, path, r.text)


def test_operator_routes_are_unknown_paths_to_everyone_else(setup: dict[str, Any]) -> None:
    """Anonymous callers, every workspace role, a member of nothing, API keys and bad tokens
    get exactly what a path that does not exist answers, so operator routes cannot be found."""
    app, ws, users = setup["app"], setup["ws"], setup["users"]
    routes = operator_routes(app)
    assert len(routes) >= 12
    callers: dict[str, dict[str, str]] = {
        "anonymous": {},
        "outsider": setup["outsider"].headers,
        "bad token": {"Authorization": "Bearer not-a-token"},
        **{f"key {scope}": {"Authorization": f"Token {k}"} for scope, k in setup["keys"].items()},
        **{role.value: user.headers for role, user in users.items()},
    }
    with TestClient(app, client=("10.99.0.5", 50000)) as client:
        unknown = f"{OPERATOR_PREFIX}/no-such-thing"
        assert client.get(unknown).json() == unknown_path(unknown)
        for method, path in routes:
            url = _fill(path, ws["id"])
            for who, headers in callers.items():
                kwargs: dict[str, Any] = {"headers": headers}
                if method in ("POST", "PATCH", "PUT", "DELETE"):
                    kwargs["json"] = {}
                r = client.request(method, url, **kwargs)
                assert (r.status_code, r.json()) == (404, unknown_path(url)), (method, path, who)


def test_operators_reach_every_operator_route(setup: dict[str, Any]) -> None:
    app, ws, operator = setup["app"], setup["ws"], setup["operator"]
    with TestClient(app, client=("10.99.0.6", 50000)) as client:
        for method, path in operator_routes(app):
            r = _request(client, method, _fill(path, ws["id"]), operator)
            assert r.status_code < 500, (method, path, r.text)
            assert r.json().get("detail") != f"No such endpoint: {r.url.path}", (method, path)


def test_anonymous_gets_401_everywhere(setup: dict[str, Any]) -> None:
    app, ws = setup["app"], setup["ws"]
    with TestClient(app, client=("10.99.0.4", 50000)) as client:
        for method, path, _ in workspace_routes(app):
            r = client.request(method, _fill(path, ws["id"]))
            assert r.status_code == 401, (method, path, r.text)
            assert _error(r)["code"] == "unauthorized"


def test_the_table_itself() -> None:
    """The policy, spelled out: changing who may do what must change this test too."""
    assert {p.value: r.value for p, r in MIN_ROLE.items()} == {
        "workspace.read": "viewer",
        "members.read": "viewer",
        "limits.read": "viewer",
        "dashboards.read": "viewer",
        "saved_queries.read": "viewer",
        "benchmarks.read": "viewer",
        "query": "viewer",
        "monitors.read": "viewer",
        "dashboards.write": "editor",
        "monitors.write": "editor",
        "silences.write": "editor",
        "channels.read": "editor",
        "saved_queries.write": "editor",
        "benchmarks.write": "editor",
        "workspace.update": "admin",
        "members.manage": "admin",
        "keys.manage": "admin",
        "limits.update": "admin",
        "usage.read": "admin",
        "audit.read": "admin",
        "channels.write": "admin",
        "workspace.delete": "owner",
    }
