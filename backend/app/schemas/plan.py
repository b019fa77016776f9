"""Plans: the bounds of every workspace limit, set by platform operators."""

from __future__ import annotations

import uuid
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from app.schemas.common import Name64
from app.schemas.limits import (
    BodyBytes,
    ConcurrentQueries,
    DashboardCount,
    IngestBurst,
    IngestRate,
    MemberCount,
    MonitorCount,
    MonitorIntervalSeconds,
    NotificationsPerHour,
    PointsPerQuery,
    RetentionDays,
    SeriesCount,
    TimeoutSeconds,
)


class PlanBounds(BaseModel):
    """Each field bounds the workspace limit of the same name: at most this value, except
    ``min_monitor_interval_seconds``, a floor (monitors evaluate at this interval or slower)."""

    ingest_points_per_second: IngestRate
    ingest_burst: IngestBurst
    max_body_bytes: BodyBytes
    active_series: SeriesCount
    query_timeout_seconds: TimeoutSeconds
    max_points_per_query: PointsPerQuery
    concurrent_queries: ConcurrentQueries
    retention_days: RetentionDays
    max_monitors: MonitorCount
    min_monitor_interval_seconds: MonitorIntervalSeconds
    max_notifications_per_hour: NotificationsPerHour
    max_members: MemberCount
    max_dashboards: DashboardCount


class PlanCreate(PlanBounds):
    name: Name64 = Field(examples=["Team"])
    description: str | None = Field(default=None, max_length=500)


class PlanUpdate(BaseModel):
    """Fields left out keep their value. Lowering a bound brings the limit of every workspace
    on the plan within it; ``is_default: true`` makes this the plan new workspaces get."""

    name: Name64 | None = None
    description: str | None = Field(default=None, max_length=500)
    is_default: bool | None = None
    ingest_points_per_second: IngestRate | None = None
    ingest_burst: IngestBurst | None = None
    max_body_bytes: BodyBytes | None = None
    active_series: SeriesCount | None = None
    query_timeout_seconds: TimeoutSeconds | None = None
    max_points_per_query: PointsPerQuery | None = None
    concurrent_queries: ConcurrentQueries | None = None
    retention_days: RetentionDays | None = None
    max_monitors: MonitorCount | None = None
    min_monitor_interval_seconds: MonitorIntervalSeconds | None = None
    max_notifications_per_hour: NotificationsPerHour | None = None
    max_members: MemberCount | None = None
    max_dashboards: DashboardCount | None = None


class PlanPublic(PlanBounds):
    model_config = ConfigDict(from_attributes=True)

    id: uuid.UUID
    name: str
    description: str | None
    is_default: bool
    workspaces: int = Field(description="Workspaces on this plan (deleted ones excluded)")
    created_at: datetime
    updated_at: datetime


class PlansPublic(BaseModel):
    data: list[PlanPublic]
    count: int
