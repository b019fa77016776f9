"""One PostgreSQL connection of the gateway, reconnected when it breaks.

Statements run one at a time (a lock); each is its own transaction (autocommit).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping
from typing import LiteralString

import psycopg


class Database:
    def __init__(self, url: str, *, connect_timeout_s: int = 3) -> None:
        self._url = url
        self._connect_timeout = connect_timeout_s
        self._conn: psycopg.AsyncConnection[tuple[object, ...]] | None = None
        self._lock = asyncio.Lock()

    async def fetchone(
        self, sql: LiteralString, params: Mapping[str, object]
    ) -> tuple[object, ...] | None:
        """Run one statement and return its first row (None when it returns none);
        psycopg.Error when the database cannot take it."""
        async with self._lock:
            try:
                if self._conn is None or self._conn.closed:
                    self._conn = await psycopg.AsyncConnection.connect(
                        self._url, autocommit=True, connect_timeout=self._connect_timeout
                    )
                async with self._conn.cursor() as cur:
                    await cur.execute(sql, params)
                    return await cur.fetchone() if cur.description is not None else None
            except psycopg.Error:
                await self._drop()
                raise

    async def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(psycopg.Error):
                await conn.close()

    async def close(self) -> None:
        async with self._lock:
            await self._drop()
