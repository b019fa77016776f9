"""Password work (argon2id hashes and checks, zxcvbn's estimate) on threads of its own.

Each hash costs tens of milliseconds of CPU and ``VIGIL_PASSWORD_HASH_MEMORY_KIB`` of memory.
Run on the worker pool that serves every request, a burst of sign-ins or sign-ups would hold
all of its threads and stall everyone's dashboards; here it runs on
``VIGIL_PASSWORD_WORK_THREADS`` threads, with at most ``VIGIL_PASSWORD_WORK_QUEUE`` requests
waiting for them (past that: 503 with Retry-After). The waiting requests hold no thread.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from app.core.config import settings
from app.core.errors import Busy

P = ParamSpec("P")
T = TypeVar("T")

THREAD_PREFIX = "vigil-password"

_executor = ThreadPoolExecutor(
    max_workers=settings.PASSWORD_WORK_THREADS, thread_name_prefix=THREAD_PREFIX
)
_lock = threading.Lock()
_pending = 0


def pending() -> int:
    """Jobs running or waiting now."""
    return _pending


def _done(_: Future[Any]) -> None:
    global _pending
    with _lock:
        _pending -= 1


async def run(fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
    """``fn(*args, **kwargs)`` on a password thread; Busy when too many wait already."""
    global _pending
    with _lock:
        if _pending >= settings.PASSWORD_WORK_THREADS + settings.PASSWORD_WORK_QUEUE:
            raise Busy(
                "Too many sign-ins and password changes at once; try again in a moment",
                retry_after=2,
            )
        _pending += 1
    try:
        future = _executor.submit(fn, *args, **kwargs)
    except BaseException:
        with _lock:
            _pending -= 1
        raise
    future.add_done_callback(_done)
    return await asyncio.wrap_future(future)
