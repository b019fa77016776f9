"""Fixtures of the stack's system tests: control of the test stack's services.

A test that stops or kills a service gets it back in its finalizer, whatever the outcome, so
the suites after it (and the next test) find the whole stack running.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import httpx
import pytest

import stack

# How stack.wait_ingest_path says the write path is not back: the backend unreachable, a
# query refused (assert), or no fresh point in time (pytest.fail raises an OutcomeException,
# which is not an Exception).
NOT_BACK = (httpx.HTTPError, AssertionError, pytest.fail.Exception)


@pytest.fixture(scope="session")
def services() -> Iterator[dict[str, stack.Service]]:
    """The stack's restartable services, their command lines captured while they run."""
    found = stack.services()
    for s in found.values():
        if s.name != "kafka":  # Kafka is restarted through infra/kafka/start.sh
            s.capture()
    yield found
    restore(found)


def restore(found: dict[str, stack.Service]) -> list[str]:
    """Start, in dependency order, whatever of the stack is not running; name what was started."""
    started = []
    for name in ("kafka", "storage", "gateway", "consumer", "alerting"):
        s = found[name]
        if not s.running():
            s.start()
            started.append(name)
    return started


@pytest.fixture
def stack_services(services: dict[str, stack.Service]) -> Iterator[dict[str, stack.Service]]:
    """The services, given back running after the test (even when it failed half-way)."""
    yield services
    restore(services)
    try:
        stack.wait_ingest_path(timeout=15)
    except NOT_BACK:
        # The write path did not come back by itself (the test has reported why). Restart
        # the ingest processes so the tests and suites after this one find a working stack.
        services["gateway"].stop()
        services["gateway"].start()
        try:
            stack.wait_ingest_path(timeout=20)
        except NOT_BACK:
            services["consumer"].stop()
            services["consumer"].start()
            stack.wait_ingest_path()
        warnings.warn(
            "the ingest path did not recover by itself after the test; restarted it", stacklevel=1
        )
