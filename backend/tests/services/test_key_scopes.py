"""The key cache's own rules: its window, its generations, and which writes move them."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from fastapi.testclient import TestClient
from sqlalchemy import update
from sqlalchemy.orm import Session

from app.models import ApiKey, AuditEvent, WorkspaceLimits
from app.services import key_scopes
from app.services.key_scopes import KeyScopeCache
from tests.factories import create_key, create_workspace, signup


class Clock:
    def __init__(self) -> None:
        self.now = 50.0

    def __call__(self) -> float:
        return self.now


def test_an_entry_lives_for_the_window_only() -> None:
    clock = Clock()
    cache = KeyScopeCache[str](1.0, clock=clock)
    cache.put("k", "scope", key_scopes.generation())
    clock.now += 0.99
    assert cache.get("k") == "scope"
    clock.now += 0.01
    assert cache.get("k") is None


def test_zero_seconds_keeps_nothing() -> None:
    cache = KeyScopeCache[str](0.0)
    cache.put("k", "scope", key_scopes.generation())
    assert cache.get("k") is None


def test_a_change_forgets_entries_and_refuses_what_was_read_before_it() -> None:
    cache = KeyScopeCache[str](60.0)
    before = key_scopes.generation()
    cache.put("k", "old", before)
    key_scopes.forget_all()
    assert cache.get("k") is None
    cache.put("k", "read before the change", before)
    assert cache.get("k") is None
    cache.put("k", "new", key_scopes.generation())
    assert cache.get("k") == "new"


def test_the_cache_is_bounded() -> None:
    clock = Clock()
    cache = KeyScopeCache[int](1.0, clock=clock)
    now = key_scopes.generation()
    for i in range(key_scopes.MAX_ENTRIES):
        cache.put(f"k{i}", i, now)
    clock.now += 2
    cache.put("fresh", 1, now)  # the expired ones make room
    assert cache.get("fresh") == 1 and len(cache._entries) == 1


def test_the_credential_key_is_a_digest_per_way_of_sending() -> None:
    bearer = key_scopes.credential_key("bearer", "vgq_secret")
    assert "vgq_secret" not in bearer
    assert bearer != key_scopes.credential_key("query", "vgq_secret")


def _commit_moves_generation(db: Session) -> bool:
    before = key_scopes.generation()
    db.commit()
    return key_scopes.generation() != before


def test_which_commits_forget(client: TestClient, db: Session) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    created = create_key(client, user, ws["id"], "query")
    limits = db.get(WorkspaceLimits, uuid.UUID(ws["id"]))
    key = db.get(ApiKey, uuid.UUID(created["id"]))
    assert limits is not None and key is not None
    db.commit()

    limits.retention_days = limits.retention_days + 1  # an ORM change of a watched row
    db.flush()
    assert _commit_moves_generation(db)

    db.execute(update(ApiKey).where(ApiKey.id == key.id).values(revoked_at=key.revoked_at))
    assert _commit_moves_generation(db)

    neutral = update(ApiKey).where(ApiKey.id == key.id).values(last_used_at=datetime.now(UTC))
    db.execute(neutral, execution_options={key_scopes.SCOPE_NEUTRAL: True})
    assert not _commit_moves_generation(db)

    db.execute(update(AuditEvent).where(AuditEvent.id.is_(None)).values(action="x"))
    assert not _commit_moves_generation(db)
