"""Each workspace's queries wait their turn here, not at storage.

Storage runs at most a workspace's ``concurrent_queries`` at once and queues the rest (a
bounded queue: more than it holds get 429 at once, and so does a query that waited longer
than its maximum wait). Sent on as they came, a burst of one workspace's queries would each
hold a connection to storage and a place in that queue: at a hundred clients the pool of
connections, storage's queue and the event loop's bookkeeping of both grow with the burst,
and the burst's tail is refused although the workspace is only asking for its share.

``QueryQueue`` keeps, per workspace and process, at most ``concurrent_queries`` of its queries
at storage; the others wait here on the event loop (an entry in a deque, no connection, no
thread), first come first served, and go on as soon as one of the workspace's queries comes
back. A query that cannot start within the workspace's query timeout, or that finds
``max_waiting`` of its workspace's queries already waiting, gets 429 ``concurrent_queries``
with ``Retry-After``. Other workspaces never wait for this one: each has its own lane, and
storage still shares its slots between workspaces round-robin.
"""

from __future__ import annotations

import asyncio
import collections
import math
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field

from app.core.errors import LimitExceeded

LIMIT = "concurrent_queries"


@dataclass
class _Lane:
    """One workspace's queries: how many are at storage, and who waits for a turn."""

    limit: int
    running: int = 0
    waiting: collections.deque[asyncio.Future[None]] = field(default_factory=collections.deque)


@dataclass(frozen=True)
class QueueStats:
    running: int
    waiting: int


class QueryQueue:
    """Per-workspace turns for queries on their way to storage (see the module docstring)."""

    def __init__(self, *, max_waiting: int) -> None:
        self.max_waiting = max_waiting
        self._lanes: dict[uuid.UUID, _Lane] = {}

    def stats(self, workspace_id: uuid.UUID) -> QueueStats:
        lane = self._lanes.get(workspace_id)
        return QueueStats(lane.running, len(lane.waiting)) if lane else QueueStats(0, 0)

    @asynccontextmanager
    async def turn(
        self, workspace_id: uuid.UUID, *, limit: int, max_wait: float
    ) -> AsyncIterator[None]:
        """Hold one of the workspace's ``limit`` turns while the block runs; wait at most
        ``max_wait`` seconds for it (429 ``concurrent_queries`` otherwise)."""
        await self._acquire(workspace_id, limit=max(1, limit), max_wait=max_wait)
        try:
            yield
        finally:
            self._release(workspace_id)

    async def _acquire(self, workspace_id: uuid.UUID, *, limit: int, max_wait: float) -> None:
        lane = self._lanes.get(workspace_id)
        if lane is None:
            lane = self._lanes[workspace_id] = _Lane(limit)
        if limit != lane.limit:  # the workspace's limit changed: it applies at once
            lane.limit = limit
            self._wake(lane)
        if lane.running < lane.limit and not lane.waiting:
            lane.running += 1
            return
        if len(lane.waiting) >= self.max_waiting:
            raise LimitExceeded(
                f"Too many queries of this workspace at once: {lane.running} running, "
                f"{len(lane.waiting)} waiting (at most {self.max_waiting}); "
                f"the workspace runs {lane.limit} at a time",
                limit=LIMIT,
                retry_after=1,
            )
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        lane.waiting.append(turn)
        try:
            await asyncio.wait_for(asyncio.shield(turn), timeout=max_wait)
        except BaseException as exc:
            if turn.done() and not turn.cancelled():
                # the turn was handed over as the wait ended: pass it on
                self._release(workspace_id)
            else:
                turn.cancel()
                self._forget(workspace_id, lane, turn)
            if isinstance(exc, TimeoutError):
                raise LimitExceeded(
                    f"The query waited {max_wait:g} s (the workspace's query timeout) for one "
                    f"of the workspace's {lane.limit} concurrent queries to finish",
                    limit=LIMIT,
                    retry_after=max(1, math.ceil(max_wait)),
                ) from None
            raise

    def _release(self, workspace_id: uuid.UUID) -> None:
        lane = self._lanes[workspace_id]
        lane.running -= 1
        self._wake(lane)
        if lane.running == 0 and not lane.waiting:
            del self._lanes[workspace_id]

    @staticmethod
    def _wake(lane: _Lane) -> None:
        """Hand free turns to the longest waiting."""
        while lane.waiting and lane.running < lane.limit:
            turn = lane.waiting.popleft()
            if not turn.done():
                turn.set_result(None)
                lane.running += 1

    def _forget(self, workspace_id: uuid.UUID, lane: _Lane, turn: asyncio.Future[None]) -> None:
        with suppress(ValueError):
            lane.waiting.remove(turn)
        if lane.running == 0 and not lane.waiting and self._lanes.get(workspace_id) is lane:
            del self._lanes[workspace_id]
