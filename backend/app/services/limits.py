"""Workspace limits and usage figures."""

from __future__ import annotations

import threading
import time
import uuid
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from app.clients.storage import QueryLimits, StorageClient
from app.core.errors import NotFound, StorageUnavailable
from app.models import (
    WorkspaceIngestMinutely,
    WorkspaceIngestParked,
    WorkspaceLimits,
    WorkspaceUsageDaily,
)
from app.services import plans
from app.services.audit import Actor


def get_limits(db: Session, *, workspace_id: uuid.UUID) -> WorkspaceLimits:
    limits = db.get(WorkspaceLimits, workspace_id)
    if limits is None:
        raise NotFound("Workspace limits not found")
    return limits


def query_limits(db: Session, *, workspace_id: uuid.UUID) -> QueryLimits:
    limits = get_limits(db, workspace_id=workspace_id)
    return QueryLimits(
        timeout_seconds=limits.query_timeout_seconds,
        max_points=limits.max_points_per_query,
        retention_days=limits.retention_days,
        concurrent_queries=limits.concurrent_queries,
    )


def update_limits(
    db: Session, *, workspace_id: uuid.UUID, changes: dict[str, Any], actor: Actor
) -> WorkspaceLimits:
    """Change limits, each within the workspace's plan (422 ``plan_ceiling`` otherwise)."""
    plans.check_within(plans.plan_of(db, workspace_id=workspace_id), changes)
    limits = get_limits(db, workspace_id=workspace_id)
    plans.set_limits(db, limits=limits, values=changes, actor=actor)
    db.commit()
    return limits


class QueryCounter:
    """Per-workspace query counts, kept in memory and added to the database in batches.

    A commit per query would cost more than the rest of the request; instead the first
    request after ``FLUSH_SECONDS`` writes what accumulated (one upsert per workspace), and
    usage reads and shutdown flush too. Several processes each add their own counts.
    """

    FLUSH_SECONDS = 5.0

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: dict[tuple[uuid.UUID, date], int] = {}
        self._last_flush = time.monotonic()

    def add(self, db: Session, *, workspace_id: uuid.UUID) -> None:
        if self.count(workspace_id=workspace_id):
            self.flush(db)

    def count(self, *, workspace_id: uuid.UUID) -> bool:
        """Count one query; True when the counts are due to be written (``flush``)."""
        key = (workspace_id, datetime.now(UTC).date())
        with self._lock:
            self._pending[key] = self._pending.get(key, 0) + 1
            return time.monotonic() - self._last_flush >= self.FLUSH_SECONDS

    def flush(self, db: Session) -> None:
        with self._lock:
            pending, self._pending = self._pending, {}
            self._last_flush = time.monotonic()
        if not pending:
            return
        try:
            for (workspace_id, day), count in sorted(pending.items()):
                stmt = insert(WorkspaceUsageDaily).values(
                    workspace_id=workspace_id, day=day, queries=count
                )
                db.execute(
                    stmt.on_conflict_do_update(
                        index_elements=[WorkspaceUsageDaily.workspace_id, WorkspaceUsageDaily.day],
                        set_={"queries": WorkspaceUsageDaily.queries + count},
                    )
                )
            db.commit()
        except Exception:
            db.rollback()
            with self._lock:  # keep the counts for the next flush
                for key, count in pending.items():
                    self._pending[key] = self._pending.get(key, 0) + count
            raise


query_counter = QueryCounter()


def count_query(db: Session, *, workspace_id: uuid.UUID) -> None:
    """Count one query of the workspace towards today's usage."""
    query_counter.add(db, workspace_id=workspace_id)


def points_since(db: Session, *, workspace_id: uuid.UUID, since: datetime) -> int:
    """Points the ingest gateway accepted since ``since`` (its per-minute counts: a line of
    line protocol, a remote_write sample, the unit of the ingest limit)."""
    total = db.scalar(
        select(func.coalesce(func.sum(WorkspaceIngestMinutely.points), 0)).where(
            WorkspaceIngestMinutely.workspace_id == workspace_id,
            WorkspaceIngestMinutely.minute >= since,
        )
    )
    return int(total or 0)


def ingest_rate(
    db: Session, *, workspace_id: uuid.UUID, start: int, end: int, step: int
) -> list[dict[str, float]]:
    """Points/s the gateway accepted per ``step`` seconds within [start, end) (epoch seconds),
    each interval at its start; the one in progress is averaged over its elapsed part."""
    bucket = func.floor(func.extract("epoch", WorkspaceIngestMinutely.minute) / step) * step
    rows = db.execute(
        select(bucket.label("t"), func.sum(WorkspaceIngestMinutely.points))
        .where(
            WorkspaceIngestMinutely.workspace_id == workspace_id,
            WorkspaceIngestMinutely.minute >= datetime.fromtimestamp(start, UTC),
            WorkspaceIngestMinutely.minute < datetime.fromtimestamp(end, UTC),
        )
        .group_by("t")
        .order_by("t")
    ).tuples()
    now = time.time()
    out = []
    for t, points in rows:
        elapsed = max(1.0, min(float(step), now - float(t)))
        out.append({"t": int(t) * 1000, "value": float(points) / elapsed})
    return out


def usage(db: Session, *, workspace_id: uuid.UUID, storage: StorageClient) -> dict[str, Any]:
    query_counter.flush(db)
    today = datetime.now(UTC).date()
    queries = db.scalar(
        select(WorkspaceUsageDaily.queries).where(
            WorkspaceUsageDaily.workspace_id == workspace_id, WorkspaceUsageDaily.day == today
        )
    )
    result: dict[str, Any] = {
        "queries_today": queries or 0,
        "active_series": None,
        "series_total": None,
        "points_today": None,
        "series_limit_dropped_points": None,
    }
    midnight = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    result["points_today"] = points_since(db, workspace_id=workspace_id, since=midnight)
    parked = db.get(WorkspaceIngestParked, workspace_id)
    if parked is not None:
        result.update(
            ingest_parked_batches=parked.batches,
            ingest_parked_points=parked.points,
            ingest_parked_last_reason=parked.last_reason,
            ingest_parked_last_at=parked.last_at,
        )
    try:
        result.update(storage.usage(workspace_id=workspace_id))
    except StorageUnavailable as exc:
        result["storage_error"] = exc.detail
    return result


USAGE_HISTORY_POINTS = 120
USAGE_HISTORY_TIMEOUT_SECONDS = 15


def history_step(hours: int) -> int:
    """Seconds per point so that ``hours`` fit in about 120 points, in whole minutes."""
    raw = hours * 3600 // USAGE_HISTORY_POINTS
    return max(60, (raw + 59) // 60 * 60)


def usage_history(
    db: Session, *, workspace_id: uuid.UUID, storage: StorageClient, hours: int
) -> dict[str, Any]:
    """Over the last ``hours``: the ingest rate (the gateway's counts), active series (storage's
    counts at ingest), queries per day."""
    query_counter.flush(db)
    step = history_step(hours)
    # Round the end up to a whole step so the interval in progress (the newest points) is shown.
    end = -(-int(time.time()) // step) * step
    start = end - hours * 3600
    result: dict[str, Any] = {
        "start": start * 1000,
        "end": end * 1000,
        "step_seconds": step,
        "ingest_rate": [],
        "active_series": [],
    }
    first_day = datetime.fromtimestamp(start, UTC).date()
    last_day = datetime.now(UTC).date()
    rows = db.execute(
        select(WorkspaceUsageDaily.day, WorkspaceUsageDaily.queries).where(
            WorkspaceUsageDaily.workspace_id == workspace_id,
            WorkspaceUsageDaily.day >= first_day,
            WorkspaceUsageDaily.day <= last_day,
        )
    ).tuples()
    counted = {day: queries for day, queries in rows}
    days = (last_day - first_day).days + 1
    result["queries_per_day"] = [
        {"day": d, "queries": counted.get(d, 0)}
        for d in (first_day + timedelta(days=i) for i in range(days))
    ]
    result["ingest_rate"] = ingest_rate(
        db, workspace_id=workspace_id, start=start, end=end, step=step
    )
    try:
        result["active_series"] = [
            {"t": t, "value": v}
            for t, v in storage.active_series_history(
                workspace_id=workspace_id,
                start=start,
                end=end,
                step=step,
                timeout_seconds=USAGE_HISTORY_TIMEOUT_SECONDS,
            )
        ]
    except StorageUnavailable as exc:
        result["storage_error"] = exc.detail
    return result
