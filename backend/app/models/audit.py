"""The audit logs: who did what, when, from where — in a workspace, and on the platform."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.dialects.postgresql import JSONB, UUID
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base, timestamp_now, uuid_pk


class _Event:
    """The columns every audit log has."""

    id: Mapped[uuid.UUID] = uuid_pk()
    # No foreign key on workspace_id: the trail outlives a deleted workspace.
    workspace_id: Mapped[uuid.UUID | None] = mapped_column(UUID(as_uuid=True))
    actor_user_id: Mapped[uuid.UUID | None] = mapped_column(
        UUID(as_uuid=True), ForeignKey("users.id", ondelete="SET NULL")
    )
    actor_email: Mapped[str | None] = mapped_column(String(320))
    action: Mapped[str] = mapped_column(String(64), nullable=False)
    target_type: Mapped[str | None] = mapped_column(String(32))
    target_id: Mapped[str | None] = mapped_column(String(64))
    details: Mapped[dict[str, Any]] = mapped_column(JSONB, nullable=False, default=dict)
    ip: Mapped[str | None] = mapped_column(String(64))
    user_agent: Mapped[str | None] = mapped_column(String(400))
    created_at: Mapped[datetime] = timestamp_now()


class AuditEvent(_Event, Base):
    """What happened in a workspace; its admins read it."""

    __tablename__ = "audit_log"

    __table_args__ = (
        Index("ix_audit_log_workspace_id_created_at", "workspace_id", "created_at"),
        Index("ix_audit_log_actor_user_id_created_at", "actor_user_id", "created_at"),
        Index("ix_audit_log_target_id_created_at", "target_id", "created_at"),
    )


class OperatorAuditEvent(_Event, Base):
    """What a platform operator did (plans, plan changes, suspensions, operator grants);
    ``workspace_id`` is the workspace it concerns, if any."""

    __tablename__ = "operator_audit_log"

    __table_args__ = (Index("ix_operator_audit_log_created_at", "created_at"),)
