"""Alert events (every transition), active alerts and notifications."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.alerting.conditions import Severity


class AlertEventPublic(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: uuid.UUID
    monitor_id: uuid.UUID | None
    monitor_name: str
    group_key: str
    tags: dict[str, str]
    kind: Literal["pending", "firing", "resolved", "ok", "nodata"]
    from_state: str
    to_state: str
    severity: Severity | None
    value: float | None
    condition: str
    language: str
    query: str
    title: str
    message: str
    at: datetime
    muted: bool
    silence_id: uuid.UUID | None
    details: dict[str, Any]


class AlertEventsPublic(BaseModel):
    data: list[AlertEventPublic]
    count: int


class NotificationPublic(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: uuid.UUID = Field(description="Also the idempotency key the receiver sees")
    channel_id: uuid.UUID | None
    channel_name: str
    event_id: uuid.UUID | None
    monitor_id: uuid.UUID | None
    kind: Literal["firing", "renotify", "resolved", "nodata", "test"]
    status: Literal["pending", "sent", "failed", "throttled"]
    attempts: int
    next_attempt_at: datetime
    last_error: str | None
    created_at: datetime
    sent_at: datetime | None


class NotificationsPublic(BaseModel):
    data: list[NotificationPublic]
    count: int


class AlertEventDetail(AlertEventPublic):
    notifications: list[NotificationPublic]


class ActiveAlert(BaseModel):
    monitor_id: uuid.UUID
    monitor_name: str
    group_key: str
    tags: dict[str, str]
    state: Literal["pending", "firing", "nodata"]
    severity: Severity | None
    value: float | None
    since: datetime
    muted: bool


class ActiveAlertsPublic(BaseModel):
    data: list[ActiveAlert]
    count: int


class AlertSummary(BaseModel):
    firing: int = Field(description="Groups firing or without data (the badge)")
    pending: int
    by_severity: dict[str, int]
    failed_notifications: int = Field(
        description="Notifications that could not be delivered in the last 24 h"
    )
