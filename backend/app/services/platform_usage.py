"""Usage of every workspace, for platform operators: the figures a workspace's own usage page
shows (active series, points and queries today) and what it stores (samples, bytes).

Storage's figures cost a series scan per workspace, so they are kept for ``TTL_SECONDS``
and asked for ``WORKERS`` workspaces at a time; the database's come in one query each.
"""

from __future__ import annotations

import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.clients.storage import StorageClient
from app.core.errors import StorageUnavailable
from app.models import WorkspaceIngestMinutely, WorkspaceUsageDaily
from app.services import limits

TTL_SECONDS = 60.0
WORKERS = 4
# The figures an operator can rank workspaces by.
METRICS = ("active_series", "points_today", "queries_today", "storage_bytes")


@dataclass(frozen=True)
class WorkspaceUsage:
    active_series: int | None
    series_total: int | None
    points_today: int
    queries_today: int
    storage_bytes: int | None
    stored_samples: int | None
    storage_error: str | None

    def get(self, metric: str) -> int | None:
        value: int | None = getattr(self, metric)
        return value


class _StorageFigures:
    """Storage's figures per workspace, each kept for ``TTL_SECONDS``."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._cache: dict[uuid.UUID, tuple[float, dict[str, Any]]] = {}

    def get(
        self, storage: StorageClient, workspace_ids: list[uuid.UUID]
    ) -> dict[uuid.UUID, dict[str, Any]]:
        now = time.monotonic()
        with self._lock:
            fresh = {w: v for w, (t, v) in self._cache.items() if t > now and w in workspace_ids}
        missing = [w for w in workspace_ids if w not in fresh]
        if missing:
            with ThreadPoolExecutor(WORKERS, thread_name_prefix="platform-usage") as pool:
                answers = pool.map(lambda w: _ask(storage, w), missing)
                found = dict(zip(missing, answers, strict=True))
            with self._lock:
                if len(self._cache) > 100_000:
                    self._cache.clear()
                for w, v in found.items():
                    self._cache[w] = (now + TTL_SECONDS, v)
            fresh.update(found)
        return fresh

    def forget(self) -> None:
        with self._lock:
            self._cache.clear()


def _ask(storage: StorageClient, workspace_id: uuid.UUID) -> dict[str, Any]:
    figures: dict[str, Any] = {}
    errors = []
    try:
        usage = storage.usage(workspace_id=workspace_id)
        figures["active_series"] = usage.get("active_series")
        figures["series_total"] = usage.get("series_total")
        if usage.get("storage_error"):
            errors.append(str(usage["storage_error"]))
    except StorageUnavailable as exc:
        errors.append(exc.detail)
    try:
        stored = storage.stored(workspace_id=workspace_id)
        figures["storage_bytes"] = stored["bytes"]
        figures["stored_samples"] = stored["samples"]
    except StorageUnavailable as exc:
        errors.append(exc.detail)
    figures["storage_error"] = "; ".join(errors) or None
    return figures


storage_figures = _StorageFigures()


def collect(
    db: Session, *, storage: StorageClient, workspace_ids: list[uuid.UUID]
) -> dict[uuid.UUID, WorkspaceUsage]:
    """The usage of each workspace in ``workspace_ids``."""
    if not workspace_ids:
        return {}
    limits.query_counter.flush(db)
    now = datetime.now(UTC)
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    points = dict(
        db.execute(
            select(WorkspaceIngestMinutely.workspace_id, func.sum(WorkspaceIngestMinutely.points))
            .where(WorkspaceIngestMinutely.minute >= midnight)
            .group_by(WorkspaceIngestMinutely.workspace_id)
        )
        .tuples()
        .all()
    )
    queries = dict(
        db.execute(
            select(WorkspaceUsageDaily.workspace_id, WorkspaceUsageDaily.queries).where(
                WorkspaceUsageDaily.day == now.date()
            )
        )
        .tuples()
        .all()
    )
    figures = storage_figures.get(storage, workspace_ids)
    return {
        w: WorkspaceUsage(
            active_series=figures[w].get("active_series"),
            series_total=figures[w].get("series_total"),
            points_today=int(points.get(w) or 0),
            queries_today=int(queries.get(w) or 0),
            storage_bytes=figures[w].get("storage_bytes"),
            stored_samples=figures[w].get("stored_samples"),
            storage_error=figures[w].get("storage_error"),
        )
        for w in workspace_ids
    }


def top(
    usage: dict[uuid.UUID, WorkspaceUsage], metric: str, n: int = 5
) -> list[tuple[uuid.UUID, int]]:
    """The ``n`` workspaces with the most of ``metric`` (those with none left out)."""
    ranked = [(w, v) for w, u in usage.items() if (v := u.get(metric))]
    ranked.sort(key=lambda wv: (-wv[1], str(wv[0])))
    return ranked[:n]
