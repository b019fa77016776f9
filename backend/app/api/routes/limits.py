"""Workspace limits and usage."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from app.api.deps import SessionDep, StorageDep, WorkspaceContext, WorkspaceDep
from app.core.permissions import Permission
from app.models import WorkspaceLimits
from app.schemas.common import ERROR_RESPONSES, ValidationErrorPublic
from app.schemas.limits import (
    LimitsPublic,
    LimitsUpdate,
    LimitValues,
    PlanRef,
    UsageHistoryPublic,
    UsagePublic,
)
from app.services import limits, plans

router = APIRouter(prefix="/workspaces/{workspace_id}", tags=["limits"], responses=ERROR_RESPONSES)


def _public(db: SessionDep, values: WorkspaceLimits) -> LimitsPublic:
    plan = plans.plan_of(db, workspace_id=values.workspace_id)
    return LimitsPublic(
        **LimitValues.model_validate(values).model_dump(),
        plan=PlanRef(id=plan.id, name=plan.name),
        ceilings=LimitValues.model_validate(plans.ceilings(plan)),
    )


@router.get("/limits", response_model=LimitsPublic)
def read_limits(
    db: SessionDep, ws: Annotated[WorkspaceContext, WorkspaceDep(Permission.LIMITS_READ)]
) -> LimitsPublic:
    """The workspace's limits, its plan and the plan's ceiling of each."""
    return _public(db, limits.get_limits(db, workspace_id=ws.id))


@router.patch(
    "/limits",
    response_model=LimitsPublic,
    responses={422: {"model": ValidationErrorPublic, "description": "A value above its ceiling"}},
)
def update_limits(
    body: LimitsUpdate,
    db: SessionDep,
    ws: Annotated[WorkspaceContext, WorkspaceDep(Permission.LIMITS_UPDATE)],
) -> LimitsPublic:
    """Change some limits (admins and owners), each at or below its plan's ceiling (422
    ``plan_ceiling`` naming every value above one). Fields left out keep their value."""
    changes = body.model_dump(exclude_unset=True, exclude_none=True)
    return _public(
        db, limits.update_limits(db, workspace_id=ws.id, changes=changes, actor=ws.actor)
    )


@router.get("/usage", response_model=UsagePublic)
def read_usage(
    db: SessionDep,
    storage: StorageDep,
    ws: Annotated[WorkspaceContext, WorkspaceDep(Permission.USAGE_READ)],
) -> UsagePublic:
    """Usage figures: active series (from storage) and queries today."""
    return UsagePublic.model_validate(limits.usage(db, workspace_id=ws.id, storage=storage))


@router.get("/usage/history", response_model=UsageHistoryPublic)
def read_usage_history(
    db: SessionDep,
    storage: StorageDep,
    ws: Annotated[WorkspaceContext, WorkspaceDep(Permission.USAGE_READ)],
    hours: Annotated[int, Query(ge=1, le=720, description="How far back, in hours")] = 24,
) -> UsageHistoryPublic:
    """Usage over time: ingest rate and active series (from storage), queries per day."""
    return UsageHistoryPublic.model_validate(
        limits.usage_history(db, workspace_id=ws.id, storage=storage, hours=hours)
    )
