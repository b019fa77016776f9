"""The per-workspace points/s token bucket."""

from __future__ import annotations

import asyncio

import psycopg
import pytest

from vigil_ingest.common.errors import RateLimited
from vigil_ingest.gateway.limits import (
    CREATE,
    DB_RETRY_SECONDS,
    LEASE,
    LIMIT_NAME,
    RateLimiter,
    SharedRateLimiter,
)


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@pytest.mark.parametrize(
    ("rate", "burst", "batches", "admitted"),
    [
        (100, 100, [100], [True]),
        (100, 100, [100, 1], [True, False]),
        (100, 100, [60, 40, 1], [True, True, False]),
        (100, 50, [500], [True]),  # larger than the burst: admitted when the bucket is full…
        (100, 50, [500, 1], [True, False]),  # …and paid for afterwards
        (10, 1000, [1000, 1], [True, False]),
    ],
)
def test_bucket_admission(rate, burst, batches, admitted) -> None:
    lim = RateLimiter(clock=Clock())
    got = []
    for n in batches:
        try:
            lim.take("ws", n, rate=rate, burst=burst)
            got.append(True)
        except RateLimited:
            got.append(False)
    assert got == admitted


def test_refill_and_retry_after() -> None:
    clock = Clock()
    lim = RateLimiter(clock=clock)
    lim.take("ws", 100, rate=50, burst=100)
    with pytest.raises(RateLimited) as e:
        lim.take("ws", 100, rate=50, burst=100)
    assert e.value.limit == LIMIT_NAME
    assert e.value.retry_after == 2
    assert e.value.status == 429
    assert "ingest_points_per_second=50 (burst 100)" in e.value.message
    clock.t += 2.0
    lim.take("ws", 100, rate=50, burst=100)


def test_debt_is_repaid_at_the_rate() -> None:
    clock = Clock()
    lim = RateLimiter(clock=clock)
    lim.take("ws", 300, rate=100, burst=100)  # bucket at -200
    clock.t += 2.5  # +250 -> 50
    lim.take("ws", 50, rate=100, burst=100)
    with pytest.raises(RateLimited):
        lim.take("ws", 1, rate=100, burst=100)


def test_workspaces_are_independent() -> None:
    lim = RateLimiter(clock=Clock())
    lim.take("a", 10, rate=10, burst=10)
    lim.take("b", 10, rate=10, burst=10)
    with pytest.raises(RateLimited):
        lim.take("a", 1, rate=10, burst=10)


def test_zero_rate_refuses_everything() -> None:
    with pytest.raises(RateLimited, match="is 0"):
        RateLimiter(clock=Clock()).take("ws", 1, rate=0, burst=10)


class FakeBucket:
    """The LEASE statement's arithmetic over one bucket per workspace, with the test's
    clock standing in for PostgreSQL's; counts round trips."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.rows: dict[str, tuple[float, float]] = {}
        self.calls = 0
        self.down = False

    async def __call__(self, sql: str, params):  # noqa: ANN001, ANN204
        self.calls += 1
        if self.down:
            raise psycopg.OperationalError("connection refused")
        ws = params["ws"]
        if sql == CREATE:
            self.rows.setdefault(ws, (params["burst"], self.clock()))
            return None
        assert sql == LEASE
        if ws not in self.rows:
            return None
        tokens, stamp = self.rows[ws]
        avail = min(params["burst"], tokens + max(0.0, self.clock() - stamp) * params["rate"])
        granted = 0.0
        if avail >= params["need"]:
            granted = params["want"] + min(params["prefetch"], max(0.0, avail - params["want"]))
        self.rows[ws] = (avail - granted, self.clock())
        return (avail, granted)


def _admitted(lim: SharedRateLimiter, n: int, **kw: float) -> bool:
    try:
        asyncio.run(lim.take("ws", n, rate=kw.get("rate", 100), burst=kw.get("burst", 100)))
    except RateLimited:
        return False
    return True


def test_shared_limiter_leases_blocks() -> None:
    clock = Clock()
    db = FakeBucket(clock)
    lim = SharedRateLimiter(db, lease_seconds=0.1, clock=clock)
    # the first batch creates the bucket (full) and leases 10 points more than it needs
    assert _admitted(lim, 5, rate=100, burst=100)
    assert db.calls == 3  # LEASE (no row), CREATE, LEASE
    # the next 10 points come from the block, without a round trip
    assert _admitted(lim, 4) and _admitted(lim, 6)
    assert db.calls == 3
    assert _admitted(lim, 1)
    assert db.calls == 4
    # 100 - 5 - 10 (prefetch) - 1 - 10 (prefetch) = 74 left in the shared bucket
    assert db.rows["ws"][0] == pytest.approx(74)


def test_shared_limiter_remembers_a_refusal() -> None:
    clock = Clock()
    db = FakeBucket(clock)
    lim = SharedRateLimiter(db, lease_seconds=0, clock=clock)
    assert _admitted(lim, 100, rate=50, burst=100)
    calls = db.calls
    with pytest.raises(RateLimited) as e:
        asyncio.run(lim.take("ws", 100, rate=50, burst=100))
    assert e.value.retry_after == 2
    assert "shared by every gateway" in e.value.message
    # while the refusal holds: no round trip, and check() refuses before validation
    with pytest.raises(RateLimited):
        lim.check("ws")
    assert not _admitted(lim, 1, rate=50, burst=100)
    assert db.calls == calls + 1
    clock.t += 2.0
    lim.check("ws")
    assert _admitted(lim, 100, rate=50, burst=100)


def test_shared_limiter_falls_back_to_the_process_bucket() -> None:
    clock = Clock()
    db = FakeBucket(clock)
    db.down = True
    lim = SharedRateLimiter(db, lease_seconds=0, clock=clock)
    assert _admitted(lim, 100, rate=100, burst=100)
    assert not _admitted(lim, 100, rate=100, burst=100)  # the local bucket is empty
    calls = db.calls
    clock.t += 1.0
    assert _admitted(lim, 100, rate=100, burst=100)
    assert db.calls == calls  # the database is asked again only after DB_RETRY_SECONDS
    db.down = False
    clock.t += DB_RETRY_SECONDS
    assert _admitted(lim, 1, rate=100, burst=100)
    assert db.calls > calls
