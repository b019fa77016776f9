"""What fired: alert events (every transition), the alerts active now, and notifications."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.alerting.silencing import muting
from app.core.errors import NotFound
from app.models import AlertEvent, Monitor, MonitorGroup, Notification
from app.services import silences


def list_events(
    db: Session,
    *,
    workspace_id: uuid.UUID,
    monitor_id: uuid.UUID | None = None,
    query_text: str | None = None,
    kinds: list[str] | None = None,
    severities: list[str] | None = None,
    tags: dict[str, str] | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    limit: int = 100,
    offset: int = 0,
) -> tuple[list[AlertEvent], int]:
    """Events newest first. ``tags`` keeps events whose group has every tag given."""
    query = select(AlertEvent).where(AlertEvent.workspace_id == workspace_id)
    if monitor_id is not None:
        query = query.where(AlertEvent.monitor_id == monitor_id)
    if query_text is not None:
        query = query.where(AlertEvent.query == query_text)
    if kinds:
        query = query.where(AlertEvent.kind.in_(kinds))
    if severities:
        query = query.where(AlertEvent.severity.in_(severities))
    if tags:
        query = query.where(AlertEvent.tags.contains(tags))
    if since is not None:
        query = query.where(AlertEvent.at >= since)
    if until is not None:
        query = query.where(AlertEvent.at < until)
    count = db.scalar(select(func.count()).select_from(query.subquery())) or 0
    rows = db.scalars(
        query.order_by(AlertEvent.at.desc(), AlertEvent.id).limit(limit).offset(offset)
    ).all()
    return list(rows), count


def get_event(db: Session, *, workspace_id: uuid.UUID, event_id: uuid.UUID) -> AlertEvent:
    row = db.get(AlertEvent, event_id)
    if row is None or row.workspace_id != workspace_id:
        raise NotFound("Alert event not found")
    return row


def notifications_of(db: Session, *, event_id: uuid.UUID) -> list[Notification]:
    return list(
        db.scalars(
            select(Notification)
            .where(Notification.event_id == event_id)
            .order_by(Notification.created_at, Notification.channel_name)
        ).all()
    )


def list_notifications(
    db: Session,
    *,
    workspace_id: uuid.UUID,
    status: str | None = None,
    channel_id: uuid.UUID | None = None,
    limit: int = 100,
    offset: int = 0,
) -> tuple[list[Notification], int]:
    query = select(Notification).where(Notification.workspace_id == workspace_id)
    if status:
        query = query.where(Notification.status == status)
    if channel_id:
        query = query.where(Notification.channel_id == channel_id)
    count = db.scalar(select(func.count()).select_from(query.subquery())) or 0
    rows = db.scalars(
        query.order_by(Notification.created_at.desc(), Notification.id).limit(limit).offset(offset)
    ).all()
    return list(rows), count


def active(db: Session, *, workspace_id: uuid.UUID) -> list[dict[str, object]]:
    """Every group pending, firing or without data, worst first."""
    now = datetime.now(UTC)
    rows = db.execute(
        select(MonitorGroup, Monitor.name)
        .join(Monitor, Monitor.id == MonitorGroup.monitor_id)
        .where(
            MonitorGroup.workspace_id == workspace_id,
            MonitorGroup.state.in_(("pending", "firing", "nodata")),
            Monitor.enabled,
        )
    ).tuples()
    active_silences = silences.in_effect(db, workspace_id=workspace_id, now=now)
    out: list[dict[str, object]] = [
        {
            "monitor_id": g.monitor_id,
            "monitor_name": name,
            "group_key": g.group_key,
            "tags": g.tags,
            "state": g.state,
            "severity": g.severity,
            "value": g.value,
            "since": g.since,
            "muted": muting(active_silences, g.monitor_id, g.tags, now) is not None,
        }
        for g, name in rows
    ]
    order = {"firing": 0, "nodata": 1, "pending": 2}
    sev = {"critical": 0, "error": 1, "warning": 2, "info": 3}
    out.sort(
        key=lambda a: (
            order[str(a["state"])],
            sev.get(str(a["severity"]), 9),
            str(a["monitor_name"]),
        )
    )
    return out


def summary(db: Session, *, workspace_id: uuid.UUID) -> dict[str, object]:
    rows = db.execute(
        select(MonitorGroup.state, MonitorGroup.severity, func.count())
        .join(Monitor, Monitor.id == MonitorGroup.monitor_id)
        .where(
            MonitorGroup.workspace_id == workspace_id,
            MonitorGroup.state.in_(("pending", "firing", "nodata")),
            Monitor.enabled,
        )
        .group_by(MonitorGroup.state, MonitorGroup.severity)
    ).tuples()
    firing = pending = 0
    by_severity: dict[str, int] = {}
    for st, severity, n in rows:
        if st == "pending":
            pending += n
            continue
        firing += n
        key = severity if st == "firing" and severity else "nodata"
        by_severity[key] = by_severity.get(key, 0) + n
    failed = db.scalar(
        select(func.count())
        .select_from(Notification)
        .where(
            Notification.workspace_id == workspace_id,
            Notification.status.in_(("failed", "throttled")),
            Notification.created_at >= datetime.now(UTC) - timedelta(hours=24),
        )
    )
    return {
        "firing": firing,
        "pending": pending,
        "by_severity": by_severity,
        "failed_notifications": int(failed or 0),
    }
