"""Monitors: a query, conditions per severity, and whom to tell (docs/alerting.md)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from app.alerting.conditions import SEVERITIES, ChangeMode, Op, Reducer, Severity
from app.alerting.templates import DEFAULT_MESSAGE, DEFAULT_TITLE
from app.schemas.common import Name200

Language = Literal["dql", "promql"]
DAY = 86_400
MAX_QUERY = 65_536


class Condition(BaseModel):
    """The value holds for ``severity`` when ``<value> <op> <threshold>`` (``between`` and
    ``outside`` take ``threshold`` and ``threshold2``, both included in ``between``)."""

    severity: Severity
    op: Op
    threshold: float = Field(allow_inf_nan=False)
    threshold2: float | None = Field(default=None, allow_inf_nan=False)

    @model_validator(mode="after")
    def _range(self) -> Self:
        if self.op in ("between", "outside"):
            if self.threshold2 is None:
                raise ValueError(f"{self.op} needs threshold2")
            if self.threshold2 < self.threshold:
                raise ValueError(f"{self.op}: threshold2 must not be below threshold")
        elif self.threshold2 is not None:
            raise ValueError(f"threshold2 is only for between and outside, not {self.op}")
        return self


class ChangeDetection(BaseModel):
    """Alert on how far the value moved from the same window ``compare_to_seconds`` earlier
    (Guance's mutation detection): in percent of the earlier value, or as a difference. The
    conditions then apply to that change (``> 50`` = up more than 50 %)."""

    compare_to_seconds: int = Field(default=DAY, ge=60, le=30 * DAY)
    mode: ChangeMode = "percent"


class NoDataPolicy(BaseModel):
    """When the query returns nothing at all for ``after_seconds``: ``alert`` (each group goes
    to no data, told at ``severity``), ``keep`` (every group keeps its state) or ``resolve``."""

    action: Literal["alert", "keep", "resolve"] = "keep"
    after_seconds: int = Field(default=600, ge=1, le=7 * DAY)
    severity: Severity = "warning"


Routes = dict[Severity, list[uuid.UUID]]


class MonitorFields(BaseModel):
    """What a monitor is, as written by people (create, and preview)."""

    language: Language = "dql"
    query: str = Field(
        min_length=1,
        max_length=MAX_QUERY,
        examples=["M::cpu:(avg(usage_user)) BY host"],
        description="DQL or PromQL. A DQL query is evaluated over the last `window_seconds`; "
        "each series it returns is a group. A PromQL query is evaluated as an instant query.",
    )
    interval_seconds: int = Field(default=60, ge=1, le=DAY, description="How often it runs")
    window_seconds: int = Field(
        default=300, ge=1, le=7 * DAY, description="DQL: the time range each evaluation reads"
    )
    reducer: Reducer = Field(
        default="last",
        description="DQL: how a group's points in the window become one value",
    )
    conditions: list[Condition] = Field(min_length=1, max_length=4)
    change: ChangeDetection | None = None
    for_seconds: int = Field(
        default=0, ge=0, le=7 * DAY, description="How long a condition must hold before firing"
    )
    group_grace_seconds: int = Field(
        default=300,
        ge=0,
        le=7 * DAY,
        description="A group the query stops returning (while others remain) resolves after this",
    )
    new_group_delay_seconds: int = Field(
        default=0, ge=0, le=DAY, description="A new group is not evaluated for this long"
    )
    no_data: NoDataPolicy = Field(default_factory=NoDataPolicy)

    @field_validator("conditions")
    @classmethod
    def _one_per_severity(cls, value: list[Condition]) -> list[Condition]:
        seen = [c.severity for c in value]
        dupes = sorted({s for s in seen if seen.count(s) > 1})
        if dupes:
            raise ValueError(f"one condition per severity; {', '.join(dupes)} appears twice")
        return sorted(value, key=lambda c: SEVERITIES.index(c.severity))


class MonitorNotify(BaseModel):
    routes: Routes = Field(
        default_factory=dict,
        description="Channel ids per severity; a no-data alert uses its severity's channels",
        examples=[{"critical": ["6f1c…"], "warning": []}],
    )
    renotify_minutes: int | None = Field(
        default=None, ge=1, le=7 * 1440, description="Tell again this often while firing"
    )
    notify_resolved: bool = True
    title: str = Field(default=DEFAULT_TITLE, min_length=1, max_length=300)
    message: str = Field(default=DEFAULT_MESSAGE, max_length=4000)
    runbook_url: str | None = Field(default=None, max_length=2000, pattern=r"^https?://\S+$")

    @field_validator("routes")
    @classmethod
    def _routes(cls, value: Routes) -> Routes:
        for severity, ids in value.items():
            if len(ids) > 10:
                raise ValueError(f"at most 10 channels per severity ({severity} has {len(ids)})")
        return {k: list(dict.fromkeys(v)) for k, v in value.items()}


class MonitorCreate(MonitorFields, MonitorNotify):
    name: Name200
    description: str = Field(default="", max_length=4000)
    enabled: bool = True


class MonitorUpdate(BaseModel):
    """Any field of MonitorCreate; what is left out keeps its value."""

    name: Name200 | None = None
    description: str | None = Field(default=None, max_length=4000)
    enabled: bool | None = None
    language: Language | None = None
    query: str | None = Field(default=None, min_length=1, max_length=MAX_QUERY)
    interval_seconds: int | None = Field(default=None, ge=1, le=DAY)
    window_seconds: int | None = Field(default=None, ge=1, le=7 * DAY)
    reducer: Reducer | None = None
    conditions: list[Condition] | None = Field(default=None, min_length=1, max_length=4)
    change: ChangeDetection | None = None
    for_seconds: int | None = Field(default=None, ge=0, le=7 * DAY)
    group_grace_seconds: int | None = Field(default=None, ge=0, le=7 * DAY)
    new_group_delay_seconds: int | None = Field(default=None, ge=0, le=DAY)
    no_data: NoDataPolicy | None = None
    routes: Routes | None = None
    renotify_minutes: int | None = Field(default=None, ge=1, le=7 * 1440)
    notify_resolved: bool | None = None
    title: str | None = Field(default=None, min_length=1, max_length=300)
    message: str | None = Field(default=None, max_length=4000)
    runbook_url: str | None = Field(default=None, max_length=2000, pattern=r"^https?://\S+$")

    @field_validator("conditions")
    @classmethod
    def _one_per_severity(cls, value: list[Condition] | None) -> list[Condition] | None:
        return None if value is None else MonitorFields._one_per_severity(value)

    @field_validator("routes")
    @classmethod
    def _routes(cls, value: Routes | None) -> Routes | None:
        return None if value is None else MonitorNotify._routes(value)


MonitorStatus = Literal["ok", "pending", "firing", "nodata", "disabled", "error"]


class GroupPublic(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    group_key: str
    tags: dict[str, str]
    state: Literal["ok", "pending", "firing", "nodata"]
    severity: Severity | None
    value: float | None
    since: datetime
    last_seen_at: datetime | None
    muted: bool = False


class MonitorPublic(MonitorCreate):
    model_config = ConfigDict(from_attributes=True)

    id: uuid.UUID
    workspace_id: uuid.UUID
    created_by: uuid.UUID | None
    created_at: datetime
    updated_at: datetime
    next_eval_at: datetime
    last_eval_at: datetime | None
    last_eval_ms: float | None
    last_error: str | None
    status: MonitorStatus = Field(description="The worst state of its groups, or disabled/error")
    severity: Severity | None = Field(description="The worst severity firing")
    value: float | None = Field(description="The value of the worst group")
    groups: dict[str, int] = Field(description="How many groups are in each state")
    muted: bool = Field(description="A silence mutes it (or every group that fires)")


class MonitorsPublic(BaseModel):
    data: list[MonitorPublic]
    count: int


class GroupsPublic(BaseModel):
    data: list[GroupPublic]
    count: int


class PreviewRequest(MonitorFields):
    hours: int = Field(default=24, ge=1, le=7 * 24, description="How far back to evaluate")


class PreviewSeries(BaseModel):
    tags: dict[str, str]
    points: list[tuple[int, float | None]] = Field(description="[epoch ms, value]")


class PreviewAlert(BaseModel):
    tags: dict[str, str]
    severity: Severity | Literal["nodata"]
    start: int = Field(description="epoch ms when it would have fired")
    end: int | None = Field(description="epoch ms when it would have resolved; null: still")


class PreviewPublic(BaseModel):
    start: int
    end: int
    step_seconds: int = Field(description="One evaluation per step")
    series: list[PreviewSeries]
    alerts: list[PreviewAlert]
    conditions: list[Condition]
    truncated: bool = Field(description="More groups than drawn (the busiest are kept)")
    note: str | None = None
