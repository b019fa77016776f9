"""Plans and the bounds they put on workspace limits.

``BOUNDS`` is the one table of which plan column bounds which workspace limit, and which way.
Each plan column is named after the limit it bounds, and every workspace limit has one (a test
fails when a limit is added without its bound).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.core.errors import AbovePlan, Conflict, LimitExceeded, NotFound
from app.models import Plan, Workspace, WorkspaceLimits
from app.services import audit
from app.services.audit import Actor


@dataclass(frozen=True)
class Bound:
    """The plan column ``limit`` bounds the workspace limit of the same name."""

    limit: str
    direction: Literal["ceiling", "floor"]  # the limit may be at most / at least the bound
    label: str  # how people call it, in messages

    def allows(self, value: int, bound: int) -> bool:
        return value <= bound if self.direction == "ceiling" else value >= bound

    def within(self, value: int, bound: int) -> int:
        """``value`` moved inside the bound (unchanged when it already is)."""
        return min(value, bound) if self.direction == "ceiling" else max(value, bound)


BOUNDS: tuple[Bound, ...] = (
    Bound("ingest_points_per_second", "ceiling", "ingest rate"),
    Bound("ingest_burst", "ceiling", "ingest burst"),
    Bound("max_body_bytes", "ceiling", "request body size"),
    Bound("active_series", "ceiling", "active series"),
    Bound("query_timeout_seconds", "ceiling", "query timeout"),
    Bound("max_points_per_query", "ceiling", "points per query"),
    Bound(
        "concurrent_queries",
        "ceiling",
        "concurrent queries",
    ),
    Bound("retention_days", "ceiling", "retention"),
    Bound(
        "max_monitors",
        "ceiling",
        "monitors",
    ),
    Bound(
        "min_monitor_interval_seconds",
        "floor",
        "monitor interval",
    ),
    Bound(
        "max_notifications_per_hour",
        "ceiling",
        "notifications per hour",
    ),
    Bound("max_members", "ceiling", "members"),
    Bound("max_dashboards", "ceiling", "dashboards"),
)
BOUND_FIELDS: tuple[str, ...] = tuple(b.limit for b in BOUNDS)


def get_plan(db: Session, *, plan_id: uuid.UUID) -> Plan:
    plan = db.get(Plan, plan_id)
    if plan is None:
        raise NotFound("Plan not found")
    return plan


def default_plan(db: Session) -> Plan:
    plan = db.scalar(select(Plan).where(Plan.is_default))
    if plan is None:  # the migration creates one and nothing removes the flag without moving it
        raise RuntimeError("no default plan: run `vigil-admin migrate`")
    return plan


def plan_of(db: Session, *, workspace_id: uuid.UUID) -> Plan:
    plan = db.scalar(
        select(Plan)
        .join(Workspace, Workspace.plan_id == Plan.id)
        .where(Workspace.id == workspace_id)
    )
    if plan is None:
        raise NotFound("Workspace not found")
    return plan


def ceilings(plan: Plan) -> dict[str, int]:
    """The plan's bound of every limit."""
    return {b.limit: getattr(plan, b.limit) for b in BOUNDS}


def initial_limits(plan: Plan) -> dict[str, int]:
    """A new workspace's limits: its plan's bounds."""
    return ceilings(plan)


def check_within(plan: Plan, values: dict[str, Any]) -> None:
    """422 ``plan_ceiling`` naming every value in ``values`` outside its plan's bound."""
    problems = []
    for b in BOUNDS:
        value = values.get(b.limit)
        if value is None:
            continue
        bound = getattr(plan, b.limit)
        if not b.allows(value, bound):
            side = "above the ceiling" if b.direction == "ceiling" else "below the floor"
            problems.append(
                (
                    b.limit,
                    f"{b.limit}: {value:,} is {side} of the plan {plan.name} ({bound:,}); "
                    f"a platform operator sets the plan",
                )
            )
    if problems:
        raise AbovePlan(problems)


def set_limits(
    db: Session, *, limits: WorkspaceLimits, values: dict[str, Any], actor: Actor
) -> dict[str, dict[str, Any]]:
    """Set limits to ``values``; what changed goes to the workspace's audit log
    (``limits.update``, ``{limit: {"from", "to"}}``) and is returned. The caller commits."""
    diff: dict[str, dict[str, Any]] = {}
    for name, value in values.items():
        old = getattr(limits, name)
        if old != value:
            diff[name] = {"from": old, "to": value}
            setattr(limits, name, value)
    if diff:
        audit.record(
            db,
            actor=actor,
            action="limits.update",
            workspace_id=limits.workspace_id,
            target_type="workspace",
            target_id=limits.workspace_id,
            details=diff,
        )
    return diff


def bring_within(
    db: Session, *, workspace_id: uuid.UUID, plan: Plan, actor: Actor
) -> dict[str, dict[str, Any]]:
    """Move the workspace's limits inside the plan's bounds (audited). The caller commits."""
    limits = db.get(WorkspaceLimits, workspace_id, with_for_update=True)
    if limits is None:
        raise NotFound("Workspace limits not found")
    inside = {b.limit: b.within(getattr(limits, b.limit), getattr(plan, b.limit)) for b in BOUNDS}
    return set_limits(db, limits=limits, values=inside, actor=actor)


def require_room(db: Session, *, workspace_id: uuid.UUID, limit: str, used: int) -> None:
    """429 naming ``limit`` (a count: members, dashboards) when ``used`` already reaches it.

    Locks the workspace's limits row until the caller commits, so two requests at once cannot
    both take the last place.
    """
    limits = db.get(WorkspaceLimits, workspace_id, with_for_update=True)
    if limits is None:
        raise NotFound("Workspace limits not found")
    allowed = int(getattr(limits, limit))
    if used >= allowed:
        bound = next(b for b in BOUNDS if b.limit == limit)
        raise LimitExceeded(
            f"This workspace has reached its limit of {allowed:,} {bound.label} ({limit}): "
            f"remove one first, or ask an owner or admin to raise the limit within the plan",
            limit=limit,
        )


def list_plans(db: Session) -> list[tuple[Plan, int]]:
    counts = (
        select(Workspace.plan_id, func.count().label("n"))
        .where(Workspace.deleted_at.is_(None))
        .group_by(Workspace.plan_id)
        .subquery()
    )
    rows = db.execute(
        select(Plan, func.coalesce(counts.c.n, 0))
        .outerjoin(counts, counts.c.plan_id == Plan.id)
        .order_by(Plan.is_default.desc(), func.lower(Plan.name))
    ).tuples()
    return [(plan, int(n)) for plan, n in rows]


def workspace_count(db: Session, *, plan_id: uuid.UUID) -> int:
    return (
        db.scalar(
            select(func.count())
            .select_from(Workspace)
            .where(Workspace.plan_id == plan_id, Workspace.deleted_at.is_(None))
        )
        or 0
    )


def _name_taken(name: str) -> Conflict:
    return Conflict(f"A plan named {name!r} already exists", code="plan_name_taken")


def create_plan(db: Session, *, data: dict[str, Any], actor: Actor) -> Plan:
    plan = Plan(**data, is_default=False)
    db.add(plan)
    try:
        db.flush()
    except IntegrityError as exc:
        db.rollback()
        raise _name_taken(data["name"]) from exc
    audit.record_operator(
        db,
        actor=actor,
        action="plan.create",
        target_type="plan",
        target_id=plan.id,
        details={"name": plan.name, **{f: data[f] for f in BOUND_FIELDS}},
    )
    db.commit()
    return plan


def update_plan(
    db: Session, *, plan_id: uuid.UUID, changes: dict[str, Any], actor: Actor
) -> tuple[Plan, int]:
    """Change a plan; lowering a bound brings every workspace on it within the new bound.

    Returns the plan and how many workspaces had a limit changed.
    """
    plan = db.get(Plan, plan_id, with_for_update=True)
    if plan is None:
        raise NotFound("Plan not found")
    diff: dict[str, Any] = {}
    make_default = changes.pop("is_default", None)
    if make_default is False and plan.is_default:
        raise Conflict(
            "One plan is always the default: make another plan the default instead",
            code="default_plan_required",
        )
    if make_default and not plan.is_default:
        db.execute(update(Plan).where(Plan.is_default).values(is_default=False))
        db.flush()
        plan.is_default = True
        diff["is_default"] = {"from": False, "to": True}
    for name, value in changes.items():
        old = getattr(plan, name)
        if old != value:
            diff[name] = {"from": old, "to": value}
            setattr(plan, name, value)
    if not diff:
        return plan, 0
    plan.updated_at = datetime.now(UTC)
    try:
        db.flush()
    except IntegrityError as exc:
        db.rollback()
        raise _name_taken(str(changes.get("name"))) from exc
    changed = 0
    if any(name in BOUND_FIELDS for name in diff):
        for workspace_id in db.scalars(
            select(Workspace.id).where(Workspace.plan_id == plan.id, Workspace.deleted_at.is_(None))
        ).all():
            if bring_within(db, workspace_id=workspace_id, plan=plan, actor=actor):
                changed += 1
    audit.record_operator(
        db,
        actor=actor,
        action="plan.update",
        target_type="plan",
        target_id=plan.id,
        details={"name": plan.name, "changes": diff, "workspaces_lowered": changed},
    )
    db.commit()
    return plan, changed


def delete_plan(db: Session, *, plan_id: uuid.UUID, actor: Actor) -> None:
    plan = get_plan(db, plan_id=plan_id)
    if plan.is_default:
        raise Conflict(
            "The default plan cannot be deleted: make another plan the default first",
            code="default_plan_required",
        )
    in_use = workspace_count(db, plan_id=plan_id)
    if in_use:
        raise Conflict(
            f"{in_use} workspace{'s are' if in_use != 1 else ' is'} on the plan {plan.name}: "
            "move them to another plan first",
            code="plan_in_use",
        )
    # Deleted workspaces keep a plan for their row's sake: the default one from now on.
    db.execute(
        update(Workspace).where(Workspace.plan_id == plan_id).values(plan_id=default_plan(db).id)
    )
    db.delete(plan)
    audit.record_operator(
        db,
        actor=actor,
        action="plan.delete",
        target_type="plan",
        target_id=plan_id,
        details={"name": plan.name},
    )
    db.commit()
