"""Batches parked per workspace, written to PostgreSQL so the workspace sees them.

A batch storage keeps refusing for one workspace (while it takes other workspaces' writes)
is parked: its records go to the dead-letter topic with the reason, and the consumer adds
the count, the points and the last reason to ``workspace_ingest_parked`` (owned by the
backend's migrations), which the workspace's usage API and Usage page show. Counts the
database cannot take now are kept for the next attempt; the dead-letter topic has the data
whatever happens here.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass

import psycopg

log = logging.getLogger(__name__)

# A workspace that no longer exists is skipped, so that it cannot fail the others' counts.
UPSERT = """
INSERT INTO workspace_ingest_parked AS p (workspace_id, batches, points, last_reason, last_at)
SELECT u.ws, u.batches, u.points, u.reason, now()
FROM unnest(%(workspaces)s::uuid[], %(batches)s::bigint[], %(points)s::bigint[],
            %(reasons)s::text[]) AS u(ws, batches, points, reason)
WHERE EXISTS (SELECT 1 FROM workspaces w WHERE w.id = u.ws)
ON CONFLICT (workspace_id) DO UPDATE
SET batches = p.batches + EXCLUDED.batches, points = p.points + EXCLUDED.points,
    last_reason = EXCLUDED.last_reason, last_at = EXCLUDED.last_at
"""
MAX_REASON_CHARS = 2000
# workspaces whose counts are kept while the database cannot take them
MAX_PENDING = 100_000


@dataclass
class _Count:
    batches: int = 0
    points: int = 0
    reason: str = ""


Connect = Callable[[], "psycopg.Connection[tuple[object, ...]]"]


class ParkedRecorder:
    """Adds parked batches per workspace to PostgreSQL (``flush`` after ``add``)."""

    def __init__(self, database_url: str | None, *, connect: Connect | None = None) -> None:
        self._url = database_url
        self._connect = connect
        self._lock = threading.Lock()
        self._pending: dict[str, _Count] = {}
        self._conn: psycopg.Connection[tuple[object, ...]] | None = None

    def add(self, workspace: str, *, batches: int, points: int, reason: str) -> None:
        try:
            uuid.UUID(workspace)
        except ValueError:
            log.warning("not recording parked batches of %r: not a workspace id", workspace)
            return
        with self._lock:
            if workspace not in self._pending and len(self._pending) >= MAX_PENDING:
                return
            c = self._pending.setdefault(workspace, _Count())
            c.batches += batches
            c.points += points
            c.reason = reason[:MAX_REASON_CHARS]

    def flush(self) -> bool:
        """Write what accumulated; False (and kept) when the database cannot take it."""
        with self._lock:
            pending, self._pending = self._pending, {}
        if not pending:
            return True
        keys = list(pending)
        params = {
            "workspaces": keys,
            "batches": [pending[k].batches for k in keys],
            "points": [pending[k].points for k in keys],
            "reasons": [pending[k].reason for k in keys],
        }
        try:
            conn = self._connection()
            conn.execute(UPSERT, params)
        except psycopg.Error as e:
            self._drop_connection()
            with self._lock:
                for k, c in pending.items():
                    mine = self._pending.setdefault(k, _Count())
                    mine.batches += c.batches
                    mine.points += c.points
                    mine.reason = mine.reason or c.reason
            log.warning("could not record %d workspaces' parked batches: %s", len(pending), e)
            return False
        return True

    def _connection(self) -> psycopg.Connection[tuple[object, ...]]:
        if self._conn is None or self._conn.closed:
            if self._connect is not None:
                self._conn = self._connect()
            elif self._url:
                self._conn = psycopg.connect(self._url, autocommit=True, connect_timeout=3)
            else:
                raise psycopg.OperationalError("no database configured")
        return self._conn

    def _drop_connection(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(psycopg.Error):
                conn.close()

    def close(self) -> None:
        self.flush()
        self._drop_connection()
