"""Recording rules: derived metrics written back into the workspace."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from app.schemas.common import Name200

Language = Literal["dql", "promql"]
MEASUREMENT = r"^[A-Za-z_][A-Za-z0-9_.\-]{0,199}$"
FIELD = r"^[A-Za-z_][A-Za-z0-9_.\-]{0,199}$"


class RecordingRuleCreate(BaseModel):
    name: Name200
    language: Language = "dql"
    query: str = Field(
        min_length=1, max_length=65536, examples=["M::cpu:(avg(usage_user)) BY host"]
    )
    interval_seconds: int = Field(default=60, ge=1, le=86_400)
    window_seconds: int = Field(
        default=60, ge=1, le=7 * 86_400, description="DQL: the time range each run reads"
    )
    measurement: str = Field(pattern=MEASUREMENT, examples=["cpu_1m"])
    field: str | None = Field(
        default=None,
        pattern=FIELD,
        description="The field written; default: each value column's name (DQL), `value` (PromQL)",
    )
    enabled: bool = True


class RecordingRuleUpdate(BaseModel):
    name: Name200 | None = None
    language: Language | None = None
    query: str | None = Field(default=None, min_length=1, max_length=65536)
    interval_seconds: int | None = Field(default=None, ge=1, le=86_400)
    window_seconds: int | None = Field(default=None, ge=1, le=7 * 86_400)
    measurement: str | None = Field(default=None, pattern=MEASUREMENT)
    field: str | None = Field(default=None, pattern=FIELD)
    enabled: bool | None = None


class RecordingRulePublic(RecordingRuleCreate):
    model_config = ConfigDict(from_attributes=True)

    id: uuid.UUID
    workspace_id: uuid.UUID
    created_by: uuid.UUID | None
    created_at: datetime
    updated_at: datetime
    next_eval_at: datetime
    last_eval_at: datetime | None
    last_error: str | None
    last_points: int | None


class RecordingRulesPublic(BaseModel):
    data: list[RecordingRulePublic]
    count: int
