"""Ingest keys: where a request carries one, and which workspace it belongs to.

Keys are looked up by their SHA-256 (lowercase hex) with the read-only query of
docs/internals.md; answers, including "no such key", are cached for at most
``VIGIL_AUTH_CACHE_SECONDS`` (≤ 5 s), so a revoked key, or a workspace suspended by a
platform operator, stops working within that time.

A spray of made-up keys must not slow anyone else down, so lookups run in two lanes with
connections of their own: keys seen valid before (whose entry expired) in one, keys never seen
valid in the other, which alone waits (and past a bounded queue answers 503) when the spray is
heavy. Valid keys in use are looked up again shortly before their entry expires, in the
background, so their requests never wait for the database at all. The caches are bounded and
evict their oldest entries: unknown keys have a cache of their own and can only push each
other out. Usage counts and ``last_used_at`` go through a third connection.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import hashlib
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, LiteralString

import psycopg

from vigil_ingest.common.errors import Forbidden, Retryable, Unauthorized, WorkspaceSuspended

log = logging.getLogger(__name__)

KEY_QUERY = """
SELECT k.id, k.workspace_id, k.scope, l.ingest_points_per_second, l.ingest_burst, l.max_body_bytes,
       l.retention_days, l.active_series, w.suspended_at IS NOT NULL, w.suspended_reason
FROM api_keys k
JOIN workspaces w ON w.id = k.workspace_id AND w.deleted_at IS NULL
JOIN workspace_limits l ON l.workspace_id = k.workspace_id
WHERE k.key_hash = %(hash)s AND k.revoked_at IS NULL
"""
TOUCH_QUERY = "UPDATE api_keys SET last_used_at = now() WHERE id = %(id)s"
TOUCH_INTERVAL_S = 60.0
# how long before its entry expires a key in use is looked up again in the background
REFRESH_AHEAD_S = 1.0
MAX_KEY_LEN = 512
INGEST_SCOPE = "ingest"

_HOW = (
    "send the workspace ingest key as 'Authorization: Token <key>', 'Authorization: Bearer "
    "<key>', the HTTP Basic password, or the token= query parameter"
)


@dataclass(frozen=True, slots=True)
class Principal:
    """What an ingest key resolves to: its workspace and the workspace's ingest limits."""

    key_id: str
    workspace_id: str
    scope: str
    points_per_second: float
    burst: float
    max_body_bytes: int
    retention_days: int
    active_series: int = 0  # limit of the workspace's active series (storage applies it); 0: none
    suspended: bool = False  # a platform operator suspended the workspace
    suspended_reason: str = ""


def hash_key(key: str) -> str:
    """Lowercase hex SHA-256 of the full key text, as stored in ``api_keys.key_hash``."""
    return hashlib.sha256(key.encode()).hexdigest()


def extract_key(headers: Mapping[str, str], query: Mapping[str, str]) -> str:
    """The key a request carries: ``Authorization: Token|Bearer <key>``, HTTP Basic password
    (Telegraf's influxdb output), ``?token=`` or InfluxDB 1.x's ``?p=``.

    Raises Unauthorized when there is none or the header is malformed.
    """
    auth = headers.get("authorization")
    if auth:
        scheme, _, rest = auth.strip().partition(" ")
        rest = rest.strip()
        scheme = scheme.lower()
        if scheme in ("token", "bearer"):
            key = rest
        elif scheme == "basic":
            try:
                decoded = base64.b64decode(rest, validate=True).decode()
            except (binascii.Error, UnicodeDecodeError):
                raise Unauthorized("malformed Basic authorization header") from None
            user, sep, password = decoded.partition(":")
            if not sep:
                raise Unauthorized("malformed Basic authorization header: no ':'")
            key = password or user
        else:
            raise Unauthorized(f"unsupported authorization scheme {scheme!r}: {_HOW}")
    else:
        key = query.get("token") or query.get("p") or ""
    key = key.strip()
    if not key:
        raise Unauthorized(f"missing ingest key: {_HOW}")
    if len(key) > MAX_KEY_LEN:
        raise Unauthorized("invalid ingest key")
    return key


Connect = Callable[[], Awaitable[Any]]


class _Lane:
    """Up to ``size`` database connections, each doing one statement at a time; at most
    ``queue`` callers wait for one (past that: Retryable, 503)."""

    def __init__(self, name: str, size: int, queue: int, connect: Connect, retry_after: int):
        self.name = name
        self._size = size
        self._queue = queue
        self._connect = connect
        self._retry_after = retry_after
        self._idle: list[Any] = []
        self._sem: asyncio.Semaphore | None = None
        self.waiting = 0
        self.busy = 0

    async def run(self, fn: Callable[[Any], Awaitable[Any]]) -> Any:
        if self._sem is None:
            self._sem = asyncio.Semaphore(self._size)
        if self.waiting >= self._queue:
            raise Retryable(
                "too many unknown keys are being checked right now; retry shortly",
                retry_after=self._retry_after,
            )
        self.waiting += 1
        try:
            await self._sem.acquire()
        finally:
            self.waiting -= 1
        self.busy += 1
        try:
            conn = self._idle.pop() if self._idle else None
            if conn is None or conn.closed:
                conn = await self._connect()
            try:
                result = await fn(conn)
            except BaseException:
                # a failed or interrupted statement leaves the connection in doubt
                with contextlib.suppress(Exception):
                    await conn.close()
                raise
            self._idle.append(conn)
            return result
        finally:
            self.busy -= 1
            self._sem.release()

    async def close(self) -> None:
        idle, self._idle = self._idle, []
        for conn in idle:
            with contextlib.suppress(psycopg.Error):
                await conn.close()


class _Bounded(OrderedDict[str, Any]):
    """A dict that forgets its least recently stored or read entries past ``size``."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def put(self, key: str, value: Any) -> None:
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)

    def read(self, key: str) -> Any:
        value = self.get(key)
        if value is not None:
            self.move_to_end(key)
        return value


class KeyResolver:
    """Resolves keys against PostgreSQL with short-lived bounded caches, two lookup lanes
    (keys known valid, keys never seen valid) and one query per key at a time (concurrent
    requests with the same new key wait for the same answer)."""

    def __init__(
        self,
        database_url: str,
        *,
        ttl_s: float = 5.0,
        connect_timeout_s: int = 3,
        retry_after_s: int = 5,
        known_connections: int = 2,
        unknown_connections: int = 2,
        unknown_queue: int = 256,
        cache_size: int = 100_000,
        connect: Connect | None = None,
    ) -> None:
        self._retry_after = retry_after_s
        self._ttl = ttl_s

        async def connect_pg() -> psycopg.AsyncConnection[tuple[object, ...]]:
            return await psycopg.AsyncConnection.connect(
                database_url, autocommit=True, connect_timeout=connect_timeout_s
            )

        opener = connect or connect_pg
        # known keys wait behind at most each other; nobody waits behind the unknown lane
        self._known = _Lane("known", known_connections, 1 << 30, opener, retry_after_s)
        self._unknown = _Lane("unknown", unknown_connections, unknown_queue, opener, retry_after_s)
        self._writes = _Lane("writes", 1, 1 << 30, opener, retry_after_s)
        # hash -> (expires, principal); entries stay after expiring: they mark a key known valid
        self._valid = _Bounded(cache_size)
        # hash -> expires, for keys that resolved to nothing
        self._invalid = _Bounded(cache_size)
        self._inflight: dict[str, asyncio.Future[Principal | None]] = {}
        self._touched = _Bounded(cache_size)
        self._bg: set[asyncio.Task[None]] = set()

    async def close(self) -> None:
        for t in list(self._bg):
            t.cancel()
        for lane in (self._known, self._unknown, self._writes):
            await lane.close()

    async def resolve(self, key: str) -> Principal:
        """The principal of an ingest key; Unauthorized, Forbidden, or Retryable when the
        database cannot be asked."""
        h = hash_key(key)
        now = time.monotonic()
        principal: Principal | None
        valid = self._valid.read(h)
        if valid is not None and valid[0] > now:
            principal = valid[1]
            if valid[0] - now < REFRESH_AHEAD_S and h not in self._inflight:
                self._background(self._lookup_once(h))
        elif valid is None and (self._invalid.read(h) or 0.0) > now:
            principal = None
        else:
            principal = await self._lookup_once(h)
        if principal is None:
            raise Unauthorized("unknown or revoked ingest key")
        if principal.scope != INGEST_SCOPE:
            raise Forbidden(
                f"this key has scope {principal.scope!r}; writing needs a key with scope 'ingest'"
            )
        if principal.suspended:
            why = f" ({principal.suspended_reason})" if principal.suspended_reason else ""
            raise WorkspaceSuspended(
                f"workspace {principal.workspace_id} is suspended{why}: its data is kept, but "
                "writes are refused until a platform operator resumes it"
            )
        self._maybe_touch(principal.key_id, now)
        return principal

    async def _lookup_once(self, h: str) -> Principal | None:
        fut = self._inflight.get(h)
        if fut is not None:
            return await asyncio.shield(fut)
        fut = asyncio.get_running_loop().create_future()
        self._inflight[h] = fut
        try:
            principal = await self._query(h)
        except BaseException as e:
            fut.set_exception(e)
            fut.exception()  # mark retrieved: waiters (if any) get it raised themselves
            raise
        finally:
            self._inflight.pop(h, None)
        fut.set_result(principal)
        expires = time.monotonic() + self._ttl
        if principal is not None:
            self._valid.put(h, (expires, principal))
            self._invalid.pop(h, None)
        else:
            self._valid.pop(h, None)
            self._invalid.put(h, expires)
        return principal

    async def _query(self, h: str) -> Principal | None:
        lane = self._known if h in self._valid else self._unknown

        async def fetch(conn: Any) -> Any:
            async with conn.cursor() as cur:
                await cur.execute(KEY_QUERY, {"hash": h})
                return await cur.fetchone()

        try:
            row = await lane.run(fetch)
        except psycopg.Error as e:
            log.warning("key lookup failed: %s", e)
            raise Retryable(
                "cannot verify the ingest key right now (database unavailable)",
                retry_after=self._retry_after,
            ) from e
        if row is None:
            return None
        key_id, workspace_id, scope, pps, burst, max_body, retention_days, active_series = row[:8]
        suspended, reason = row[8:]
        return Principal(
            key_id=str(key_id),
            workspace_id=str(workspace_id),
            scope=str(scope),
            points_per_second=float(pps),
            burst=float(burst),
            max_body_bytes=int(max_body),
            retention_days=int(retention_days),
            active_series=int(active_series),
            suspended=bool(suspended),
            suspended_reason=str(reason or ""),
        )

    async def execute(self, sql: LiteralString, params: Mapping[str, object]) -> None:
        """Run one statement on the writes' own connection (the usage counts' upsert);
        psycopg.Error when the database cannot take it."""

        async def run(conn: Any) -> None:
            await conn.execute(sql, params)

        await self._writes.run(run)

    def _background(self, work: Awaitable[object]) -> None:
        async def run() -> None:
            with contextlib.suppress(Exception):
                await work

        task = asyncio.get_running_loop().create_task(run())
        self._bg.add(task)
        task.add_done_callback(self._bg.discard)

    def _maybe_touch(self, key_id: str, now: float) -> None:
        last = self._touched.read(key_id)
        if last is not None and now - last < TOUCH_INTERVAL_S:
            return
        self._touched.put(key_id, now)
        self._background(self._touch(key_id))

    async def _touch(self, key_id: str) -> None:
        try:
            await self.execute(TOUCH_QUERY, {"id": key_id})
        except psycopg.Error as e:
            # last_used_at is informational; a read-only role or a blip must not fail writes.
            log.info("could not update last_used_at of key %s: %s", key_id, e)
