"""Benchmark runs from ``vigil-bench``; ``app.schemas.benchmark`` validates ``document``.

The whole result document is kept in ``document`` (``json``, so it reads back in its own key
order); the columns beside it are what the list filters, orders and shows without reading the
document (``overview`` is each scenario without its measurements, resource samples and checks).
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, DateTime, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.dialects.postgresql import ARRAY, JSON, JSONB, UUID
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base, timestamp_now, uuid_pk


class BenchmarkRun(Base):
    __tablename__ = "benchmark_runs"

    id: Mapped[uuid.UUID] = uuid_pk()
    workspace_id: Mapped[uuid.UUID] = mapped_column(
        UUID(as_uuid=True),
        ForeignKey("workspaces.id", ondelete="CASCADE"),
        nullable=False,
    )
    run_id: Mapped[str] = mapped_column(String(200), nullable=False)
    schema_version: Mapped[int] = mapped_column(Integer, nullable=False)
    mode: Mapped[str] = mapped_column(String(8), nullable=False)
    valid: Mapped[bool] = mapped_column(Boolean, nullable=False)
    scenario_ids: Mapped[list[str]] = mapped_column(ARRAY(String(64)), nullable=False)
    systems: Mapped[list[str]] = mapped_column(ARRAY(String(64)), nullable=False)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    command: Mapped[list[str]] = mapped_column(JSONB, nullable=False)
    environment: Mapped[dict[str, Any]] = mapped_column(JSONB, nullable=False)
    # json, not jsonb: the document comes back exactly as uploaded, object keys in their order
    # (a report lists parameters and headline figures as the runner wrote them)
    overview: Mapped[list[dict[str, Any]]] = mapped_column(JSON, nullable=False)
    document: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False)
    size_bytes: Mapped[int] = mapped_column(Integer, nullable=False)
    uploaded_by: Mapped[uuid.UUID | None] = mapped_column(
        UUID(as_uuid=True), ForeignKey("users.id", ondelete="SET NULL")
    )
    uploaded_at: Mapped[datetime] = timestamp_now()

    __table_args__ = (
        UniqueConstraint("workspace_id", "run_id", name="uq_benchmark_runs_workspace_id_run_id"),
        Index("ix_benchmark_runs_workspace_id_started_at", "workspace_id", "started_at"),
    )
