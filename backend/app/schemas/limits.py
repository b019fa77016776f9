from __future__ import annotations

from datetime import date

from pydantic import BaseModel, ConfigDict, Field


class LimitsPublic(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    ingest_points_per_second: int
    ingest_burst: int
    max_body_bytes: int
    active_series: int
    query_timeout_seconds: int
    max_points_per_query: int
    retention_days: int
    max_monitors: int = Field(description="Monitors and recording rules together")
    min_monitor_interval_seconds: int = Field(description="The shortest evaluation interval")
    max_notifications_per_hour: int = Field(
        description="Notifications sent per hour; past it they are recorded as throttled"
    )


class LimitsUpdate(BaseModel):
    ingest_points_per_second: int | None = Field(default=None, ge=1, le=100_000_000)
    ingest_burst: int | None = Field(default=None, ge=1, le=1_000_000_000)
    max_body_bytes: int | None = Field(default=None, ge=1024, le=1_073_741_824)
    active_series: int | None = Field(default=None, ge=1, le=1_000_000_000)
    query_timeout_seconds: int | None = Field(default=None, ge=1, le=600)
    max_points_per_query: int | None = Field(default=None, ge=1, le=1_000_000_000)
    retention_days: int | None = Field(default=None, ge=1, le=3650)
    max_monitors: int | None = Field(default=None, ge=0, le=100_000)
    min_monitor_interval_seconds: int | None = Field(default=None, ge=1, le=86_400)
    max_notifications_per_hour: int | None = Field(default=None, ge=0, le=1_000_000)


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
