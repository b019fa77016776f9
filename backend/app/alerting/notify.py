"""From the state machine's notices to notification rows (the outbox), in the evaluation's
transaction: routed by severity to the monitor's channels, rendered from its templates,
counted against the workspace's notifications-per-hour limit (over it: recorded as throttled,
never dropped silently)."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.alerting import delivery
from app.alerting.conditions import fmt
from app.alerting.state import Group, Notice, Transition
from app.alerting.templates import describe_tags, render
from app.models import AlertEvent, Channel, Monitor, Notification, Workspace, WorkspaceLimits

STATUS_WORDS = {
    "pending": "pending",
    "firing": "firing",
    "renotify": "still firing",
    "resolved": "resolved",
    "ok": "ok",
    "nodata": "without data",
}


def template_values(
    monitor: Monitor,
    *,
    status: str,
    severity: str | None,
    value: float | None,
    condition: str,
    tags: Mapping[str, str],
    at: datetime,
    url: str,
) -> dict[str, str]:
    return {
        "monitor": monitor.name,
        "status": STATUS_WORDS.get(status, status),
        "severity": severity or "ok",
        "value": fmt(value),
        "condition": condition or "no condition holds",
        "query": monitor.query,
        "time": delivery.iso(at) or "",
        "tags": describe_tags(tags),
        "url": url,
    }


def rendered(monitor: Monitor, values: dict[str, str], tags: Mapping[str, str]) -> tuple[str, str]:
    title = render(monitor.title, values, tags)[:300]
    message = render(monitor.message, values, tags)[:4000]
    if monitor.runbook_url and "runbook" not in monitor.message:
        message += f"\nRunbook: {monitor.runbook_url}"
    return title, message


def event_row(
    monitor: Monitor,
    t: Transition,
    at: datetime,
    *,
    muted_by: uuid.UUID | None,
    details: dict[str, Any],
) -> AlertEvent:
    event_id = uuid.uuid4()
    url = delivery.links(monitor.workspace_id, monitor_id=monitor.id, event_id=event_id)["alert"]
    values = template_values(
        monitor,
        status=t.kind,
        severity=t.severity,
        value=t.value,
        condition=t.condition,
        tags=t.tags,
        at=at,
        url=url,
    )
    title, message = rendered(monitor, values, t.tags)
    return AlertEvent(
        id=event_id,
        workspace_id=monitor.workspace_id,
        monitor_id=monitor.id,
        monitor_name=monitor.name,
        group_key=t.key,
        tags=t.tags,
        kind=t.kind,
        from_state=t.from_state,
        to_state=t.to_state,
        severity=t.severity,
        value=t.value,
        condition=t.condition,
        language=monitor.language,
        query=monitor.query,
        title=title,
        message=message,
        at=at,
        muted=muted_by is not None,
        silence_id=muted_by,
        details={"reason": t.reason, **details},
    )


def sent_last_hour(db: Session, workspace_id: uuid.UUID, now: datetime) -> int:
    return int(
        db.scalar(
            select(func.count())
            .select_from(Notification)
            .where(
                Notification.workspace_id == workspace_id,
                Notification.created_at >= now - timedelta(hours=1),
                Notification.status != "throttled",
                Notification.kind != "test",
            )
        )
        or 0
    )


def notification_rows(
    db: Session,
    *,
    monitor: Monitor,
    workspace: Workspace,
    notices: Sequence[Notice],
    events: Mapping[str, AlertEvent],
    now: datetime,
) -> list[Notification]:
    """One row per notice and channel of its severity's route."""
    if not notices:
        return []
    wanted = {uuid.UUID(str(c)) for ids in monitor.routes.values() for c in ids}
    channels = {
        c.id: c
        for c in db.scalars(
            select(Channel).where(
                Channel.workspace_id == monitor.workspace_id, Channel.id.in_(wanted)
            )
        ).all()
    }
    limits = db.get(WorkspaceLimits, monitor.workspace_id)
    budget = (limits.max_notifications_per_hour if limits else 0) - sent_last_hour(
        db, monitor.workspace_id, now
    )
    rows: list[Notification] = []
    for notice in notices:
        event = events.get(notice.key) if notice.transition is not None else None
        for cid in monitor.routes.get(notice.severity, []):
            channel = channels.get(uuid.UUID(str(cid)))
            if channel is None or not channel.enabled:
                continue
            row = _row(monitor, workspace, notice, event, channel, now)
            if budget <= 0:
                row.status = "throttled"
                row.last_error = (
                    "not sent: the workspace sent its limit of "
                    f"{limits.max_notifications_per_hour if limits else 0} notifications in the "
                    "last hour (max_notifications_per_hour)"
                )
            budget -= 1
            rows.append(row)
    return rows


def _row(
    monitor: Monitor,
    workspace: Workspace,
    notice: Notice,
    event: AlertEvent | None,
    channel: Channel,
    now: datetime,
) -> Notification:
    g: Group = notice.group
    nid = uuid.uuid4()
    event_id = event.id if event is not None else None
    window_end = int(now.timestamp() * 1000)
    window_start = window_end - max(monitor.window_seconds, 3600) * 1000
    link = delivery.links(
        monitor.workspace_id,
        monitor_id=monitor.id,
        event_id=event_id,
        explore=(monitor.language, monitor.query, window_start, window_end),
    )
    value = g.value if notice.kind != "nodata" else None
    condition = event.condition if event is not None else ""
    values = template_values(
        monitor,
        status=notice.kind,
        severity=notice.severity,
        value=value,
        condition=condition,
        tags=g.tags,
        at=now,
        url=link.get("alert", link["monitor"]),
    )
    title, message = rendered(monitor, values, g.tags)
    payload = delivery.alert_payload(
        notification_id=nid,
        kind=notice.kind,
        severity=notice.severity,
        title=title,
        message=message,
        workspace=workspace,
        monitor={
            "id": str(monitor.id),
            "name": monitor.name,
            "language": monitor.language,
            "query": monitor.query,
            "runbook_url": monitor.runbook_url,
        },
        group_key=g.key,
        tags=g.tags,
        value=value,
        condition=condition,
        since=g.since,
        event=(
            {"id": str(event.id), "kind": event.kind, "at": delivery.iso(event.at)}
            if event is not None
            else None
        ),
        links=link,
    )
    return Notification(
        id=nid,
        workspace_id=monitor.workspace_id,
        channel_id=channel.id,
        channel_name=channel.name,
        event_id=event_id,
        monitor_id=monitor.id,
        kind=notice.kind,
        status="pending",
        next_attempt_at=now,
        payload=payload,
        created_at=datetime.now(UTC),
    )
