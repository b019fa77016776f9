"""The query proxy: DQL and the Prometheus read API, always scoped to one workspace.

A query has two parts. ``prepare`` is the part that needs the database: the workspace's
query limits (sent to storage as headers) and the count of the query towards its usage. The
rest waits on storage. Requests do the first on a worker thread and await the second on the
event loop (``query_raw_async``, ``prometheus_async`` with ``AsyncStorageClient``), so a
flood of slow queries holds no thread; each first waits for its workspace's turn in
``app.services.query_queue``, so a flood holds no connection to storage either. Code on its
own threads — the alerting evaluator's workers — calls ``query_raw`` / ``prometheus`` with
the blocking ``StorageClient``: the same limits, the same count, the same request to storage
(whose own queue bounds them).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

from sqlalchemy.orm import Session

from app.clients.storage import AsyncStorageClient, QueryLimits, StorageClient, StorageResponse
from app.services import limits
from app.services.query_queue import QueryQueue


def prepare(db: Session, *, workspace_id: uuid.UUID) -> QueryLimits:
    """The workspace's query limits, with the query counted towards today's usage."""
    query_limits = limits.query_limits(db, workspace_id=workspace_id)
    limits.count_query(db, workspace_id=workspace_id)
    return query_limits


def query_raw(
    db: Session, *, workspace_id: uuid.UUID, body: Mapping[str, Any], storage: StorageClient
) -> StorageResponse:
    """DQL from a thread of its own (blocking)."""
    query_limits = prepare(db, workspace_id=workspace_id)
    return storage.query_raw(workspace_id=workspace_id, body=body, limits=query_limits)


def prometheus(
    db: Session,
    *,
    workspace_id: uuid.UUID,
    storage: StorageClient,
    method: str,
    endpoint: str,
    params: Sequence[tuple[str, str]],
    form: Sequence[tuple[str, str]] | None,
) -> StorageResponse:
    """The Prometheus API from a thread of its own (blocking)."""
    query_limits = prepare(db, workspace_id=workspace_id)
    return storage.prometheus(
        workspace_id=workspace_id,
        method=method,
        endpoint=endpoint,
        params=params,
        form=form,
        limits=query_limits,
    )


def _turn(
    queue: QueryQueue, workspace_id: uuid.UUID, limits: QueryLimits
) -> AbstractAsyncContextManager[None]:
    """The workspace's turn at storage: at most its concurrent queries at once per process,
    waiting at most its query timeout (app.services.query_queue)."""
    return queue.turn(
        workspace_id,
        limit=limits.concurrent_queries or 1,
        max_wait=float(limits.timeout_seconds),
    )


async def query_raw_async(
    *,
    workspace_id: uuid.UUID,
    body: Mapping[str, Any],
    limits: QueryLimits,
    storage: AsyncStorageClient,
    queue: QueryQueue,
) -> StorageResponse:
    """DQL on the event loop, with the limits ``prepare`` returned, in the workspace's turn."""
    async with _turn(queue, workspace_id, limits):
        return await storage.query_raw(workspace_id=workspace_id, body=body, limits=limits)


async def prometheus_async(
    *,
    workspace_id: uuid.UUID,
    limits: QueryLimits,
    storage: AsyncStorageClient,
    queue: QueryQueue,
    method: str,
    endpoint: str,
    params: Sequence[tuple[str, str]],
    form: Sequence[tuple[str, str]] | None,
) -> StorageResponse:
    """The Prometheus API on the event loop, with the limits ``prepare`` returned, in the
    workspace's turn."""
    async with _turn(queue, workspace_id, limits):
        return await storage.prometheus(
            workspace_id=workspace_id,
            method=method,
            endpoint=endpoint,
            params=params,
            form=form,
            limits=limits,
        )
