"""The per-workspace points/s token bucket."""

from __future__ import annotations

import pytest

from vigil_ingest.common.errors import RateLimited
from vigil_ingest.gateway.limits import LIMIT_NAME, RateLimiter


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
