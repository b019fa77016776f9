"""Per-workspace turns for queries on their way to storage (app.services.query_queue)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable

import pytest

from app.core.errors import LimitExceeded
from app.services.query_queue import QueryQueue, QueueStats

pytestmark = pytest.mark.anyio

A = uuid.UUID("00000000-0000-0000-0000-00000000000a")
B = uuid.UUID("00000000-0000-0000-0000-00000000000b")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def _until(check: Callable[[], bool], timeout: float = 5.0) -> None:
    async with asyncio.timeout(timeout):
        while not check():
            await asyncio.sleep(0.005)


async def test_at_most_limit_run_and_the_rest_go_first_come_first_served() -> None:
    queue = QueryQueue(max_waiting=10)
    release = asyncio.Event()
    started: list[int] = []
    peak = 0

    async def query(i: int) -> None:
        nonlocal peak
        async with queue.turn(A, limit=2, max_wait=5):
            started.append(i)
            peak = max(peak, queue.stats(A).running)
            await release.wait()

    tasks = []
    for i in range(6):
        tasks.append(asyncio.create_task(query(i)))
        await asyncio.sleep(0)  # they arrive in this order
    await _until(lambda: queue.stats(A) == QueueStats(running=2, waiting=4))
    assert started == [0, 1]
    release.set()
    await asyncio.gather(*tasks)
    assert started == [0, 1, 2, 3, 4, 5]
    assert peak == 2
    assert queue.stats(A) == QueueStats(running=0, waiting=0)


async def test_a_full_queue_refuses_with_429_and_retry_after() -> None:
    queue = QueryQueue(max_waiting=1)
    release = asyncio.Event()

    async def query() -> None:
        async with queue.turn(A, limit=1, max_wait=5):
            await release.wait()

    running = asyncio.create_task(query())
    waiting = asyncio.create_task(query())
    await _until(lambda: queue.stats(A) == QueueStats(running=1, waiting=1))
    with pytest.raises(LimitExceeded) as refused:
        async with queue.turn(A, limit=1, max_wait=5):
            pytest.fail("a third query must not run")
    assert refused.value.status_code == 429
    assert refused.value.limit == "concurrent_queries"
    assert refused.value.headers() == {"Retry-After": "1"}
    assert str(refused.value) == (
        "Too many queries of this workspace at once: 1 running, 1 waiting (at most 1); "
        "the workspace runs 1 at a time"
    )
    release.set()
    await asyncio.gather(running, waiting)
    assert queue.stats(A) == QueueStats(running=0, waiting=0)


async def test_waiting_longer_than_max_wait_is_refused_and_leaves_no_trace() -> None:
    queue = QueryQueue(max_waiting=10)
    release = asyncio.Event()

    async def query() -> None:
        async with queue.turn(A, limit=1, max_wait=5):
            await release.wait()

    running = asyncio.create_task(query())
    await _until(lambda: queue.stats(A).running == 1)
    with pytest.raises(LimitExceeded) as refused:
        async with queue.turn(A, limit=1, max_wait=0.05):
            pytest.fail("must not run while the other holds the only turn")
    assert refused.value.limit == "concurrent_queries"
    assert refused.value.headers() == {"Retry-After": "1"}
    assert str(refused.value) == (
        "The query waited 0.05 s (the workspace's query timeout) for one of the workspace's "
        "1 concurrent queries to finish"
    )
    assert queue.stats(A) == QueueStats(running=1, waiting=0)
    release.set()
    await running
    assert queue.stats(A) == QueueStats(running=0, waiting=0)


async def test_one_workspace_full_never_holds_up_another() -> None:
    queue = QueryQueue(max_waiting=2)
    release = asyncio.Event()

    async def query(ws: uuid.UUID) -> None:
        async with queue.turn(ws, limit=1, max_wait=5):
            await release.wait()

    flood = [asyncio.create_task(query(A)) for _ in range(3)]
    await _until(lambda: queue.stats(A) == QueueStats(running=1, waiting=2))
    async with asyncio.timeout(1):
        async with queue.turn(B, limit=1, max_wait=5):
            assert queue.stats(B) == QueueStats(running=1, waiting=0)
    release.set()
    await asyncio.gather(*flood)


async def test_a_waiter_that_goes_away_gives_its_place_back() -> None:
    queue = QueryQueue(max_waiting=10)
    release = asyncio.Event()
    ran: list[str] = []

    async def query(name: str) -> None:
        async with queue.turn(A, limit=1, max_wait=5):
            ran.append(name)
            await release.wait()

    first = asyncio.create_task(query("first"))
    await _until(lambda: queue.stats(A).running == 1)
    gone = asyncio.create_task(query("gone"))
    last = asyncio.create_task(query("last"))
    await _until(lambda: queue.stats(A).waiting == 2)
    gone.cancel()  # the client hung up while waiting
    await _until(lambda: queue.stats(A).waiting == 1)
    release.set()
    await asyncio.gather(first, last)
    assert gone.cancelled()
    assert ran == ["first", "last"]
    assert queue.stats(A) == QueueStats(running=0, waiting=0)


async def test_a_raised_limit_lets_the_waiting_run_at_once() -> None:
    queue = QueryQueue(max_waiting=10)
    release = asyncio.Event()

    async def query(limit: int) -> None:
        async with queue.turn(A, limit=limit, max_wait=5):
            await release.wait()

    tasks = [asyncio.create_task(query(1)) for _ in range(3)]
    await _until(lambda: queue.stats(A) == QueueStats(running=1, waiting=2))
    tasks.append(asyncio.create_task(query(3)))  # the workspace's limit was raised to 3
    # the two that waited run now; the newcomer waits behind them
    await _until(lambda: queue.stats(A) == QueueStats(running=3, waiting=1))
    release.set()
    await asyncio.gather(*tasks)
    assert queue.stats(A) == QueueStats(running=0, waiting=0)
