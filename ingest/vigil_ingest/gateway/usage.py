"""Points accepted per workspace and UTC minute, written to PostgreSQL for the usage pages.

The gateway counts what it accepts (after Kafka acknowledged it), in the unit of the ingest
limit: a line of line protocol, a sample of remote_write. Every few seconds the counts are
added to ``workspace_ingest_minutely`` (owned by the backend's migrations) with one upsert, so
any number of gateways add up; the backend reads the table for "points today" and the ingest
rate history, at the cost of an index lookup whatever the workspace's size. Counts that
cannot be written are kept for the next flush (bounded), and rows older than the longest
usage history are pruned once an hour.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Mapping
from datetime import UTC, datetime

import psycopg

log = logging.getLogger(__name__)

# A workspace that no longer exists is skipped, so that it cannot fail everyone's counts.
UPSERT = """
INSERT INTO workspace_ingest_minutely (workspace_id, minute, points)
SELECT u.ws, u.minute, u.points
FROM unnest(%(workspaces)s::uuid[], %(minutes)s::timestamptz[], %(points)s::bigint[])
     AS u(ws, minute, points)
WHERE EXISTS (SELECT 1 FROM workspaces w WHERE w.id = u.ws)
ON CONFLICT (workspace_id, minute)
DO UPDATE SET points = workspace_ingest_minutely.points + EXCLUDED.points
"""
PRUNE = "DELETE FROM workspace_ingest_minutely WHERE minute < now() - interval '31 days'"
PRUNE_INTERVAL_S = 3600.0
# counts kept while the database cannot take them: a day of minutes for 100 busy workspaces
MAX_PENDING = 144_000

Execute = Callable[[str, Mapping[str, object]], Awaitable[None]]


class UsageRecorder:
    """Counts accepted points per (workspace, minute); ``flush`` adds them to the table."""

    def __init__(self, execute: Execute, *, clock: Callable[[], float] = time.time) -> None:
        self._execute = execute
        self._clock = clock
        self._counts: defaultdict[tuple[str, int], int] = defaultdict(int)
        # monotonic time of the last prune; None: not yet (the first flush prunes, however
        # recently the machine started)
        self._pruned_at: float | None = None

    def add(self, workspace: str, points: int) -> None:
        if points > 0:
            self._counts[(workspace, int(self._clock()) // 60 * 60)] += points

    async def flush(self) -> None:
        counts, self._counts = self._counts, defaultdict(int)
        if counts:
            keys = list(counts)
            try:
                await self._execute(
                    UPSERT,
                    {
                        "workspaces": [ws for ws, _ in keys],
                        "minutes": [datetime.fromtimestamp(m, UTC) for _, m in keys],
                        "points": [counts[k] for k in keys],
                    },
                )
            except psycopg.Error as e:
                for k, n in counts.items():  # next time, unless far too many piled up
                    if len(self._counts) < MAX_PENDING:
                        self._counts[k] += n
                log.warning("could not record ingest usage (%d counts kept): %s", len(counts), e)
                return
        now = time.monotonic()
        if self._pruned_at is None or now - self._pruned_at >= PRUNE_INTERVAL_S:
            self._pruned_at = now
            try:
                await self._execute(PRUNE, {})
            except psycopg.Error as e:
                log.info("could not prune old ingest usage: %s", e)

    async def run(self, interval_s: float) -> None:
        """Flush every ``interval_s`` until cancelled, then once more."""
        try:
            while True:
                await asyncio.sleep(interval_s)
                await self.flush()
        finally:
            await asyncio.shield(self.flush())
