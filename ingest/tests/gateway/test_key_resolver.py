"""A spray of made-up ingest keys must not slow authentication down for the agents whose keys
are valid: two lookup lanes, refresh ahead of expiry, bounded caches that never empty at once.

The unit tests run the resolver against a database stand-in whose lookups take a fixed time
(it counts them and how many run at once); the integration test sprays a real PostgreSQL.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import Any

import pytest

from vigil_ingest.common.errors import Retryable, Unauthorized
from vigil_ingest.gateway.auth import KeyResolver, hash_key

VALID = "vgi_" + "V" * 43
# what KEY_QUERY answers: key, workspace, scope, its limits, suspended and why
ROW = ("key-1", "ws-1", "ingest", 1000, 2000, 1 << 20, 30, 500_000, False, None)


class FakeDatabase:
    """Answers the key query for VALID only, each lookup taking ``delay`` seconds."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.rows: dict[str, tuple[Any, ...]] = {hash_key(VALID): ROW}
        self.lookups: list[str] = []
        self.running = 0
        self.most_at_once = 0
        self.statements: list[str] = []

    async def connect(self) -> FakeConnection:
        return FakeConnection(self)


class FakeConnection:
    def __init__(self, db: FakeDatabase) -> None:
        self.db = db
        self.closed = False
        self.busy = False

    def cursor(self) -> FakeCursor:
        return FakeCursor(self)

    async def execute(self, sql: str, params: Any) -> None:
        self.db.statements.append(sql)

    async def close(self) -> None:
        self.closed = True


class FakeCursor:
    def __init__(self, conn: FakeConnection) -> None:
        self.conn = conn
        self.row: tuple[Any, ...] | None = None

    async def __aenter__(self) -> FakeCursor:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None

    async def execute(self, sql: str, params: dict[str, str]) -> None:
        db = self.conn.db
        assert not self.conn.busy, "two statements at once on one connection"
        self.conn.busy = True
        db.running += 1
        db.most_at_once = max(db.most_at_once, db.running)
        db.lookups.append(params["hash"])
        try:
            await asyncio.sleep(db.delay)
        finally:
            db.running -= 1
            self.conn.busy = False
        self.row = db.rows.get(params["hash"])

    async def fetchone(self) -> tuple[Any, ...] | None:
        return self.row


def random_key() -> str:
    return "vgi_" + secrets.token_urlsafe(32)


def resolver(db: FakeDatabase, **kw: Any) -> KeyResolver:
    return KeyResolver("postgresql://unused", connect=db.connect, **kw)


async def _spray(r: KeyResolver, n: int) -> list[BaseException | None]:
    async def one() -> BaseException | None:
        try:
            await r.resolve(random_key())
        except (Unauthorized, Retryable) as e:
            return e
        return None

    return list(await asyncio.gather(*(one() for _ in range(n))))


def test_a_spray_of_unknown_keys_does_not_hold_up_a_known_key() -> None:
    """Before: one connection behind one lock, so a valid key whose entry expired waited for
    every made-up key queued before it (400 × 20 ms = 8 s here)."""

    async def scenario() -> tuple[float, list[BaseException | None]]:
        db = FakeDatabase(delay=0.02)
        r = resolver(db, ttl_s=0.05, unknown_queue=1000)
        await r.resolve(VALID)
        await asyncio.sleep(0.06)  # its entry has expired: the next use asks the database
        spray = asyncio.ensure_future(_spray(r, 400))
        await asyncio.sleep(0.05)
        started = time.monotonic()
        principal = await r.resolve(VALID)
        took = time.monotonic() - started
        assert principal.workspace_id == "ws-1"
        results = await spray
        await r.close()
        return took, results

    took, results = asyncio.run(scenario())
    assert took < 0.2, f"a valid key waited {took:.2f} s behind the spray"
    assert all(isinstance(e, Unauthorized) for e in results)


def test_keys_in_use_are_looked_up_again_before_they_expire() -> None:
    """Their requests never wait for the database, however slow it is; one lookup at a time."""

    async def scenario() -> tuple[list[float], FakeDatabase]:
        db = FakeDatabase(delay=0.1)
        r = resolver(db, ttl_s=0.3)
        await r.resolve(VALID)
        waits = []
        deadline = time.monotonic() + 1.5
        while time.monotonic() < deadline:
            started = time.monotonic()
            await r.resolve(VALID)
            waits.append(time.monotonic() - started)
            await asyncio.sleep(0.01)
        await r.close()
        return waits, db

    waits, db = asyncio.run(scenario())
    # a request that waited for a lookup took at least the database's 0.1 s; anything below
    # that is the event loop's own jitter on a busy machine
    assert max(waits) < 0.09, max(waits)
    assert 4 <= len(db.lookups) <= 20
    assert db.most_at_once == 1


def test_a_revoked_key_still_stops_within_the_ttl() -> None:
    async def scenario() -> None:
        db = FakeDatabase(delay=0.0)
        r = resolver(db, ttl_s=0.2)
        await r.resolve(VALID)
        del db.rows[hash_key(VALID)]
        await asyncio.sleep(0.25)
        with pytest.raises(Unauthorized):
            await r.resolve(VALID)
        await r.close()

    asyncio.run(scenario())


def test_the_caches_drop_their_oldest_entries_instead_of_emptying() -> None:
    """Before: past 100,000 entries the whole cache was cleared, valid keys included, so a
    spray made every agent's next request ask the database."""

    async def scenario() -> FakeDatabase:
        db = FakeDatabase(delay=0.0)
        r = resolver(db, ttl_s=60, cache_size=500)
        await r.resolve(VALID)
        await _spray(r, 2000)
        before = len(db.lookups)
        await r.resolve(VALID)
        assert len(db.lookups) == before, "the valid key was asked for again"
        await r.close()
        return db

    asyncio.run(scenario())


def test_past_the_unknown_lane_queue_new_keys_get_503_and_known_ones_do_not() -> None:
    async def scenario() -> list[BaseException | None]:
        db = FakeDatabase(delay=0.05)
        r = resolver(db, ttl_s=0.05, unknown_connections=1, unknown_queue=10)
        await r.resolve(VALID)
        await asyncio.sleep(0.06)
        spray = asyncio.ensure_future(_spray(r, 50))
        await asyncio.sleep(0.01)
        assert (await r.resolve(VALID)).key_id == "key-1"
        results = await spray
        await r.close()
        return results

    results = asyncio.run(scenario())
    busy = [e for e in results if isinstance(e, Retryable)]
    assert len(busy) >= 35
    assert busy[0].status == 503 and "unknown keys" in busy[0].message


@pytest.mark.integration
def test_a_spray_against_postgres_leaves_valid_keys_fast(keys) -> None:
    """The same against the real database: 3,000 made-up keys at once, while an agent's key
    (its entry expired) is checked; the agent waits no longer than a lookup or two."""
    key = keys.create()

    async def scenario() -> tuple[float, float]:
        r = KeyResolver(keys.url, ttl_s=0.05)
        await r.resolve(key.key)
        await asyncio.sleep(0.06)
        started = time.monotonic()
        await r.resolve(key.key)  # alone: one lookup on a warm connection
        alone = time.monotonic() - started
        await asyncio.sleep(0.06)
        spray = asyncio.ensure_future(_spray(r, 3000))
        await asyncio.sleep(0.05)
        started = time.monotonic()
        await r.resolve(key.key)
        during = time.monotonic() - started
        await spray
        await r.close()
        return alone, during

    alone, during = asyncio.run(scenario())
    assert during < max(0.25, 20 * alone), (alone, during)
