"""Alerts: what fires now, every transition (events), and the notifications sent."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Query

from app.api.deps import SessionDep, WorkspaceContext, WorkspaceDep
from app.core.errors import InvalidValue
from app.core.permissions import Permission
from app.schemas.alert import (
    ActiveAlert,
    ActiveAlertsPublic,
    AlertEventDetail,
    AlertEventPublic,
    AlertEventsPublic,
    AlertSummary,
    NotificationPublic,
    NotificationsPublic,
)
from app.schemas.common import ERROR_RESPONSES
from app.services import alerts

router = APIRouter(
    prefix="/workspaces/{workspace_id}/alerts", tags=["alerts"], responses=ERROR_RESPONSES
)
Readers = Annotated[WorkspaceContext, WorkspaceDep(Permission.MONITORS_READ)]
Kind = Literal["pending", "firing", "resolved", "ok", "nodata"]
SeverityParam = Literal["critical", "error", "warning", "info"]


def _tags(tag: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in tag:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise InvalidValue(f"{item!r} is not name=value", field="tag")
        out[name] = value
    return out


@router.get("", response_model=ActiveAlertsPublic)
def read_active(db: SessionDep, ws: Readers) -> ActiveAlertsPublic:
    """Every group pending, firing or without data now, worst first."""
    data = [ActiveAlert.model_validate(a) for a in alerts.active(db, workspace_id=ws.id)]
    return ActiveAlertsPublic(data=data, count=len(data))


@router.get("/summary", response_model=AlertSummary)
def read_summary(db: SessionDep, ws: Readers) -> AlertSummary:
    """How many alerts fire now (the badge), by severity, and undelivered notifications."""
    return AlertSummary.model_validate(alerts.summary(db, workspace_id=ws.id))


@router.get("/events", response_model=AlertEventsPublic)
def read_events(
    db: SessionDep,
    ws: Readers,
    monitor_id: uuid.UUID | None = None,
    query: Annotated[
        str | None,
        Query(max_length=65536, description="Events of monitors whose query is exactly this"),
    ] = None,
    kind: Annotated[list[Kind] | None, Query()] = None,
    severity: Annotated[list[SeverityParam] | None, Query()] = None,
    tag: Annotated[list[str] | None, Query(description="name=value; repeat for more")] = None,
    since: datetime | None = None,
    until: datetime | None = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> AlertEventsPublic:
    """Alert events (every state transition), newest first, filtered."""
    rows, count = alerts.list_events(
        db,
        workspace_id=ws.id,
        monitor_id=monitor_id,
        query_text=query,
        kinds=list(kind or []),
        severities=list(severity or []),
        tags=_tags(tag or []),
        since=since,
        until=until,
        limit=limit,
        offset=offset,
    )
    return AlertEventsPublic(data=[AlertEventPublic.model_validate(r) for r in rows], count=count)


@router.get("/events/{event_id}", response_model=AlertEventDetail)
def read_event(event_id: uuid.UUID, db: SessionDep, ws: Readers) -> AlertEventDetail:
    """One event, with the notifications sent for it and their delivery."""
    row = alerts.get_event(db, workspace_id=ws.id, event_id=event_id)
    notes = [
        NotificationPublic.model_validate(n) for n in alerts.notifications_of(db, event_id=row.id)
    ]
    return AlertEventDetail.model_validate(
        {**AlertEventPublic.model_validate(row).model_dump(), "notifications": notes}
    )


@router.get("/notifications", response_model=NotificationsPublic)
def read_notifications(
    db: SessionDep,
    ws: Readers,
    status: Literal["pending", "sent", "failed", "throttled"] | None = None,
    channel_id: uuid.UUID | None = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> NotificationsPublic:
    """Notifications newest first: sent, waiting for a retry, failed (with why) or throttled."""
    rows, count = alerts.list_notifications(
        db, workspace_id=ws.id, status=status, channel_id=channel_id, limit=limit, offset=offset
    )
    return NotificationsPublic(
        data=[NotificationPublic.model_validate(r) for r in rows], count=count
    )
