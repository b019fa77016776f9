"""Plans: named sets of limit bounds, set by platform operators.

Each column is named after the workspace limit it bounds (``workspace_limits``, and the
limits other parts of the platform read); ``app.services.plans.BOUNDS`` says which way each
one bounds its limit. Every workspace is on exactly one plan (``workspaces.plan_id``).
"""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import BigInteger, Boolean, CheckConstraint, Index, Integer, String, func, text
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base, timestamp_now, uuid_pk


class Plan(Base):
    __tablename__ = "plans"

    id: Mapped[uuid.UUID] = uuid_pk()
    name: Mapped[str] = mapped_column(String(64), nullable=False)
    description: Mapped[str | None] = mapped_column(String(500))
    # Exactly one plan is the default: new workspaces get it.
    is_default: Mapped[bool] = mapped_column(Boolean, nullable=False, server_default="false")

    ingest_points_per_second: Mapped[int] = mapped_column(Integer, nullable=False)
    ingest_burst: Mapped[int] = mapped_column(Integer, nullable=False)
    max_body_bytes: Mapped[int] = mapped_column(Integer, nullable=False)
    active_series: Mapped[int] = mapped_column(Integer, nullable=False)
    query_timeout_seconds: Mapped[int] = mapped_column(Integer, nullable=False)
    max_points_per_query: Mapped[int] = mapped_column(BigInteger, nullable=False)
    concurrent_queries: Mapped[int] = mapped_column(Integer, nullable=False)
    retention_days: Mapped[int] = mapped_column(Integer, nullable=False)
    max_monitors: Mapped[int] = mapped_column(Integer, nullable=False)
    # A floor, not a ceiling: a workspace's monitors evaluate at this interval or slower.
    min_monitor_interval_seconds: Mapped[int] = mapped_column(Integer, nullable=False)
    max_notifications_per_hour: Mapped[int] = mapped_column(Integer, nullable=False)
    max_members: Mapped[int] = mapped_column(Integer, nullable=False)
    max_dashboards: Mapped[int] = mapped_column(Integer, nullable=False)

    created_at: Mapped[datetime] = timestamp_now()
    updated_at: Mapped[datetime] = timestamp_now()

    __table_args__ = (
        Index("uq_plans_name_lower", func.lower(name), unique=True),
        Index("uq_plans_is_default", is_default, unique=True, postgresql_where=text("is_default")),
        CheckConstraint(
            "ingest_points_per_second > 0 AND ingest_burst > 0 AND max_body_bytes > 0 "
            "AND active_series > 0 AND query_timeout_seconds > 0 AND max_points_per_query > 0 "
            "AND concurrent_queries > 0 AND retention_days > 0 AND max_monitors >= 0 "
            "AND min_monitor_interval_seconds > 0 AND max_notifications_per_hour >= 0 "
            "AND max_members > 0 AND max_dashboards > 0",
            name="positive",
        ),
    )
