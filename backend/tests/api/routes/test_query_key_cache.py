"""The query API's memory of what a key resolves to (``app.services.key_scopes``): one read of
the database a second per key, and no change made through the backend ever waits for it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from app.core.db import get_engine
from app.services.key_scopes import KeyScopeCache
from tests.factories import create_key, create_workspace, signup, signup_operator
from tests.storage_mock import StorageMock

DQL = {
    "queries": [{"query": "M::cpu:(avg(usage_idle)) [1h] BY host", "time_range": [1, 2]}],
    "echo_explain": False,
}


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture()
def clock(client: TestClient) -> Clock:
    """The app's key cache (1 s, as deployed) on a clock the test moves."""
    fake = Clock()
    client.app.state.key_scopes = KeyScopeCache[object](1.0, clock=fake)  # type: ignore[attr-defined]
    return fake


class Statements:
    def __init__(self) -> None:
        self.seen: list[str] = []

    def __call__(self, _conn: object, _cursor: object, statement: str, *_: object) -> None:
        self.seen.append(statement)

    @property
    def reads(self) -> list[str]:
        return [s for s in self.seen if s.lstrip().upper().startswith("SELECT")]


@pytest.fixture()
def statements() -> Iterator[Statements]:
    recorder = Statements()
    engine = get_engine()
    event.listen(engine, "before_cursor_execute", recorder)
    try:
        yield recorder
    finally:
        event.remove(engine, "before_cursor_execute", recorder)


def _query(client: TestClient, key: str) -> int:
    return client.post(
        "/v1/query/raw", json=DQL, headers={"Authorization": f"Token {key}"}
    ).status_code


def test_a_key_is_read_from_the_database_once_a_second(
    client: TestClient, storage: StorageMock, clock: Clock, statements: Statements
) -> None:
    """The key, its workspace and its limits come in one statement; for a second after it the
    query API asks PostgreSQL nothing, and still sends the workspace's limits to storage."""
    user = signup(client)
    ws = create_workspace(client, user)
    key = create_key(client, user, ws["id"], "query")["key"]
    statements.seen.clear()

    assert _query(client, key) == 200
    assert len(statements.reads) == 1, "\n---\n".join(statements.reads)
    assert "workspace_limits" in statements.reads[0]

    statements.seen.clear()
    clock.now += 0.9
    assert _query(client, key) == 200
    assert statements.seen == []
    sent = storage.last().headers
    assert sent["x-vigil-workspace"] == ws["id"]
    assert sent["x-vigil-max-concurrent-queries"] == "4"

    clock.now += 0.2
    assert _query(client, key) == 200
    assert len(statements.reads) == 1


def test_a_refused_key_is_never_remembered(
    client: TestClient, clock: Clock, statements: Statements
) -> None:
    statements.seen.clear()
    for _ in range(2):
        assert _query(client, "vgq_" + "x" * 43) == 401
    assert len(statements.reads) == 2


def test_a_revoked_key_is_refused_at_once(client: TestClient, clock: Clock) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    created = create_key(client, user, ws["id"], "query")
    assert _query(client, created["key"]) == 200
    r = client.delete(f"/api/v1/workspaces/{ws['id']}/keys/{created['id']}", headers=user.headers)
    assert r.status_code == 200
    assert _query(client, created["key"]) == 401


def test_new_limits_apply_to_the_next_query(
    client: TestClient, storage: StorageMock, clock: Clock
) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    key = create_key(client, user, ws["id"], "query")["key"]
    assert _query(client, key) == 200
    assert storage.last().headers["x-vigil-max-concurrent-queries"] == "4"
    r = client.patch(
        f"/api/v1/workspaces/{ws['id']}/limits",
        json={"concurrent_queries": 2, "max_points_per_query": 777},
        headers=user.headers,
    )
    assert r.status_code == 200, r.text
    assert _query(client, key) == 200
    assert storage.last().headers["x-vigil-max-concurrent-queries"] == "2"
    assert storage.last().headers["x-vigil-max-points"] == "777"


def test_a_suspended_workspace_is_refused_at_once(client: TestClient, clock: Clock) -> None:
    operator = signup_operator(client)
    owner = signup(client)
    ws = create_workspace(client, owner)
    key = create_key(client, owner, ws["id"], "query")["key"]
    assert _query(client, key) == 200
    r = client.post(
        f"/api/v1/operator/workspaces/{ws['id']}/suspend",
        json={"reason": "Payment overdue"},
        headers=operator.headers,
    )
    assert r.status_code == 200, r.text
    r = client.post("/v1/query/raw", json=DQL, headers={"Authorization": f"Token {key}"})
    assert r.status_code == 403 and r.json()["code"] == "workspace_suspended"


def test_queries_answered_from_memory_are_counted(client: TestClient, clock: Clock) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    key = create_key(client, user, ws["id"], "query")["key"]
    for _ in range(5):
        assert _query(client, key) == 200
    usage = client.get(f"/api/v1/workspaces/{ws['id']}/usage", headers=user.headers).json()
    assert usage["queries_today"] == 5


def test_a_service_token_sent_another_way_is_not_its_bearer_entry(
    client: TestClient, clock: Clock
) -> None:
    """A service token is taken only as a bearer token: having served it as one does not let
    the same text through as ``?token=``."""
    user = signup(client)
    ws = create_workspace(client, user)
    token = create_key(client, user, ws["id"], "editor")["key"]
    r = client.post("/v1/query/raw", json=DQL, headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    r = client.post(f"/v1/query/raw?token={token}", json=DQL)
    assert r.status_code == 401
