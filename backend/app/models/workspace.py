"""Workspaces (tenants), their members, invitations and limits."""

from __future__ import annotations

import enum
import uuid
from datetime import date, datetime

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    ColumnElement,
    Date,
    DateTime,
    Enum,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    and_,
    cast,
    func,
)
from sqlalchemy.dialects.postgresql import UUID
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base, timestamp_now, uuid_pk


class Role(enum.StrEnum):
    owner = "owner"
    admin = "admin"
    editor = "editor"
    viewer = "viewer"


ROLE_ENUM = Enum(Role, name="workspace_role", values_callable=lambda e: [m.value for m in e])


STORAGE_TENANT_INDEX = "uq_workspaces_storage_tenant"


class Workspace(Base):
    __tablename__ = "workspaces"

    id: Mapped[uuid.UUID] = uuid_pk()
    name: Mapped[str] = mapped_column(String(100), nullable=False)
    created_by: Mapped[uuid.UUID | None] = mapped_column(
        UUID(as_uuid=True), ForeignKey("users.id", ondelete="SET NULL")
    )
    created_at: Mapped[datetime] = timestamp_now()
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Set by a platform operator; the limits' bounds come from it.
    plan_id: Mapped[uuid.UUID] = mapped_column(
        UUID(as_uuid=True), ForeignKey("plans.id", ondelete="RESTRICT"), nullable=False, index=True
    )
    # A suspended workspace keeps its data, but writes (gateway) and queries are refused.
    suspended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    suspended_reason: Mapped[str | None] = mapped_column(String(500))

    @classmethod
    def serving(cls) -> ColumnElement[bool]:
        """Neither deleted nor suspended: its monitors, rules and notifications run."""
        return and_(cls.deleted_at.is_(None), cls.suspended_at.is_(None))

    __table_args__ = (
        # vigil-storage's remote (cluster) mode stores a workspace in the VictoriaMetrics
        # tenant <accountID>:<projectID> read from the first 8 bytes of its id
        # (storage/app/remote): unique here, so no two workspaces ever share a tenant.
        Index(STORAGE_TENANT_INDEX, func.left(cast(id, Text), 18), unique=True),
    )


class Membership(Base):
    __tablename__ = "memberships"

    workspace_id: Mapped[uuid.UUID] = mapped_column(
        UUID(as_uuid=True), ForeignKey("workspaces.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[uuid.UUID] = mapped_column(
        UUID(as_uuid=True), ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    role: Mapped[Role] = mapped_column(ROLE_ENUM, nullable=False)
    created_at: Mapped[datetime] = timestamp_now()


class Invitation(Base):
    """An invitation by email address; the code (stored hashed) is shown once to the admin."""

    __tablename__ = "invitations"

    id: Mapped[uuid.UUID] = uuid_pk()
    workspace_id: Mapped[uuid.UUID] = mapped_column(
        UUID(as_uuid=True),
        ForeignKey("workspaces.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    )
    email: Mapped[str] = mapped_column(String(320), nullable=False)
    role: Mapped[Role] = mapped_column(ROLE_ENUM, nullable=False)
    code_hash: Mapped[str] = mapped_column(String(64), nullable=False, unique=True)
    invited_by: Mapped[uuid.UUID | None] = mapped_column(
        UUID(as_uuid=True), ForeignKey("users.id", ondelete="SET NULL")
    )
    # a service token that sent it (then invited_by is None): revoked with the token
    invited_by_key_id: Mapped[uuid.UUID | None] = mapped_column(
        UUID(as_uuid=True), ForeignKey("api_keys.id", ondelete="SET NULL")
    )
    created_at: Mapped[datetime] = timestamp_now()
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    accepted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    accepted_by: Mapped[uuid.UUID | None] = mapped_column(
        UUID(as_uuid=True), ForeignKey("users.id", ondelete="SET NULL")
    )
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class WorkspaceLimits(Base):
    """Per-workspace limits, each within its plan's bound. The ingest gateway reads the
    ingest_*, max_body_bytes, retention_days and active_series columns."""

    __tablename__ = "workspace_limits"

    workspace_id: Mapped[uuid.UUID] = mapped_column(
        UUID(as_uuid=True), ForeignKey("workspaces.id", ondelete="CASCADE"), primary_key=True
    )
    ingest_points_per_second: Mapped[int] = mapped_column(Integer, nullable=False)
    ingest_burst: Mapped[int] = mapped_column(Integer, nullable=False)
    max_body_bytes: Mapped[int] = mapped_column(Integer, nullable=False)
    active_series: Mapped[int] = mapped_column(Integer, nullable=False)
    query_timeout_seconds: Mapped[int] = mapped_column(Integer, nullable=False)
    max_points_per_query: Mapped[int] = mapped_column(BigInteger, nullable=False)
    retention_days: Mapped[int] = mapped_column(Integer, nullable=False)
    max_members: Mapped[int] = mapped_column(Integer, nullable=False)
    max_dashboards: Mapped[int] = mapped_column(Integer, nullable=False)
    # how many of the workspace's queries storage runs at once; more wait in its queue
    concurrent_queries: Mapped[int] = mapped_column(Integer, nullable=False, server_default="4")
    # monitors and recording rules together
    max_monitors: Mapped[int] = mapped_column(Integer, nullable=False, server_default="100")
    min_monitor_interval_seconds: Mapped[int] = mapped_column(
        Integer, nullable=False, server_default="10"
    )
    max_notifications_per_hour: Mapped[int] = mapped_column(
        Integer, nullable=False, server_default="200"
    )

    __table_args__ = (
        CheckConstraint(
            "ingest_points_per_second > 0 AND ingest_burst > 0 AND max_body_bytes > 0 "
            "AND active_series > 0 AND query_timeout_seconds > 0 AND max_points_per_query > 0 "
            "AND retention_days > 0",
            name="positive",
        ),
        CheckConstraint("max_members > 0 AND max_dashboards > 0", name="counts_positive"),
        CheckConstraint("concurrent_queries > 0", name="concurrent_queries_positive"),
        CheckConstraint(
            "max_monitors >= 0 AND min_monitor_interval_seconds > 0 "
            "AND max_notifications_per_hour >= 0",
            name="alerting",
        ),
    )


class WorkspaceUsageDaily(Base):
    """Counters the backend itself can observe, per workspace and UTC day."""

    __tablename__ = "workspace_usage_daily"

    workspace_id: Mapped[uuid.UUID] = mapped_column(
        UUID(as_uuid=True), ForeignKey("workspaces.id", ondelete="CASCADE"), primary_key=True
    )
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    queries: Mapped[int] = mapped_column(BigInteger, nullable=False, server_default="0")


class WorkspaceIngestMinutely(Base):
    """Points the ingest gateway accepted per workspace and UTC minute (written by the gateway,
    in the unit of the ingest limit: a line of line protocol, a remote_write sample)."""

    __tablename__ = "workspace_ingest_minutely"

    workspace_id: Mapped[uuid.UUID] = mapped_column(
        UUID(as_uuid=True), ForeignKey("workspaces.id", ondelete="CASCADE"), primary_key=True
    )
    minute: Mapped[datetime] = mapped_column(DateTime(timezone=True), primary_key=True)
    points: Mapped[int] = mapped_column(BigInteger, nullable=False)


class WorkspaceIngestTokens(Base):
    """The shared token bucket of a workspace's ingest limit (points/s, burst): every gateway
    process leases points from it in blocks, so the limit holds across processes."""

    __tablename__ = "workspace_ingest_tokens"

    workspace_id: Mapped[uuid.UUID] = mapped_column(
        UUID(as_uuid=True), ForeignKey("workspaces.id", ondelete="CASCADE"), primary_key=True
    )
    tokens: Mapped[float] = mapped_column(Float, nullable=False)
    stamp: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)


class WorkspaceIngestParked(Base):
    """Batches the consumer parked in the dead-letter topic because storage kept refusing the
    workspace's writes while it took other workspaces' (written by the consumer)."""

    __tablename__ = "workspace_ingest_parked"

    workspace_id: Mapped[uuid.UUID] = mapped_column(
        UUID(as_uuid=True), ForeignKey("workspaces.id", ondelete="CASCADE"), primary_key=True
    )
    batches: Mapped[int] = mapped_column(BigInteger, nullable=False)
    points: Mapped[int] = mapped_column(BigInteger, nullable=False)
    last_reason: Mapped[str] = mapped_column(Text, nullable=False)
    last_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)


class WorkspaceRetentionSweep(Base):
    """The last time the retention sweep deleted a workspace's points older than its
    retention from storage, and what it did."""

    __tablename__ = "workspace_retention_sweeps"

    workspace_id: Mapped[uuid.UUID] = mapped_column(
        UUID(as_uuid=True), ForeignKey("workspaces.id", ondelete="CASCADE"), primary_key=True
    )
    swept_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    cutoff: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    series: Mapped[int] = mapped_column(BigInteger, nullable=False)
    kept_points: Mapped[int] = mapped_column(BigInteger, nullable=False)
