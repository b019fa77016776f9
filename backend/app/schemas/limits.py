from __future__ import annotations

import uuid
from datetime import date, datetime
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

# The range every limit (and every plan's bound of it) must stay in, whatever the plan says.
IngestRate = Annotated[int, Field(ge=1, le=100_000_000)]
IngestBurst = Annotated[int, Field(ge=1, le=1_000_000_000)]
BodyBytes = Annotated[int, Field(ge=1024, le=1_073_741_824)]
SeriesCount = Annotated[int, Field(ge=1, le=1_000_000_000)]
TimeoutSeconds = Annotated[int, Field(ge=1, le=600)]
PointsPerQuery = Annotated[int, Field(ge=1, le=1_000_000_000)]
ConcurrentQueries = Annotated[int, Field(ge=1, le=64)]
RetentionDays = Annotated[int, Field(ge=1, le=3650)]
MonitorCount = Annotated[int, Field(ge=0, le=100_000)]
MonitorIntervalSeconds = Annotated[int, Field(ge=1, le=86_400)]
NotificationsPerHour = Annotated[int, Field(ge=0, le=1_000_000)]
MemberCount = Annotated[int, Field(ge=1, le=100_000)]
DashboardCount = Annotated[int, Field(ge=1, le=100_000)]


class LimitValues(BaseModel):
    """Every workspace limit with its value."""

    model_config = ConfigDict(from_attributes=True)

    ingest_points_per_second: int
    ingest_burst: int
    max_body_bytes: int
    active_series: int
    query_timeout_seconds: int
    max_points_per_query: int
    retention_days: int
    concurrent_queries: int = Field(
        description="How many of the workspace's queries storage runs at once; more wait their "
        "turn, and a full queue gets 429 naming this limit"
    )
    max_monitors: int = Field(description="Monitors and recording rules together")
    min_monitor_interval_seconds: int = Field(description="The shortest evaluation interval")
    max_notifications_per_hour: int = Field(
        description="Notifications sent per hour; past it they are recorded as throttled"
    )
    max_members: int = Field(description="Members the workspace may have (invitations included)")
    max_dashboards: int = Field(description="Dashboards the workspace may have")


class PlanRef(BaseModel):
    id: uuid.UUID
    name: str


class LimitsPublic(LimitValues):
    plan: PlanRef = Field(description="The workspace's plan, set by a platform operator")
    ceilings: LimitValues = Field(
        description="The plan's bound of each limit: a limit may be set at or below it"
    )


class LimitsUpdate(BaseModel):
    """New values, each within its absolute range here and within the plan's bound: at most
    its ceiling, and ``min_monitor_interval_seconds`` at least its floor (outside it gets 422
    ``plan_ceiling`` naming it)."""

    ingest_points_per_second: IngestRate | None = None
    ingest_burst: IngestBurst | None = None
    max_body_bytes: BodyBytes | None = None
    active_series: SeriesCount | None = None
    query_timeout_seconds: TimeoutSeconds | None = None
    max_points_per_query: PointsPerQuery | None = None
    retention_days: RetentionDays | None = None
    concurrent_queries: ConcurrentQueries | None = None
    max_monitors: MonitorCount | None = None
    min_monitor_interval_seconds: MonitorIntervalSeconds | None = None
    max_notifications_per_hour: NotificationsPerHour | None = None
    max_members: MemberCount | None = None
    max_dashboards: DashboardCount | None = None


class UsagePublic(BaseModel):
    active_series: int | None = Field(description="From storage; null when storage is unreachable")
    series_total: int | None
    points_today: int | None = Field(
        description="Points the ingest gateway accepted since 00:00 UTC: lines of line protocol "
        "and remote_write samples, the unit of the ingest limit"
    )
    queries_today: int = Field(description="DQL and PromQL requests since 00:00 UTC")
    series_limit_dropped_points: int | None = Field(
        default=None,
        description="Points left out since storage started because their series were new while "
        "the workspace had its limit of active series",
    )
    ingest_parked_batches: int = Field(
        default=0,
        description="Batches the pipeline set aside (in its dead-letter topic) because storage "
        "kept refusing this workspace's writes while it took other workspaces'",
    )
    ingest_parked_points: int = Field(default=0, description="Points in those batches")
    ingest_parked_last_reason: str | None = Field(
        default=None, description="Why the last of them was set aside"
    )
    ingest_parked_last_at: datetime | None = None
    storage_error: str | None = None


class UsagePoint(BaseModel):
    t: int = Field(description="Start of the interval, epoch milliseconds")
    value: float


class DailyQueries(BaseModel):
    day: date
    queries: int


class UsageHistoryPublic(BaseModel):
    start: int = Field(description="Epoch milliseconds")
    end: int = Field(description="Epoch milliseconds")
    step_seconds: int
    ingest_rate: list[UsagePoint] = Field(
        description="Points per second the ingest gateway accepted, averaged over each step "
        "(the unit of the ingest limit)"
    )
    active_series: list[UsagePoint] = Field(
        description="Series with a sample in the last 5 minutes"
    )
    queries_per_day: list[DailyQueries] = Field(
        description="DQL and PromQL requests per UTC day over the range (days without any are 0)"
    )
    storage_error: str | None = None
