"""The operator API: plans, every workspace with its usage, plan changes, suspension, and the
operator audit log. Only platform operators see any of it; for everyone else each route is
the 404 of a path that does not exist (``OperatorDep``)."""

from __future__ import annotations

import uuid
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, status

from app.api.deps import OperatorDep, SessionDep, StorageDep
from app.api.routes.audit import NO_CONTROL
from app.models import Plan
from app.schemas.common import ErrorPublic, Message
from app.schemas.limits import LimitValues, PlanRef
from app.schemas.operator import (
    LimitChange,
    OperatorAuditEventPublic,
    OperatorAuditEventsPublic,
    OperatorOverviewPublic,
    OperatorWorkspaceDetail,
    OperatorWorkspacePublic,
    OperatorWorkspacesPublic,
    PlanAssign,
    PlanChangePublic,
    SuspendRequest,
    TopWorkspace,
    WorkspaceUsagePublic,
)
from app.schemas.plan import PlanCreate, PlanPublic, PlansPublic, PlanUpdate
from app.services import audit, limits, operators, plans, platform_usage
from app.services.operators import WorkspaceRow
from app.services.platform_usage import METRICS, WorkspaceUsage

router = APIRouter(
    prefix="/operator",
    tags=["operator"],
    responses={404: {"model": ErrorPublic, "description": "Not found (or not an operator)"}},
)
CONFLICT: dict[int | str, dict[str, Any]] = {
    409: {"model": ErrorPublic, "description": "Conflicts with the current state"}
}

SortKey = Literal[
    "name",
    "-name",
    "created_at",
    "-created_at",
    "active_series",
    "-active_series",
    "points_today",
    "-points_today",
    "queries_today",
    "-queries_today",
    "storage_bytes",
    "-storage_bytes",
]


def _plan(plan: Plan, workspaces: int) -> PlanPublic:
    fields = {f: getattr(plan, f) for f in PlanPublic.model_fields if f != "workspaces"}
    return PlanPublic(**fields, workspaces=workspaces)


def _workspace(row: WorkspaceRow, usage: WorkspaceUsage) -> OperatorWorkspacePublic:
    w = row.workspace
    return OperatorWorkspacePublic(
        id=w.id,
        name=w.name,
        created_at=w.created_at,
        plan=PlanRef(id=row.plan.id, name=row.plan.name),
        owners=row.owners,
        members=row.members,
        dashboards=row.dashboards,
        suspended_at=w.suspended_at,
        suspended_reason=w.suspended_reason,
        usage=WorkspaceUsagePublic.model_validate(usage.__dict__),
    )


def _detail(
    db: SessionDep, storage: StorageDep, workspace_id: uuid.UUID
) -> OperatorWorkspaceDetail:
    row = operators.get_workspace(db, workspace_id=workspace_id)
    usage = platform_usage.collect(db, storage=storage, workspace_ids=[workspace_id])
    return OperatorWorkspaceDetail(
        **_workspace(row, usage[workspace_id]).model_dump(),
        limits=LimitValues.model_validate(limits.get_limits(db, workspace_id=workspace_id)),
    )


@router.get("/overview", response_model=OperatorOverviewPublic)
def read_overview(db: SessionDep, storage: StorageDep, _: OperatorDep) -> OperatorOverviewPublic:
    """Counts, usage totals and the top five workspaces by each usage figure."""
    rows = operators.list_workspaces(db)
    usage = platform_usage.collect(
        db, storage=storage, workspace_ids=[r.workspace.id for r in rows]
    )
    names = {r.workspace.id: r.workspace.name for r in rows}
    return OperatorOverviewPublic(
        workspaces=len(rows),
        suspended=sum(1 for r in rows if r.workspace.suspended_at is not None),
        plans=len(plans.list_plans(db)),
        operators=len(operators.list_operators(db)),
        totals={m: sum(u.get(m) or 0 for u in usage.values()) for m in METRICS},
        top={
            m: [
                TopWorkspace(workspace_id=w, name=names[w], value=v)
                for w, v in platform_usage.top(usage, m)
            ]
            for m in METRICS
        },
    )


@router.get("/workspaces", response_model=OperatorWorkspacesPublic)
def read_workspaces(
    db: SessionDep,
    storage: StorageDep,
    _: OperatorDep,
    search: Annotated[
        str | None,
        Query(max_length=200, pattern=NO_CONTROL, description="Part of the name, id or an owner"),
    ] = None,
    plan_id: uuid.UUID | None = None,
    suspended: bool | None = None,
    sort: SortKey = "name",
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> OperatorWorkspacesPublic:
    """Every workspace with its plan, owners and usage, filtered and sorted (a leading ``-``
    sorts by the most first)."""
    rows = operators.list_workspaces(db)
    if search:
        needle = search.strip().lower()
        rows = [
            r
            for r in rows
            if needle in r.workspace.name.lower()
            or needle in str(r.workspace.id)
            or any(needle in o.lower() for o in r.owners)
        ]
    if plan_id is not None:
        rows = [r for r in rows if r.plan.id == plan_id]
    if suspended is not None:
        rows = [r for r in rows if (r.workspace.suspended_at is not None) == suspended]
    key = sort.lstrip("-")
    descending = sort.startswith("-")
    usage: dict[uuid.UUID, WorkspaceUsage] = {}
    if key in METRICS:
        usage = platform_usage.collect(
            db, storage=storage, workspace_ids=[r.workspace.id for r in rows]
        )
        rows.sort(key=lambda r: usage[r.workspace.id].get(key) or 0, reverse=descending)
    elif key == "created_at":
        rows.sort(key=lambda r: r.workspace.created_at, reverse=descending)
    elif descending:
        rows.reverse()
    page = rows[offset : offset + limit]
    if key not in METRICS:
        usage = platform_usage.collect(
            db, storage=storage, workspace_ids=[r.workspace.id for r in page]
        )
    return OperatorWorkspacesPublic(
        data=[_workspace(r, usage[r.workspace.id]) for r in page], count=len(rows)
    )


@router.get("/workspaces/{workspace_id}", response_model=OperatorWorkspaceDetail)
def read_workspace(
    workspace_id: uuid.UUID, db: SessionDep, storage: StorageDep, _: OperatorDep
) -> OperatorWorkspaceDetail:
    """One workspace with its plan, owners, usage and limits."""
    return _detail(db, storage, workspace_id)


@router.put("/workspaces/{workspace_id}/plan", response_model=PlanChangePublic)
def change_plan(
    workspace_id: uuid.UUID,
    body: PlanAssign,
    db: SessionDep,
    storage: StorageDep,
    operator: OperatorDep,
) -> PlanChangePublic:
    """Move the workspace to a plan. Limits above the new plan's ceilings are lowered to them
    (in the workspace's audit log as well as the operator's)."""
    lowered = operators.change_plan(
        db, workspace_id=workspace_id, plan_id=body.plan_id, actor=operator.actor
    )
    return PlanChangePublic(
        workspace=_detail(db, storage, workspace_id),
        lowered={k: LimitChange.model_validate(v) for k, v in lowered.items()},
    )


@router.post(
    "/workspaces/{workspace_id}/suspend", response_model=OperatorWorkspaceDetail, responses=CONFLICT
)
def suspend_workspace(
    workspace_id: uuid.UUID,
    body: SuspendRequest,
    db: SessionDep,
    storage: StorageDep,
    operator: OperatorDep,
) -> OperatorWorkspaceDetail:
    """Suspend a workspace: its ingest keys get 403 at the gateway (within its key cache's
    5 s), its query keys and members get 403 at the query API; its data stays."""
    operators.suspend(
        db, workspace_id=workspace_id, reason=body.reason.strip(), actor=operator.actor
    )
    return _detail(db, storage, workspace_id)


@router.post(
    "/workspaces/{workspace_id}/resume", response_model=OperatorWorkspaceDetail, responses=CONFLICT
)
def resume_workspace(
    workspace_id: uuid.UUID, db: SessionDep, storage: StorageDep, operator: OperatorDep
) -> OperatorWorkspaceDetail:
    """Lift a suspension: writes and queries are accepted again."""
    operators.resume(db, workspace_id=workspace_id, actor=operator.actor)
    return _detail(db, storage, workspace_id)


@router.get("/plans", response_model=PlansPublic)
def read_plans(db: SessionDep, _: OperatorDep) -> PlansPublic:
    """Every plan (the default first) with how many workspaces are on it."""
    data = [_plan(p, n) for p, n in plans.list_plans(db)]
    return PlansPublic(data=data, count=len(data))


@router.post(
    "/plans", response_model=PlanPublic, status_code=status.HTTP_201_CREATED, responses=CONFLICT
)
def create_plan(body: PlanCreate, db: SessionDep, operator: OperatorDep) -> PlanPublic:
    """Create a plan (not the default: make it so with PATCH ``is_default``)."""
    plan = plans.create_plan(db, data=body.model_dump(), actor=operator.actor)
    return _plan(plan, 0)


@router.get("/plans/{plan_id}", response_model=PlanPublic)
def read_plan(plan_id: uuid.UUID, db: SessionDep, _: OperatorDep) -> PlanPublic:
    """One plan."""
    plan = plans.get_plan(db, plan_id=plan_id)
    return _plan(plan, plans.workspace_count(db, plan_id=plan_id))


@router.patch("/plans/{plan_id}", response_model=PlanPublic, responses=CONFLICT)
def update_plan(
    plan_id: uuid.UUID, body: PlanUpdate, db: SessionDep, operator: OperatorDep
) -> PlanPublic:
    """Change a plan. Lowering a ceiling lowers that limit of every workspace on the plan
    that is above it (audited in each)."""
    changes = body.model_dump(exclude_unset=True)
    for field in ("name", "is_default", *plans.BOUND_FIELDS):
        if changes.get(field, 0) is None:
            del changes[field]  # null means "keep", as leaving the field out does
    plan, _ = plans.update_plan(db, plan_id=plan_id, changes=changes, actor=operator.actor)
    return _plan(plan, plans.workspace_count(db, plan_id=plan_id))


@router.delete("/plans/{plan_id}", response_model=Message, responses=CONFLICT)
def delete_plan(plan_id: uuid.UUID, db: SessionDep, operator: OperatorDep) -> Message:
    """Delete a plan no workspace is on (never the default)."""
    plans.delete_plan(db, plan_id=plan_id, actor=operator.actor)
    return Message(message="Plan deleted")


@router.get("/audit", response_model=OperatorAuditEventsPublic)
def read_operator_audit(
    db: SessionDep,
    _: OperatorDep,
    action: Annotated[
        str | None,
        Query(
            max_length=64,
            pattern=NO_CONTROL,
            examples=["workspace.suspend", "plan.*"],
            description="An action name, or a family such as `plan.*`",
        ),
    ] = None,
    actor: Annotated[
        str | None,
        Query(max_length=320, pattern=NO_CONTROL, description="Part of the actor's email"),
    ] = None,
    workspace_id: uuid.UUID | None = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> OperatorAuditEventsPublic:
    """What operators did, newest first."""
    rows, count = audit.list_operator_events(
        db, action=action, actor=actor, workspace_id=workspace_id, limit=limit, offset=offset
    )
    return OperatorAuditEventsPublic(
        data=[OperatorAuditEventPublic.model_validate(r) for r in rows], count=count
    )
