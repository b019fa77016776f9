"""The app served by a real uvicorn on loopback, for tests that need truly concurrent requests
(the test client handles one request at a time per call site; threads against a live server
race the way browsers and attackers do)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import TypeVar

import uvicorn
from fastapi import FastAPI

from tests.smtp_server import free_port

T = TypeVar("T")


@contextmanager
def live_server(app: FastAPI) -> Iterator[str]:
    """Serve ``app``; yields its base URL."""
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the live server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(20)


def all_at_once(calls: Sequence[Callable[[], T]]) -> list[T]:
    """Run every call on its own thread, released together by a barrier; their results in
    order."""
    barrier = threading.Barrier(len(calls))

    def run(call: Callable[[], T]) -> T:
        barrier.wait()
        return call()

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(run, calls))
