"""Silences: mute notifications by monitor and tags, once or every week."""

from __future__ import annotations

import re
import uuid
from datetime import datetime
from typing import Literal, Self
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from app.alerting.silencing import regex_error


class MatcherModel(BaseModel):
    label: str = Field(min_length=1, max_length=256, examples=["host"])
    op: Literal["=", "!=", "=~", "!~"] = "="
    value: str = Field(max_length=1024, examples=["web-1"])

    @model_validator(mode="after")
    def _regex(self) -> Self:
        if self.op in ("=~", "!~") and (err := regex_error(self.value)):
            raise ValueError(f"{self.value!r} is not a regular expression: {err}")
        return self


class RecurrenceModel(BaseModel):
    """Every week on ``weekdays`` (0 = Monday) from ``start`` (HH:MM) for ``duration_minutes``,
    in ``timezone``."""

    weekdays: list[int] = Field(min_length=1, max_length=7)
    start: str = Field(pattern=r"^([01]\d|2[0-3]):[0-5]\d$", examples=["02:00"])
    duration_minutes: int = Field(ge=1, le=7 * 1440)
    timezone: str = Field(default="UTC", max_length=64)

    @field_validator("weekdays")
    @classmethod
    def _days(cls, value: list[int]) -> list[int]:
        if any(d < 0 or d > 6 for d in value):
            raise ValueError("weekdays are 0 (Monday) to 6 (Sunday)")
        return sorted(set(value))

    @field_validator("timezone")
    @classmethod
    def _zone(cls, value: str) -> str:
        if not re.fullmatch(r"[A-Za-z0-9_+\-/]+", value):
            raise ValueError(f"unknown time zone {value!r}")
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"unknown time zone {value!r}") from None
        return value


class SilenceCreate(BaseModel):
    comment: str = Field(min_length=1, max_length=500)
    monitor_id: uuid.UUID | None = Field(default=None, description="Null: every monitor")
    matchers: list[MatcherModel] = Field(default_factory=list, max_length=20)
    starts_at: datetime | None = Field(default=None, description="Default: now")
    ends_at: datetime | None = Field(default=None, description="Required unless it recurs")
    recurrence: RecurrenceModel | None = None

    @model_validator(mode="after")
    def _window(self) -> Self:
        if self.recurrence is None and self.ends_at is None:
            raise ValueError("a one-off silence needs ends_at")
        if self.monitor_id is None and not self.matchers:
            raise ValueError("name a monitor or at least one matcher (a silence of everything)")
        for t in (self.starts_at, self.ends_at):
            if t is not None and t.tzinfo is None:
                raise ValueError("times need a time zone (e.g. 2026-11-28T12:00:00Z)")
        if self.starts_at and self.ends_at and self.ends_at <= self.starts_at:
            raise ValueError("ends_at must be after starts_at")
        return self


class SilenceUpdate(BaseModel):
    comment: str | None = Field(default=None, min_length=1, max_length=500)
    ends_at: datetime | None = Field(default=None, description="Set to now to end it")


SilenceState = Literal["active", "pending", "expired", "scheduled"]


class SilencePublic(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: uuid.UUID
    workspace_id: uuid.UUID
    comment: str
    monitor_id: uuid.UUID | None
    monitor_name: str | None = None
    matchers: list[MatcherModel]
    starts_at: datetime
    ends_at: datetime | None
    recurrence: RecurrenceModel | None
    created_by: uuid.UUID | None
    created_by_email: str | None
    created_at: datetime
    state: SilenceState = Field(
        description="active: muting now; scheduled: recurring, between its windows; pending: "
        "starts later; expired: ended"
    )


class SilencesPublic(BaseModel):
    data: list[SilencePublic]
    count: int
