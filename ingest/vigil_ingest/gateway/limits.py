"""Per-workspace ingest rate limit: a token bucket of points.

The bucket holds up to ``burst`` points and refills at ``points_per_second``. A batch is
admitted when the bucket holds at least ``min(points, burst)``; it then pays its full size,
possibly leaving the bucket in debt, so a batch larger than the burst still passes once the
bucket is full, and the long-run rate never exceeds the limit.

``SharedRateLimiter`` keeps that bucket in PostgreSQL, so that the limit holds across every
gateway process; ``RateLimiter`` is the same bucket in one process's memory (its fallback).
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import LiteralString

import psycopg

from vigil_ingest.common.errors import RateLimited

log = logging.getLogger(__name__)

LIMIT_NAME = "ingest_points_per_second"


class _Bucket:
    __slots__ = ("tokens", "stamp")

    def __init__(self, tokens: float, stamp: float) -> None:
        self.tokens = tokens
        self.stamp = stamp


class RateLimiter:
    """Token buckets keyed by workspace; limits come with each call so changes apply at once."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._buckets: dict[str, _Bucket] = {}

    def take(self, workspace: str, points: int, *, rate: float, burst: float) -> None:
        """Admit ``points`` for ``workspace`` or raise RateLimited with a Retry-After."""
        if rate <= 0:
            raise RateLimited(
                f"workspace ingest limit {LIMIT_NAME} is 0: this workspace may not ingest",
                limit=LIMIT_NAME,
                retry_after=60,
            )
        burst = max(burst, 1.0)
        now = self._clock()
        b = self._buckets.get(workspace)
        if b is None:
            b = self._buckets[workspace] = _Bucket(burst, now)
        else:
            b.tokens = min(burst, b.tokens + (now - b.stamp) * rate)
            b.stamp = now
        need = min(float(points), burst)
        if b.tokens >= need:
            b.tokens -= points
            return
        wait = (need - b.tokens) / rate
        raise RateLimited(
            f"over the workspace limit {LIMIT_NAME}={rate:g} (burst {burst:g}): "
            f"this batch has {points} points; retry in {wait:.1f} s or send smaller batches",
            limit=LIMIT_NAME,
            retry_after=max(1, math.ceil(wait)),
        )


# One statement, atomic under the row lock: refill the workspace's bucket for the time since
# its last use (PostgreSQL's clock, the same for every gateway), then grant the points asked
# for when it holds at least ``need`` (the batch may leave it in debt, as the local bucket
# allows), plus up to ``prefetch`` more when they are there (never on credit).
LEASE = """
WITH cur AS (
    SELECT LEAST(%(burst)s::float8, tokens + GREATEST(0,
               EXTRACT(EPOCH FROM clock_timestamp() - stamp)) * %(rate)s::float8) AS avail
    FROM workspace_ingest_tokens WHERE workspace_id = %(ws)s FOR UPDATE
), g AS (
    SELECT avail,
           CASE WHEN avail >= %(need)s::float8
                THEN %(want)s::float8
                     + LEAST(%(prefetch)s::float8, GREATEST(0, avail - %(want)s::float8))
                ELSE 0 END AS granted
    FROM cur
)
UPDATE workspace_ingest_tokens t SET tokens = g.avail - g.granted, stamp = clock_timestamp()
FROM g WHERE t.workspace_id = %(ws)s
RETURNING g.avail, g.granted
"""
CREATE = """
INSERT INTO workspace_ingest_tokens (workspace_id, tokens, stamp)
VALUES (%(ws)s, %(burst)s, clock_timestamp()) ON CONFLICT (workspace_id) DO NOTHING
"""

# while the database cannot be asked, how often the shared limiter tries it again
DB_RETRY_SECONDS = 5.0

Fetch = Callable[[LiteralString, Mapping[str, object]], Awaitable["tuple[object, ...] | None"]]


class _Lease:
    __slots__ = ("tokens", "denied_until")

    def __init__(self) -> None:
        self.tokens = 0.0
        self.denied_until = 0.0


class SharedRateLimiter:
    """The points/s limit held across every gateway process: the workspace's token bucket
    lives in PostgreSQL (``workspace_ingest_tokens``) and each process leases points from it
    in blocks of ``lease_seconds`` × the rate, so a write costs a database round trip only
    when its process has used up its block. A refusal is remembered until the bucket would
    hold the batch again, so a workspace over its limit costs no round trip per request.
    While the database cannot be asked, each process falls back to its own bucket (``local``)
    and the limit holds per process.
    """

    def __init__(
        self,
        fetch: Fetch,
        *,
        lease_seconds: float = 0.1,
        clock: Callable[[], float] = time.monotonic,
        local: RateLimiter | None = None,
    ) -> None:
        self._fetch = fetch
        self._lease_seconds = lease_seconds
        self._clock = clock
        self._local = local or RateLimiter(clock=clock)
        self._leases: dict[str, _Lease] = {}
        self._degraded = False
        self._retry_db_at = 0.0

    def check(self, workspace: str) -> None:
        """Refuse at once (RateLimited) while a refusal of ``workspace`` holds, before the
        batch is even validated."""
        lease = self._leases.get(workspace)
        if lease is not None and lease.denied_until > self._clock():
            raise _refused(lease.denied_until - self._clock())

    async def take(self, workspace: str, points: int, *, rate: float, burst: float) -> None:
        """Admit ``points`` for ``workspace`` or raise RateLimited with a Retry-After."""
        if rate <= 0:
            self._local.take(workspace, points, rate=rate, burst=burst)
        burst = max(burst, 1.0)
        lease = self._leases.get(workspace)
        if lease is None:
            if len(self._leases) > 100_000:
                self._leases.clear()
            lease = self._leases[workspace] = _Lease()
        now = self._clock()
        if lease.denied_until > now:
            raise _refused(lease.denied_until - now)
        if lease.tokens >= points:
            lease.tokens -= points
            return
        if self._degraded and now < self._retry_db_at:
            self._local.take(workspace, points, rate=rate, burst=burst)
            return
        want = points - lease.tokens
        params = {
            "ws": workspace,
            "rate": rate,
            "burst": burst,
            "want": want,
            "need": min(want, burst),
            "prefetch": min(rate * self._lease_seconds, burst),
        }
        try:
            row = await self._fetch(LEASE, params)
            if row is None:  # the workspace's first lease: its bucket starts full
                await self._fetch(CREATE, params)
                row = await self._fetch(LEASE, params)
        except psycopg.Error as e:
            if not self._degraded:
                log.warning("shared ingest limit unavailable, limiting per process: %s", e)
            self._degraded = True
            self._retry_db_at = self._clock() + DB_RETRY_SECONDS
            self._local.take(workspace, points, rate=rate, burst=burst)
            return
        if self._degraded:
            log.info("shared ingest limit available again")
            self._degraded = False
        if row is None:
            raise RuntimeError(f"BUG: no token bucket for workspace {workspace} after creating it")
        avail, granted = float(row[0]), float(row[1])  # type: ignore[arg-type]
        if granted > 0:
            lease.tokens += granted - points
            return
        wait = (min(want, burst) - avail) / rate
        lease.denied_until = self._clock() + wait
        raise RateLimited(
            f"over the workspace limit {LIMIT_NAME}={rate:g} (burst {burst:g}, shared by every "
            f"gateway): this batch has {points} points; retry in {wait:.1f} s or send smaller "
            "batches",
            limit=LIMIT_NAME,
            retry_after=max(1, math.ceil(wait)),
        )


def _refused(wait: float) -> RateLimited:
    return RateLimited(
        f"over the workspace limit {LIMIT_NAME}: retry in {max(wait, 0):.1f} s",
        limit=LIMIT_NAME,
        retry_after=max(1, math.ceil(wait)),
    )
