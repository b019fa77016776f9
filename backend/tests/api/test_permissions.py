"""Every workspace endpoint × every role and service token × member/non-member, against the
permission table; and every operator endpoint × everyone who is not a platform operator.

The routes are discovered from the app: a route under ``/workspaces/{workspace_id}`` that does
not declare a permission through ``WorkspaceDep`` fails the test, so a new endpoint cannot
skip tenancy; a route under ``/operator`` that does not depend on ``get_operator`` fails too.
Service tokens (``editor`` and ``admin`` scopes) are callers like the roles: each may do what
``app.core.keys`` gives its scope, in its own workspace only.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from app.core.keys import KEY_KINDS, PEOPLE_ONLY
from app.core.permissions import MIN_ROLE, Permission, allows
from app.models import KeyScope, Role
from tests.factories import add_member, create_key, create_workspace, signup, signup_operator

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


@dataclass(frozen=True)
class Caller:
    """A member signed in with a role, or a service token of a scope."""

    name: str
    headers: dict[str, str]
    may: Callable[[Permission], bool]


def _member(role: Role, headers: dict[str, str]) -> Caller:
    return Caller(role.value, headers, lambda p: allows(role, p))


def _token(scope: KeyScope, key: str) -> Caller:
    return Caller(f"{scope} token", _bearer(key), KEY_KINDS[scope].allows)


def _nothing(_: Permission) -> bool:
    return False


def _bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def _request(client: TestClient, method: str, url: str, headers: dict[str, str]) -> Any:
    # An empty JSON object: allowed callers get past the permission check and then fail
    # validation (422) or lookup (404 "… not found"), never 403 or "Workspace not found".
    kwargs: dict[str, Any] = {"headers": headers}
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
        callers = [_member(Role.owner, owner.headers)]
        for role in (Role.admin, Role.editor, Role.viewer):
            callers.append(_member(role, add_member(client, owner, ws["id"], role.value).headers))
        for scope in (KeyScope.admin, KeyScope.editor):
            callers.append(_token(scope, create_key(client, owner, ws["id"], scope)["key"]))
        revoked = create_key(client, owner, ws["id"], KeyScope.admin)
        r = client.delete(
            f"/api/v1/workspaces/{ws['id']}/keys/{revoked['id']}", headers=owner.headers
        )
        assert r.status_code == 200, r.text
        outsider = signup(client)
        outside_ws = create_workspace(client, outsider)
        outsiders = [Caller("non-member", outsider.headers, _nothing)]
        for scope in (KeyScope.admin, KeyScope.editor):
            key = create_key(client, outsider, outside_ws["id"], scope)["key"]
            outsiders.append(Caller(f"{scope} token of another workspace", _bearer(key), _nothing))
        operator = signup_operator(client)
        outsiders.append(Caller("platform operator (no member)", operator.headers, _nothing))
        keys = {
            scope: create_key(client, owner, ws["id"], scope)["key"]
            for scope in ("ingest", "query")
        }
    return {
        "app": app,
        "ws": ws,
        "callers": callers,
        "outsiders": outsiders,
        "revoked": _bearer(revoked["key"]),
        "outsider": outsider,
        "operator": operator,
        "keys": keys,
    }


def test_every_permission_is_used_and_every_route_is_guarded(setup: dict[str, Any]) -> None:
    routes = workspace_routes(setup["app"])
    assert len(routes) >= 30
    assert {p for _, _, p in routes} == set(Permission)
    assert set(MIN_ROLE) == set(Permission)


def test_roles_and_tokens_against_the_table(setup: dict[str, Any]) -> None:
    app, ws, callers = setup["app"], setup["ws"], setup["callers"]
    failures = []
    with TestClient(app, client=("10.99.0.2", 50000)) as client:
        for method, path, permission in workspace_routes(app):
            url = _fill(path, ws["id"])
            for caller in callers:
                r = _request(client, method, url, caller.headers)
                body = _error(r)
                denied = r.status_code == 403 and body.get("code") == "forbidden"
                hidden = r.status_code == 404 and body.get("detail") == "Workspace not found"
                if caller.may(permission):
                    ok = not denied and not hidden and r.status_code < 500
                else:
                    ok = denied and permission.value in body.get("detail", "")
                if not ok:
                    failures.append((method, path, caller.name, r.status_code, body))
    assert failures == []


def test_non_members_and_other_workspaces_tokens_get_404_everywhere(
    setup: dict[str, Any],
) -> None:
    """A platform operator is no member either: the role gives no access to workspaces."""
    app, ws = setup["app"], setup["ws"]
    with TestClient(app, client=("10.99.0.3", 50000)) as client:
        for method, path, _ in workspace_routes(app):
            for caller in setup["outsiders"]:
                r = _request(client, method, _fill(path, ws["id"]), caller.headers)
                assert r.status_code == 404, (method, path, caller.name, r.text)
                assert _error(r) == {"detail": "Workspace not found", "code": "not_found"}
                r = _request(client, method, _fill(path, str(uuid.uuid4())), caller.headers)
                assert r.status_code == 404, (method, path, caller.name, r.text)


def test_a_revoked_token_gets_401_everywhere(setup: dict[str, Any]) -> None:
    app, ws = setup["app"], setup["ws"]
    with TestClient(app, client=("10.99.0.5", 50000)) as client:
        for method, path, _ in workspace_routes(app):
            r = _request(client, method, _fill(path, ws["id"]), setup["revoked"])
            assert r.status_code == 401, (method, path, r.text)
            # (the Prometheus envelope's errorType is the status's name, "unauthorized")
            assert _error(r)["detail"] == "API key is invalid or revoked", (method, path)


def test_operator_routes_are_unknown_paths_to_everyone_else(setup: dict[str, Any]) -> None:
    """Anonymous callers, every workspace role, a member of nothing, API keys and bad tokens
    get exactly what a path that does not exist answers, so operator routes cannot be found."""
    app, ws = setup["app"], setup["ws"]
    routes = operator_routes(app)
    assert len(routes) >= 12
    callers: dict[str, dict[str, str]] = {
        "anonymous": {},
        "outsider": setup["outsider"].headers,
        "bad token": {"Authorization": "Bearer not-a-token"},
        **{f"key {scope}": {"Authorization": f"Token {k}"} for scope, k in setup["keys"].items()},
        **{caller.name: caller.headers for caller in setup["callers"]},
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
            r = _request(client, method, _fill(path, ws["id"]), operator.headers)
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
        "workspace.leave": "viewer",
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


def test_what_tokens_may_not_do_whatever_their_role() -> None:
    """Keys and tokens are managed by people (a token never mints another, so revoking a
    leaked one shuts it out), and a token is not a member who could leave."""
    assert {p.value for p in PEOPLE_ONLY} == {"keys.manage", "workspace.leave"}
    assert {s.value: k.role for s, k in KEY_KINDS.items()} == {
        "ingest": None,
        "query": None,
        "editor": Role.editor,
        "admin": Role.admin,
    }
    admin = KEY_KINDS[KeyScope.admin]
    assert not admin.allows(Permission.WORKSPACE_DELETE)
    assert admin.allows(Permission.MEMBERS_MANAGE) and admin.allows(Permission.AUDIT_READ)
    assert not KEY_KINDS[KeyScope.editor].allows(Permission.MEMBERS_MANAGE)
    assert {p for p in Permission if KEY_KINDS[KeyScope.query].allows(p)} == {Permission.QUERY}
    assert not any(KEY_KINDS[KeyScope.ingest].allows(p) for p in Permission)
