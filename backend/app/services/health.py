"""Real health checks of every component, run concurrently, each bounded by a timeout.

The checks run on a pool of their own (``_POOL``), never on the one request handlers use, and
callers without details (``cached_status``) share one run per ``CACHE_SECONDS``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
from sqlalchemy import text

from app.clients.storage import StorageClient
from app.core.config import settings
from app.core.db import get_engine

Check = Callable[[], dict[str, Any]]


def check_postgres() -> dict[str, Any]:
    with get_engine().connect() as conn:
        conn.execute(text("SET LOCAL statement_timeout = 2000"))
        conn.execute(text("SELECT 1"))
    return {"ok": True}


def _kafka_admin() -> Any:
    from kafka import KafkaAdminClient  # imported lazily: kafka-python is slow to import

    timeout_ms = int(settings.HEALTH_TIMEOUT_SECONDS * 1000)
    return KafkaAdminClient(
        bootstrap_servers=settings.KAFKA_BOOTSTRAP,
        client_id="vigil-backend-health",
        request_timeout_ms=timeout_ms,
        bootstrap_timeout_ms=timeout_ms,
    )


def check_kafka() -> dict[str, Any]:
    admin = _kafka_admin()
    try:
        cluster = admin.describe_cluster()
        topics = sorted(t for t in admin.list_topics() if t.startswith("vigil."))
    finally:
        admin.close()
    return {"ok": True, "brokers": len(cluster.get("brokers", [])), "topics": topics}


def consumer_lag() -> tuple[int, dict[str, int]]:
    """Total and per-partition lag of the consumer group, from Kafka's committed offsets."""
    from kafka.admin import OffsetSpec

    admin = _kafka_admin()
    try:
        committed = admin.list_group_offsets({settings.KAFKA_CONSUMER_GROUP: None})
        offsets = committed.get(settings.KAFKA_CONSUMER_GROUP, {})
        if not offsets:
            return 0, {}
        ends = admin.list_partition_offsets({tp: OffsetSpec.LATEST for tp in offsets})
    finally:
        admin.close()
    partitions: dict[str, int] = {}
    for tp, meta in offsets.items():
        end = ends[tp].offset
        partitions[f"{tp.topic}/{tp.partition}"] = max(0, end - max(meta.offset, 0))
    return sum(partitions.values()), partitions


def _get_json(url: str, headers: dict[str, str] | None = None) -> dict[str, Any]:
    response = httpx.get(url, timeout=settings.HEALTH_TIMEOUT_SECONDS, headers=headers)
    if response.status_code != 200:
        raise RuntimeError(f"{url} answered {response.status_code}")
    body: dict[str, Any] = response.json()
    return body


def check_gateway() -> dict[str, Any]:
    # with the internal token, the gateway says more than up/down (its version)
    body = _get_json(
        settings.GATEWAY_URL.rstrip("/") + "/health",
        headers={"Authorization": f"Bearer {settings.INTERNAL_TOKEN}"},
    )
    return {"ok": body.get("status", "ok") == "ok", **_extra(body)}


def check_consumer() -> dict[str, Any]:
    body = _get_json(settings.CONSUMER_URL.rstrip("/") + "/health")
    result: dict[str, Any] = {"ok": body.get("status", "ok") == "ok"}
    try:
        lag, partitions = consumer_lag()
        result.update(lag=lag, lag_source="kafka", partitions=partitions)
    except Exception as exc:  # noqa: BLE001 - reported, Kafka's own check names the cause
        result.update(lag=body.get("lag"), lag_source="consumer", lag_error=_describe(exc))
    return result


def check_alerting() -> dict[str, Any]:
    body = _get_json(settings.ALERTING_URL + "/health")
    result = {"ok": body.get("status") == "ok"}
    for key in ("workers", "monitors_overdue", "notifications_due"):
        if key in body:
            result[key] = body[key]
    return result


def make_storage_check(storage: StorageClient) -> Check:
    def check_storage() -> dict[str, Any]:
        body = storage.health(timeout=settings.HEALTH_TIMEOUT_SECONDS)
        return {"ok": body.get("status") == "ok", **_extra(body)}

    return check_storage


def _extra(body: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in body.items() if k in ("version", "status")}


def _describe(exc: BaseException) -> str:
    text_ = str(exc) or type(exc).__name__
    return text_[:300]


# One thread per check of a run: a run never waits for the request handlers' pool, nor they
# for it. A check stuck past its timeout keeps its thread until its own client gives up.
_POOL = ThreadPoolExecutor(max_workers=5, thread_name_prefix="health")
CACHE_SECONDS = 15.0


async def _run(name: str, check: Check, timeout: float) -> tuple[str, dict[str, Any]]:
    started = time.perf_counter()
    loop = asyncio.get_running_loop()
    try:
        result = await asyncio.wait_for(loop.run_in_executor(_POOL, check), timeout)
    except TimeoutError:
        result = {"ok": False, "error": f"no answer within {timeout:g} s"}
    except Exception as exc:  # noqa: BLE001 - any failure is the check's answer
        result = {"ok": False, "error": _describe(exc)}
    result["latency_ms"] = round((time.perf_counter() - started) * 1000, 1)
    return name, result


async def collect(checks: dict[str, Check]) -> dict[str, Any]:
    # Kafka's client needs up to two round trips of its own timeout; leave it room.
    timeout = settings.HEALTH_TIMEOUT_SECONDS * 2 + 0.5
    results = await asyncio.gather(*(_run(n, c, timeout) for n, c in checks.items()))
    components = dict(results)
    status = "ok" if all(c.get("ok") for c in components.values()) else "degraded"
    _cache.remember(status)
    return {"status": status, "components": components}


class _StatusCache:
    """The overall status of the latest run, for callers who get nothing more.

    They never wait for the checks but the very first time: a status older than
    ``CACHE_SECONDS`` is answered as it is while one run refreshes it in the background.
    """

    def __init__(self) -> None:
        self._status: str | None = None
        self._at = 0.0
        self._lock: asyncio.Lock | None = None
        self._refresh: asyncio.Task[None] | None = None

    def remember(self, status: str) -> None:
        self._status, self._at = status, time.monotonic()

    def fresh(self) -> str | None:
        if self._status is not None and time.monotonic() - self._at < CACHE_SECONDS:
            return self._status
        return None

    def forget(self) -> None:
        self._status = None

    async def _run(self, checks: Callable[[], dict[str, Check]]) -> None:
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:  # one run at a time; those who waited take its answer
            if self.fresh() is None:
                await collect(checks())

    async def get(self, checks: Callable[[], dict[str, Check]]) -> str:
        status = self.fresh()
        if status is not None:
            return status
        if self._status is None:  # nothing to answer yet: this once, wait for a run
            await self._run(checks)
            return self._status or "degraded"
        if self._refresh is None or self._refresh.done():
            self._refresh = asyncio.get_running_loop().create_task(self._run(checks))
        return self._status


_cache = _StatusCache()


async def cached_status(checks: Callable[[], dict[str, Check]]) -> str:
    """``ok`` or ``degraded`` from the latest run, refreshed once it is ``CACHE_SECONDS`` old."""
    return await _cache.get(checks)


def forget_cached_status() -> None:
    _cache.forget()


def default_checks(storage: StorageClient) -> dict[str, Check]:
    return {
        "postgres": check_postgres,
        "kafka": check_kafka,
        "storage": make_storage_check(storage),
        "gateway": check_gateway,
        "consumer": check_consumer,
        "alerting": check_alerting,
    }
