"""Ingest keys: where a request carries one, and which workspace it belongs to.

Keys are looked up by their SHA-256 (lowercase hex) with the read-only query of
docs/internals.md; answers, including "no such key", are cached for at most
``VIGIL_AUTH_CACHE_SECONDS`` (≤ 5 s), so a revoked key, or a workspace suspended by a
platform operator, stops working within that time.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import hashlib
import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import LiteralString

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


class KeyResolver:
    """Resolves keys against PostgreSQL with a short TTL cache and one query per key at a
    time (concurrent requests with the same new key wait for the same answer)."""

    def __init__(
        self,
        database_url: str,
        *,
        ttl_s: float = 5.0,
        connect_timeout_s: int = 3,
        retry_after_s: int = 5,
    ) -> None:
        self._retry_after = retry_after_s
        self._url = database_url
        self._ttl = ttl_s
        self._connect_timeout = connect_timeout_s
        self._cache: dict[str, tuple[float, Principal | None]] = {}
        self._inflight: dict[str, asyncio.Future[Principal | None]] = {}
        self._touched: dict[str, float] = {}
        self._conn: psycopg.AsyncConnection[tuple[object, ...]] | None = None
        self._lock = asyncio.Lock()
        self._bg: set[asyncio.Task[None]] = set()

    async def close(self) -> None:
        for t in list(self._bg):
            t.cancel()
        if self._conn is not None:
            await self._conn.close()
            self._conn = None

    async def resolve(self, key: str) -> Principal:
        """The principal of an ingest key; Unauthorized, Forbidden, or Retryable when the
        database cannot be asked."""
        h = hash_key(key)
        now = time.monotonic()
        hit = self._cache.get(h)
        if hit is not None and hit[0] > now:
            principal = hit[1]
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
        if len(self._cache) > 100_000:
            self._cache.clear()
        self._cache[h] = (time.monotonic() + self._ttl, principal)
        return principal

    async def _connection(self) -> psycopg.AsyncConnection[tuple[object, ...]]:
        if self._conn is None or self._conn.closed:
            self._conn = await psycopg.AsyncConnection.connect(
                self._url, autocommit=True, connect_timeout=self._connect_timeout
            )
        return self._conn

    async def _query(self, h: str) -> Principal | None:
        async with self._lock:
            try:
                conn = await self._connection()
                async with conn.cursor() as cur:
                    await cur.execute(KEY_QUERY, {"hash": h})
                    row = await cur.fetchone()
            except psycopg.Error as e:
                await self._drop_connection()
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
            points_per_second=float(pps),  # type: ignore[arg-type]
            burst=float(burst),  # type: ignore[arg-type]
            max_body_bytes=int(max_body),  # type: ignore[call-overload]
            retention_days=int(retention_days),  # type: ignore[call-overload]
            active_series=int(active_series),  # type: ignore[call-overload]
            suspended=bool(suspended),
            suspended_reason=str(reason or ""),
        )

    async def execute(self, sql: LiteralString, params: Mapping[str, object]) -> None:
        """Run one statement on the key lookups' connection (the usage counts' upsert);
        psycopg.Error when the database cannot take it."""
        async with self._lock:
            try:
                conn = await self._connection()
                await conn.execute(sql, params)
            except psycopg.Error:
                await self._drop_connection()
                raise

    async def _drop_connection(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(psycopg.Error):
                await conn.close()

    def _maybe_touch(self, key_id: str, now: float) -> None:
        last = self._touched.get(key_id)
        if last is not None and now - last < TOUCH_INTERVAL_S:
            return
        self._touched[key_id] = now
        task = asyncio.get_running_loop().create_task(self._touch(key_id))
        self._bg.add(task)
        task.add_done_callback(self._bg.discard)

    async def _touch(self, key_id: str) -> None:
        async with self._lock:
            try:
                conn = await self._connection()
                await conn.execute(TOUCH_QUERY, {"id": key_id})
            except psycopg.Error as e:
                # last_used_at is informational; a read-only role or a blip must not fail writes.
                await self._drop_connection()
                log.info("could not update last_used_at of key %s: %s", key_id, e)
