"""A flood of slow queries holds no worker thread and no database connection: login and the
rest of the API answer at once meanwhile (the query routes await storage on the event loop)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import pytest

from app.clients.storage import AsyncStorageClient
from app.main import create_app
from tests.storage_mock import INTERNAL_TOKEN, StorageMock

SLOW_SECONDS = 3.0
FLOOD = 80  # above the worker threads (40) and the database pool (10 + 20 overflow)


@pytest.mark.anyio
async def test_slow_queries_do_not_stall_login() -> None:
    started: list[float] = []

    async def slow_storage(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/v1/query/raw":
            started.append(time.monotonic())
            await asyncio.sleep(SLOW_SECONDS)
            return httpx.Response(200, stream=httpx.ByteStream(b'{"content": [{"series": []}]}'))
        return httpx.Response(404)

    mock = StorageMock()
    slow = AsyncStorageClient(
        base_url="http://storage.test",
        internal_token=INTERNAL_TOKEN,
        transport=httpx.MockTransport(slow_storage),
    )
    app = create_app(storage=mock.client(), async_storage=slow)
    transport = httpx.ASGITransport(app=app, client=("10.98.0.1", 50000))
    async with httpx.AsyncClient(transport=transport, base_url="http://test", timeout=60) as api:
        email = f"flood-{time.monotonic_ns()}@example.com"
        r = await api.post(
            "/api/v1/auth/signup", json={"email": email, "password": "correct horse battery"}
        )
        assert r.status_code == 201, r.text
        token = r.json()["access_token"]
        auth = {"Authorization": f"Bearer {token}"}
        r = await api.post("/api/v1/workspaces", json={"name": "flood"}, headers=auth)
        ws = r.json()["id"]
        body: dict[str, Any] = {"queries": [{"query": "M::cpu:(avg(usage_idle)) [1h]"}]}

        async def one_query() -> int:
            resp = await api.post(f"/api/v1/workspaces/{ws}/query/raw", json=body, headers=auth)
            return resp.status_code

        t0 = time.monotonic()
        flood = [asyncio.create_task(one_query()) for _ in range(FLOOD)]
        # every query reaches storage: none waits for a thread or a connection
        while len(started) < FLOOD and time.monotonic() - t0 < SLOW_SECONDS:
            await asyncio.sleep(0.05)
        assert len(started) == FLOOD
        # meanwhile login and a page of the UI's API answer at once
        t1 = time.monotonic()
        r = await api.post(
            "/api/v1/auth/login", json={"email": email, "password": "correct horse battery"}
        )
        assert r.status_code == 200
        r = await api.get("/api/v1/workspaces", headers=auth)
        assert r.status_code == 200
        answered = time.monotonic() - t1
        assert answered < 1.0, f"login and the workspace list took {answered:.2f} s"
        assert all(not t.done() for t in flood)  # the queries were still running
        statuses = await asyncio.gather(*flood)
        assert statuses == [200] * FLOOD
        assert time.monotonic() - t0 < SLOW_SECONDS + 3.0
    await slow.aclose()
