"""Monitors, the state of each group they track, and the alert events of their transitions.

A monitor's conditions, no-data policy and routes are typed by ``app.schemas.monitor`` and
validated on write; the evaluator (``app.alerting``) keeps ``monitor_groups`` and appends to
``alert_events`` in the same transaction, so a restart neither loses nor repeats a transition.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
)
from sqlalchemy.dialects.postgresql import JSONB, UUID
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base, timestamp_now, uuid_pk

STATES = ("ok", "pending", "firing", "nodata")
EVENT_KINDS = ("pending", "firing", "resolved", "ok", "nodata")


class Monitor(Base):
    __tablename__ = "monitors"

    id: Mapped[uuid.UUID] = uuid_pk()
    workspace_id: Mapped[uuid.UUID] = mapped_column(
        UUID(as_uuid=True),
        ForeignKey("workspaces.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    )
    name: Mapped[str] = mapped_column(String(200), nullable=False)
    description: Mapped[str] = mapped_column(Text, nullable=False, server_default="")
    language: Mapped[str] = mapped_column(String(8), nullable=False)
    query: Mapped[str] = mapped_column(Text, nullable=False)
    interval_seconds: Mapped[int] = mapped_column(Integer, nullable=False)
    window_seconds: Mapped[int] = mapped_column(Integer, nullable=False)
    reducer: Mapped[str] = mapped_column(String(8), nullable=False)
    conditions: Mapped[list[dict[str, Any]]] = mapped_column(JSONB, nullable=False)
    change: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    for_seconds: Mapped[int] = mapped_column(Integer, nullable=False, server_default="0")
    group_grace_seconds: Mapped[int] = mapped_column(Integer, nullable=False)
    new_group_delay_seconds: Mapped[int] = mapped_column(
        Integer, nullable=False, server_default="0"
    )
    no_data: Mapped[dict[str, Any]] = mapped_column(JSONB, nullable=False)
    routes: Mapped[dict[str, Any]] = mapped_column(JSONB, nullable=False)
    renotify_minutes: Mapped[int | None] = mapped_column(Integer)
    notify_resolved: Mapped[bool] = mapped_column(Boolean, nullable=False, server_default="true")
    title: Mapped[str] = mapped_column(Text, nullable=False)
    message: Mapped[str] = mapped_column(Text, nullable=False)
    runbook_url: Mapped[str | None] = mapped_column(Text)
    enabled: Mapped[bool] = mapped_column(Boolean, nullable=False, server_default="true")
    created_by: Mapped[uuid.UUID | None] = mapped_column(
        UUID(as_uuid=True), ForeignKey("users.id", ondelete="SET NULL")
    )
    created_at: Mapped[datetime] = timestamp_now()
    updated_at: Mapped[datetime] = timestamp_now()
    # Scheduling and the outcome of the last evaluation (written by the evaluator).
    next_eval_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    last_eval_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_eval_ms: Mapped[float | None] = mapped_column(Float)
    last_lag_ms: Mapped[float | None] = mapped_column(Float)
    last_error: Mapped[str | None] = mapped_column(Text)
    last_data_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        CheckConstraint("language IN ('dql', 'promql')", name="language"),
        CheckConstraint("interval_seconds > 0 AND window_seconds > 0", name="positive"),
        Index("ix_monitors_due", "next_eval_at", postgresql_where="enabled"),
    )


class MonitorGroup(Base):
    """What one group of a monitor (one ``BY`` value set) is in now."""

    __tablename__ = "monitor_groups"

    monitor_id: Mapped[uuid.UUID] = mapped_column(
        UUID(as_uuid=True), ForeignKey("monitors.id", ondelete="CASCADE"), primary_key=True
    )
    group_key: Mapped[str] = mapped_column(Text, primary_key=True)
    workspace_id: Mapped[uuid.UUID] = mapped_column(
        UUID(as_uuid=True), ForeignKey("workspaces.id", ondelete="CASCADE"), nullable=False
    )
    tags: Mapped[dict[str, str]] = mapped_column(JSONB, nullable=False)
    state: Mapped[str] = mapped_column(String(8), nullable=False)
    severity: Mapped[str | None] = mapped_column(String(8))
    value: Mapped[float | None] = mapped_column(Float)
    since: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    first_seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    last_seen_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # the severity (or "nodata") people were last told of; None: nobody was told
    notified: Mapped[str | None] = mapped_column(String(8))
    last_notified_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        CheckConstraint("state IN ('ok', 'pending', 'firing', 'nodata')", name="state"),
        Index("ix_monitor_groups_workspace_state", "workspace_id", "state"),
    )


class AlertEvent(Base):
    """One transition of one group, with the value and query that caused it."""

    __tablename__ = "alert_events"

    id: Mapped[uuid.UUID] = uuid_pk()
    workspace_id: Mapped[uuid.UUID] = mapped_column(
        UUID(as_uuid=True), ForeignKey("workspaces.id", ondelete="CASCADE"), nullable=False
    )
    monitor_id: Mapped[uuid.UUID | None] = mapped_column(
        UUID(as_uuid=True), ForeignKey("monitors.id", ondelete="SET NULL"), index=True
    )
    monitor_name: Mapped[str] = mapped_column(String(200), nullable=False)
    group_key: Mapped[str] = mapped_column(Text, nullable=False)
    tags: Mapped[dict[str, str]] = mapped_column(JSONB, nullable=False)
    kind: Mapped[str] = mapped_column(String(10), nullable=False)
    from_state: Mapped[str] = mapped_column(String(8), nullable=False)
    to_state: Mapped[str] = mapped_column(String(8), nullable=False)
    severity: Mapped[str | None] = mapped_column(String(8))
    value: Mapped[float | None] = mapped_column(Float)
    condition: Mapped[str] = mapped_column(Text, nullable=False, server_default="")
    language: Mapped[str] = mapped_column(String(8), nullable=False)
    query: Mapped[str] = mapped_column(Text, nullable=False)
    title: Mapped[str] = mapped_column(Text, nullable=False, server_default="")
    message: Mapped[str] = mapped_column(Text, nullable=False, server_default="")
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    muted: Mapped[bool] = mapped_column(Boolean, nullable=False, server_default="false")
    silence_id: Mapped[uuid.UUID | None] = mapped_column(UUID(as_uuid=True))
    details: Mapped[dict[str, Any]] = mapped_column(JSONB, nullable=False, server_default="{}")
    created_at: Mapped[datetime] = timestamp_now()

    __table_args__ = (
        CheckConstraint("kind IN ('pending', 'firing', 'resolved', 'ok', 'nodata')", name="kind"),
        Index("ix_alert_events_workspace_at", "workspace_id", "at"),
    )
