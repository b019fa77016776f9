from __future__ import annotations

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


class LimitsUpdate(BaseModel):
    ingest_points_per_second: int | None = Field(default=None, ge=1, le=100_000_000)
    ingest_burst: int | None = Field(default=None, ge=1, le=1_000_000_000)
    max_body_bytes: int | None = Field(default=None, ge=1024, le=1_073_741_824)
    active_series: int | None = Field(default=None, ge=1, le=1_000_000_000)
    query_timeout_seconds: int | None = Field(default=None, ge=1, le=600)
    max_points_per_query: int | None = Field(default=None, ge=1, le=1_000_000_000)
    retention_days: int | None = Field(default=None, ge=1, le=3650)


class UsagePublic(BaseModel):
    active_series: int | None = Field(description="From storage; null when storage is unreachable")
    series_total: int | None
    points_today: int | None = Field(
        description="Samples stored since 00:00 UTC (one per field value), counted by storage"
    )
    queries_today: int = Field(description="DQL and PromQL requests since 00:00 UTC")
    storage_error: str | None = None
