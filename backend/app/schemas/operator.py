"""What platform operators see and send: workspaces across the platform, their usage, plan
changes, suspensions and the operator audit log."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.schemas.limits import LimitValues, PlanRef

UsageMetric = Literal["active_series", "points_today", "queries_today", "storage_bytes"]


class WorkspaceUsagePublic(BaseModel):
    active_series: int | None = Field(description="From storage; null when it could not say")
    series_total: int | None
    points_today: int = Field(description="Points the gateway accepted since 00:00 UTC")
    queries_today: int = Field(description="DQL and PromQL requests since 00:00 UTC")
    storage_bytes: int | None = Field(
        description="Estimated: the workspace's stored samples times the storage's bytes per "
        "sample (data and index); null in remote mode"
    )
    stored_samples: int | None
    storage_error: str | None = Field(default=None, description="Why a storage figure is null")


class OperatorWorkspacePublic(BaseModel):
    id: uuid.UUID
    name: str
    created_at: datetime
    plan: PlanRef
    owners: list[str] = Field(description="Emails of the owners")
    members: int
    dashboards: int
    suspended_at: datetime | None
    suspended_reason: str | None
    usage: WorkspaceUsagePublic


class OperatorWorkspaceDetail(OperatorWorkspacePublic):
    limits: LimitValues


class OperatorWorkspacesPublic(BaseModel):
    data: list[OperatorWorkspacePublic]
    count: int = Field(description="Workspaces matching the filters (data is one page of them)")


class PlanAssign(BaseModel):
    plan_id: uuid.UUID


class LimitChange(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    from_: int = Field(alias="from")
    to: int


class PlanChangePublic(BaseModel):
    workspace: OperatorWorkspaceDetail
    lowered: dict[str, LimitChange] = Field(
        description="The limits brought within the new plan's bounds, each from → to"
    )


class SuspendRequest(BaseModel):
    reason: str = Field(
        min_length=1,
        max_length=500,
        pattern=r"^[^\x00-\x1f\x7f]*\S[^\x00-\x1f\x7f]*$",
        description="Shown to the workspace's members and API clients",
        examples=["Payment overdue"],
    )


class TopWorkspace(BaseModel):
    workspace_id: uuid.UUID
    name: str
    value: int


class OperatorOverviewPublic(BaseModel):
    workspaces: int
    suspended: int
    plans: int
    operators: int
    totals: dict[UsageMetric, int] = Field(description="Sums over every workspace")
    top: dict[UsageMetric, list[TopWorkspace]] = Field(
        description="The five workspaces with the most of each figure"
    )


class OperatorAuditEventPublic(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: uuid.UUID
    actor_user_id: uuid.UUID | None
    actor_email: str | None
    action: str
    target_type: str | None
    target_id: str | None
    workspace_id: uuid.UUID | None
    details: dict[str, Any]
    ip: str | None
    user_agent: str | None
    created_at: datetime


class OperatorAuditEventsPublic(BaseModel):
    data: list[OperatorAuditEventPublic]
    count: int
