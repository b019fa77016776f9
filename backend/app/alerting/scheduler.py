"""Evaluating due monitors, safely from any number of evaluator processes.

A worker claims one due monitor with ``SELECT … FOR UPDATE SKIP LOCKED`` and holds that row
lock while it queries storage and writes the outcome — group states, alert events and
notification rows — in the same transaction, then moves ``next_eval_at`` on. Another
evaluator skips a locked monitor, so each evaluation, event and notification happens once; a
process that dies mid-evaluation rolls its transaction back and the monitor is evaluated
again from the state it had, so a restart neither loses nor repeats a transition.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import cast

from sqlalchemy import Table, delete, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from app.alerting import evaluate, notify, state
from app.alerting.conditions import Condition
from app.alerting.results import QueryFailed
from app.alerting.silencing import muting
from app.clients.storage import StorageClient
from app.models import Monitor, MonitorGroup, Notification, Workspace
from app.services import monitors as monitors_service
from app.services import silences

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Evaluated:
    monitor_id: uuid.UUID
    workspace_id: uuid.UUID
    groups: int
    transitions: int
    notifications: list[uuid.UUID]
    lag_seconds: float
    seconds: float
    error: str | None


def rules_of(m: Monitor) -> state.Rules:
    return state.Rules(
        conditions=tuple(
            Condition(
                c["severity"],
                c["op"],
                float(c["threshold"]),
                None if c.get("threshold2") is None else float(c["threshold2"]),
            )
            for c in m.conditions
        ),
        for_seconds=m.for_seconds,
        group_grace_seconds=m.group_grace_seconds,
        new_group_delay_seconds=m.new_group_delay_seconds,
        no_data_action=m.no_data.get("action", "keep"),
        no_data_after_seconds=int(m.no_data.get("after_seconds", 600)),
        no_data_severity=m.no_data.get("severity", "warning"),
        renotify_seconds=m.renotify_minutes * 60 if m.renotify_minutes else None,
        notify_resolved=m.notify_resolved,
    )


GROUP_FIELDS = (
    "tags",
    "state",
    "severity",
    "value",
    "since",
    "first_seen_at",
    "last_seen_at",
    "notified",
    "last_notified_at",
)


def load_groups(db: Session, monitor_id: uuid.UUID) -> dict[str, state.Group]:
    """The monitor's groups as they are in the database now (plain rows, no identity map)."""
    table = cast(Table, MonitorGroup.__table__)
    rows = db.execute(
        select(table.c.group_key, *(table.c[f] for f in GROUP_FIELDS)).where(
            table.c.monitor_id == monitor_id
        )
    ).mappings()
    return {
        r["group_key"]: state.Group(key=r["group_key"], **{f: r[f] for f in GROUP_FIELDS})
        for r in rows
    }


def store_groups(
    db: Session, monitor: Monitor, groups: dict[str, state.Group], removed: Iterable[str]
) -> None:
    """Every group of the monitor in one upsert (one round trip however many groups), and the
    removed ones in one delete."""
    table = cast(Table, MonitorGroup.__table__)
    if groups:
        stmt = pg_insert(table).values(
            [
                {
                    "monitor_id": monitor.id,
                    "group_key": key,
                    "workspace_id": monitor.workspace_id,
                    **{f: getattr(g, f) for f in GROUP_FIELDS},
                }
                for key, g in groups.items()
            ]
        )
        db.execute(
            stmt.on_conflict_do_update(
                index_elements=[table.c.monitor_id, table.c.group_key],
                set_={f: stmt.excluded[f] for f in GROUP_FIELDS},
            )
        )
    gone = list(removed)
    if gone:
        db.execute(
            delete(table).where(table.c.monitor_id == monitor.id, table.c.group_key.in_(gone))
        )


def claim_due(db: Session, now: datetime) -> Monitor | None:
    """Lock and return the most overdue enabled monitor of a workspace neither deleted nor
    suspended, or None."""
    return db.scalar(
        select(Monitor)
        .join(Workspace, Workspace.id == Monitor.workspace_id)
        .where(Monitor.enabled, Monitor.next_eval_at <= now, Workspace.serving())
        .order_by(Monitor.next_eval_at)
        .limit(1)
        .with_for_update(skip_locked=True, of=Monitor)
        .execution_options(populate_existing=True)
    )


def next_due(db: Session) -> datetime | None:
    """When the next monitor ``claim_due`` would take is due (None: none)."""
    return db.scalar(
        select(Monitor.next_eval_at)
        .join(Workspace, Workspace.id == Monitor.workspace_id)
        .where(Monitor.enabled, Workspace.serving())
        .order_by(Monitor.next_eval_at)
        .limit(1)
    )


def evaluate_monitor(
    db: Session, query_db: Session, storage: StorageClient, monitor: Monitor, now: datetime
) -> Evaluated:
    """One evaluation of a claimed monitor, written to ``db`` (the caller commits). The query
    runs with ``query_db``: the query path counts usage and commits on its own, which must not
    end the transaction that holds the monitor's lock."""
    started = time.perf_counter()
    lag = (now - monitor.next_eval_at).total_seconds()
    error: str | None = None
    transitions: list[state.Transition] = []
    notes: list[Notification] = []
    groups = 0
    try:
        observed = evaluate.observe(
            query_db,
            storage,
            workspace_id=monitor.workspace_id,
            spec=monitors_service.spec_of(monitor),
            at=now,
        )
    except QueryFailed as exc:
        error = f"{exc.code}: {exc.message}"[:2000]
        log.warning("monitor %s: evaluation failed: %s", monitor.id, error)
    else:
        groups, transitions, notes = _apply(db, monitor, observed, now)
    monitor.last_error = error
    monitor.last_eval_at = now
    monitor.last_lag_ms = max(0.0, lag * 1000)
    monitor.last_eval_ms = (time.perf_counter() - started) * 1000
    interval = timedelta(seconds=monitor.interval_seconds)
    nxt = monitor.next_eval_at + interval
    monitor.next_eval_at = nxt if nxt > now else now + interval
    return Evaluated(
        monitor.id,
        monitor.workspace_id,
        groups,
        len(transitions),
        [n.id for n in notes if n.status == "pending"],
        lag,
        time.perf_counter() - started,
        error,
    )


def _apply(
    db: Session, monitor: Monitor, observed: dict[str, state.Observation], now: datetime
) -> tuple[int, list[state.Transition], list[Notification]]:
    groups = load_groups(db, monitor.id)
    rules = rules_of(monitor)
    data_since = monitor.last_data_at or monitor.updated_at
    out = state.step(rules, groups, observed, now, data_since=data_since)
    active = silences.in_effect(db, workspace_id=monitor.workspace_id, now=now)

    def muted(g: state.Group) -> uuid.UUID | None:
        s = muting(active, monitor.id, g.tags, now)
        return s.id if s is not None else None

    notices = state.notices(rules, out, muted, now)
    store_groups(db, monitor, out.groups, (k for k in out.removed if k in groups))
    events = {}
    for t in out.transitions:
        g = out.groups.get(t.key) or out.removed[t.key]
        event = notify.event_row(monitor, t, now, muted_by=muted(g), details={})
        db.add(event)
        events[t.key] = event
    workspace = db.get(Workspace, monitor.workspace_id)
    assert workspace is not None
    notes = notify.notification_rows(
        db, monitor=monitor, workspace=workspace, notices=notices, events=events, now=now
    )
    db.add_all(notes)
    if any(o.value is not None for o in observed.values()):
        monitor.last_data_at = now
    return len(observed), out.transitions, notes


def run_once(
    db: Session, query_db: Session, storage: StorageClient, now: datetime | None = None
) -> Evaluated | None:
    """Claim and evaluate one due monitor, committing; None when none is due."""
    now = now or datetime.now(UTC)
    db.expire_all()  # what this session read before may have changed since
    monitor = claim_due(db, now)
    if monitor is None:
        db.rollback()
        return None
    try:
        result = evaluate_monitor(db, query_db, storage, monitor, now)
        db.commit()
    except Exception:
        db.rollback()
        raise
    return result
