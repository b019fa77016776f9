"""The retention sweep: each workspace's points older than its retention are deleted from
storage, on a schedule.

Queries never read past a workspace's retention (storage refuses or moves them); the sweep
also removes the data. Every ``VIGIL_RETENTION_SWEEP_INTERVAL_SECONDS`` a backend process
asks storage, workspace by workspace, to delete the points older than now − the workspace's
retention (``POST /internal/v1/retention``). Storage can only delete whole series, so it
rewrites the series that still go on; to pay for that once in a while rather than every hour,
a series is rewritten only once it holds points older than the retention plus
``VIGIL_RETENTION_GRACE_PERCENT`` of it (10 %: a 30-day workspace's points are gone from disk
by day 33, and unreadable from day 30).

Several backend processes may run: a sweep holds a PostgreSQL advisory lock, so one process
sweeps at a time and the others skip that round; each workspace's last sweep is recorded in
``workspace_retention_sweeps`` and a workspace swept within the interval is skipped; and
storage serializes runs per workspace, which find nothing left to delete when repeated. Any
copy may therefore crash or run twice without harm.
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import select, text
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from app.clients.storage import StorageClient
from app.core.config import settings
from app.core.db import get_engine, get_sessionmaker
from app.core.errors import StorageUnavailable
from app.models import Workspace, WorkspaceLimits, WorkspaceRetentionSweep

logger = logging.getLogger(__name__)

# pg_try_advisory_lock key of the sweep (any constant shared by every backend process)
LOCK_KEY = 0x76_69_67_69_6C_72_74  # "vigilrt"
STORAGE_TIMEOUT_SECONDS = 1800.0

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class Swept:
    """What one workspace's sweep did."""

    workspace_id: uuid.UUID
    cutoff: datetime
    series: int = 0
    kept_points: int = 0
    error: str | None = None


def cutoffs(now: datetime, retention_days: int, grace_percent: int) -> tuple[datetime, datetime]:
    """(before, older_than): points before ``before`` are deleted, from the series that hold
    a point before ``older_than``."""
    retention = timedelta(days=retention_days)
    return now - retention, now - retention * (1 + grace_percent / 100)


def sweep(
    storage: StorageClient,
    *,
    clock: Clock = utc_now,
    interval: timedelta | None = None,
    grace_percent: int | None = None,
) -> list[Swept] | None:
    """One sweep over every workspace; None when another process holds the sweep's lock."""
    interval = interval or timedelta(seconds=settings.RETENTION_SWEEP_INTERVAL_SECONDS)
    grace = settings.RETENTION_GRACE_PERCENT if grace_percent is None else grace_percent
    with get_engine().connect() as lock_conn:
        if not lock_conn.execute(text("SELECT pg_try_advisory_lock(:k)"), {"k": LOCK_KEY}).scalar():
            logger.info("retention sweep skipped: another process is sweeping")
            return None
        try:
            with get_sessionmaker()() as db:
                return _sweep(db, storage, clock=clock, interval=interval, grace=grace)
        finally:
            lock_conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": LOCK_KEY})
            lock_conn.commit()


def _sweep(
    db: Session, storage: StorageClient, *, clock: Clock, interval: timedelta, grace: int
) -> list[Swept]:
    now = clock()
    rows = db.execute(
        select(
            WorkspaceLimits.workspace_id,
            WorkspaceLimits.retention_days,
            WorkspaceRetentionSweep.swept_at,
        )
        .join(Workspace, Workspace.id == WorkspaceLimits.workspace_id)
        .outerjoin(
            WorkspaceRetentionSweep,
            WorkspaceRetentionSweep.workspace_id == WorkspaceLimits.workspace_id,
        )
        .where(Workspace.deleted_at.is_(None))
        .order_by(WorkspaceLimits.workspace_id)
    ).tuples()
    due = [
        (ws, days) for ws, days, swept_at in rows if swept_at is None or swept_at <= now - interval
    ]
    db.rollback()  # no transaction held while storage works
    out: list[Swept] = []
    for workspace_id, retention_days in due:
        before, older_than = cutoffs(now, retention_days, grace)
        try:
            done = storage.delete_older(
                workspace_id=workspace_id,
                before=before.timestamp(),
                older_than=older_than.timestamp(),
                timeout=STORAGE_TIMEOUT_SECONDS,
            )
        except StorageUnavailable as exc:
            logger.warning("retention sweep of workspace %s failed: %s", workspace_id, exc.detail)
            out.append(Swept(workspace_id, before, error=exc.detail))
            continue
        swept = Swept(workspace_id, before, done["series"], done["kept_points"])
        out.append(swept)
        stmt = insert(WorkspaceRetentionSweep).values(
            workspace_id=workspace_id,
            swept_at=now,
            cutoff=before,
            series=swept.series,
            kept_points=swept.kept_points,
        )
        db.execute(
            stmt.on_conflict_do_update(
                index_elements=[WorkspaceRetentionSweep.workspace_id],
                set_={
                    "swept_at": stmt.excluded.swept_at,
                    "cutoff": stmt.excluded.cutoff,
                    "series": stmt.excluded.series,
                    "kept_points": stmt.excluded.kept_points,
                },
            )
        )
        db.commit()
        if swept.series:
            logger.info(
                "retention: deleted the points of workspace %s older than %s (%d series rewritten, "
                "%d points kept)",
                workspace_id,
                before.isoformat(),
                swept.series,
                swept.kept_points,
            )
    return out


class Sweeper:
    """Runs ``sweep`` every interval on a thread of its own until stopped."""

    def __init__(
        self, storage: StorageClient, *, interval_seconds: float, first_delay: float
    ) -> None:
        self._storage = storage
        self._interval = interval_seconds
        self._first_delay = first_delay
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="retention-sweep", daemon=True)

    def start(self) -> Sweeper:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        delay = self._first_delay
        while not self._stop.wait(delay):
            delay = self._interval
            try:
                sweep(self._storage)
            except Exception:  # noqa: BLE001 - the next round tries again; the cause is logged
                logger.exception("retention sweep failed")


def start_sweeper(storage: StorageClient) -> Sweeper:
    return Sweeper(
        storage,
        interval_seconds=settings.RETENTION_SWEEP_INTERVAL_SECONDS,
        first_delay=settings.RETENTION_SWEEP_FIRST_DELAY_SECONDS,
    ).start()
