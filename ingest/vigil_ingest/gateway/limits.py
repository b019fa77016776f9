"""Per-workspace ingest rate limit: a token bucket of points.

The bucket holds up to ``burst`` points and refills at ``points_per_second``. A batch is
admitted when the bucket holds at least ``min(points, burst)``; it then pays its full size,
possibly leaving the bucket in debt, so a batch larger than the burst still passes once the
bucket is full, and the long-run rate never exceeds the limit.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from vigil_ingest.common.errors import RateLimited

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
