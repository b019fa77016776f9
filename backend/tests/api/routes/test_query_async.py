"""A flood of slow queries holds no worker thread and no database connection: login and the
rest of the API answer at once meanwhile (the query routes await storage on the event loop).
Of one workspace's flood, its concurrent queries are at storage and the rest wait their turn
in the backend (app.services.query_queue), then run; past the queue's bounds they get 429."""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import Any

import httpx
import pytest

from app.clients.storage import AsyncStorageClient
from app.main import create_app
from app.services.query_queue import QueryQueue, QueueStats
from tests.conftest import mail_server
from tests.storage_mock import INTERNAL_TOKEN, StorageMock

# above the worker threads (40) and the database pool (10 + 20 overflow): were a query to hold
# either while it waits on storage, they could not all be waiting at once
FLOOD = 80


@pytest.mark.anyio
async def test_slow_queries_do_not_stall_login() -> None:
    waiting: list[float] = []
    release = asyncio.Event()

    async def slow_storage(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/v1/query/raw":
            waiting.append(time.monotonic())
            await release.wait()  # storage answers when the test says so
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
    async with httpx.AsyncClient(transport=transport, base_url="http://test", timeout=120) as api:
        email = f"flood-{time.monotonic_ns()}@example.com"
        r = await api.post("/api/v1/auth/signup", json={"email": email})
        assert r.status_code == 202, r.text
        token = mail_server().link_token(email, "/signup/complete")
        r = await api.post(
            "/api/v1/auth/signup/complete",
            json={"token": token, "password": "correct horse battery"},
        )
        assert r.status_code == 201, r.text
        auth = {"Authorization": f"Bearer {r.json()['access_token']}"}
        r = await api.post("/api/v1/workspaces", json={"name": "flood"}, headers=auth)
        ws = r.json()["id"]
        body: dict[str, Any] = {"queries": [{"query": "M::cpu:(avg(usage_idle)) [1h]"}]}

        async def one_query() -> int:
            resp = await api.post(f"/api/v1/workspaces/{ws}/query/raw", json=body, headers=auth)
            return resp.status_code

        flood = [asyncio.create_task(one_query()) for _ in range(FLOOD)]
        # the workspace's concurrent queries (4 by default) reach storage and wait there; the
        # others wait for their turn in the backend, all at once
        queue = app.state.query_queue
        deadline = time.monotonic() + 60
        while queue.stats(uuid.UUID(ws)).waiting < FLOOD - 4 and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert queue.stats(uuid.UUID(ws)) == QueueStats(running=4, waiting=FLOOD - 4)
        assert len(waiting) == 4
        # meanwhile login and a page of the UI's API answer at once
        t1 = time.monotonic()
        r = await api.post(
            "/api/v1/auth/login", json={"email": email, "password": "correct horse battery"}
        )
        assert r.status_code == 200
        r = await api.get("/api/v1/workspaces", headers=auth)
        assert r.status_code == 200
        answered = time.monotonic() - t1
        assert answered < 2.0, f"login and the workspace list took {answered:.2f} s"
        assert not any(t.done() for t in flood)  # the queries were all still waiting
        release.set()
        statuses = await asyncio.gather(*flood)
        assert statuses == [200] * FLOOD
        assert len(waiting) == FLOOD  # each went to storage in its turn
        assert queue.stats(uuid.UUID(ws)) == QueueStats(running=0, waiting=0)
    await slow.aclose()


@pytest.mark.anyio
async def test_a_full_queue_answers_429_with_retry_after() -> None:
    release = asyncio.Event()
    at_storage: list[str] = []

    async def slow_storage(request: httpx.Request) -> httpx.Response:
        at_storage.append(request.url.path)
        await release.wait()
        if request.url.path == "/v1/query/raw":
            return httpx.Response(200, stream=httpx.ByteStream(b'{"content": [{"series": []}]}'))
        return httpx.Response(
            200, stream=httpx.ByteStream(b'{"status": "success", "data": {"result": []}}')
        )

    slow = AsyncStorageClient(
        base_url="http://storage.test",
        internal_token=INTERNAL_TOKEN,
        transport=httpx.MockTransport(slow_storage),
    )
    app = create_app(storage=StorageMock().client(), async_storage=slow)
    app.state.query_queue = QueryQueue(max_waiting=0)  # nothing may wait in this test
    transport = httpx.ASGITransport(app=app, client=("10.98.0.2", 50000))
    async with httpx.AsyncClient(transport=transport, base_url="http://test", timeout=60) as api:
        email = f"full-{time.monotonic_ns()}@example.com"
        r = await api.post("/api/v1/auth/signup", json={"email": email})
        token = mail_server().link_token(email, "/signup/complete")
        r = await api.post(
            "/api/v1/auth/signup/complete",
            json={"token": token, "password": "correct horse battery"},
        )
        auth = {"Authorization": f"Bearer {r.json()['access_token']}"}
        ws = (await api.post("/api/v1/workspaces", json={"name": "full"}, headers=auth)).json()[
            "id"
        ]
        body: dict[str, Any] = {"queries": [{"query": "M::cpu:(avg(usage_idle)) [1h]"}]}
        url = f"/api/v1/workspaces/{ws}/query/raw"
        running = [asyncio.create_task(api.post(url, json=body, headers=auth)) for _ in range(4)]
        deadline = time.monotonic() + 30
        while len(at_storage) < 4 and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        assert len(at_storage) == 4  # the workspace's 4 concurrent queries
        r = await api.post(url, json=body, headers=auth)
        assert r.status_code == 429
        assert r.headers["retry-after"] == "1"
        assert r.json() == {
            "detail": "Too many queries of this workspace at once: 4 running, 0 waiting "
            "(at most 0); the workspace runs 4 at a time",
            "code": "limit_exceeded",
            "limit": "concurrent_queries",
        }
        # the Prometheus API answers the same refusal in Prometheus' envelope
        r = await api.get(
            f"/api/v1/workspaces/{ws}/prometheus/api/v1/query",
            params={"query": "up"},
            headers=auth,
        )
        assert r.status_code == 429
        assert r.headers["retry-after"] == "1"
        assert r.json()["status"] == "error"
        assert "4 running" in r.json()["error"]
        assert len(at_storage) == 4  # neither refusal reached storage
        release.set()
        assert [resp.status_code for resp in await asyncio.gather(*running)] == [200] * 4
    await slow.aclose()
