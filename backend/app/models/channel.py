"""Notification channels and the notifications sent through them (a transactional outbox).

A notification row is written in the same transaction as the alert event it tells of; the
evaluator's dispatcher claims due rows with ``FOR UPDATE SKIP LOCKED``, so two evaluators
never send the same row, and a crash between sending and recording resends it with the same
idempotency key (the row's id).
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, CheckConstraint, DateTime, ForeignKey, Index, Integer, String, Text
from sqlalchemy.dialects.postgresql import JSONB, UUID
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base, timestamp_now, uuid_pk

CHANNEL_TYPES = ("webhook", "email")
NOTIFICATION_STATUSES = ("pending", "sent", "failed", "throttled")


class Channel(Base):
    __tablename__ = "notification_channels"

    id: Mapped[uuid.UUID] = uuid_pk()
    workspace_id: Mapped[uuid.UUID] = mapped_column(
        UUID(as_uuid=True),
        ForeignKey("workspaces.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    )
    name: Mapped[str] = mapped_column(String(200), nullable=False)
    type: Mapped[str] = mapped_column(String(16), nullable=False)
    # webhook: {"url"}; email: {"addresses": [...]}
    config: Mapped[dict[str, Any]] = mapped_column(JSONB, nullable=False)
    # the webhook's HMAC secret, sealed with the server's secret key (never returned)
    secret_sealed: Mapped[str | None] = mapped_column(Text)
    enabled: Mapped[bool] = mapped_column(Boolean, nullable=False, server_default="true")
    created_by: Mapped[uuid.UUID | None] = mapped_column(
        UUID(as_uuid=True), ForeignKey("users.id", ondelete="SET NULL")
    )
    created_at: Mapped[datetime] = timestamp_now()
    updated_at: Mapped[datetime] = timestamp_now()

    __table_args__ = (CheckConstraint("type IN ('webhook', 'email')", name="type"),)


class Notification(Base):
    __tablename__ = "notifications"

    id: Mapped[uuid.UUID] = uuid_pk()
    workspace_id: Mapped[uuid.UUID] = mapped_column(
        UUID(as_uuid=True), ForeignKey("workspaces.id", ondelete="CASCADE"), nullable=False
    )
    channel_id: Mapped[uuid.UUID | None] = mapped_column(
        UUID(as_uuid=True), ForeignKey("notification_channels.id", ondelete="SET NULL")
    )
    channel_name: Mapped[str] = mapped_column(String(200), nullable=False)
    event_id: Mapped[uuid.UUID | None] = mapped_column(
        UUID(as_uuid=True), ForeignKey("alert_events.id", ondelete="CASCADE"), index=True
    )
    monitor_id: Mapped[uuid.UUID | None] = mapped_column(
        UUID(as_uuid=True), ForeignKey("monitors.id", ondelete="SET NULL")
    )
    kind: Mapped[str] = mapped_column(String(10), nullable=False)
    status: Mapped[str] = mapped_column(String(10), nullable=False)
    attempts: Mapped[int] = mapped_column(Integer, nullable=False, server_default="0")
    next_attempt_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    last_error: Mapped[str | None] = mapped_column(Text)
    # what is sent, frozen when the event happened: retries send the same body
    payload: Mapped[dict[str, Any]] = mapped_column(JSONB, nullable=False)
    created_at: Mapped[datetime] = timestamp_now()
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        CheckConstraint("status IN ('pending', 'sent', 'failed', 'throttled')", name="status"),
        Index("ix_notifications_due", "next_attempt_at", postgresql_where="status = 'pending'"),
        Index("ix_notifications_workspace_created", "workspace_id", "created_at"),
    )
