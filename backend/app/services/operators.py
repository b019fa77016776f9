"""The platform operators' side: who is one, and what they do to workspaces (plan, suspension).

Every action here lands in the operator audit log; those a workspace's admins should know of
(its plan changed, it was suspended or resumed, its limits lowered) land in the workspace's
audit log too.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.core.errors import Conflict, NotFound
from app.models import Dashboard, Membership, Plan, Role, User, Workspace
from app.services import audit, plans, users
from app.services.audit import Actor


def grant(db: Session, *, email: str, actor: Actor) -> User:
    """Make the account with this email a platform operator (idempotent)."""
    user = users.get_by_email(db, email=email)
    if user is None:
        raise NotFound(f"No account with the email {email}: sign up first")
    if not user.is_operator:
        user.is_operator = True
        audit.record_operator(
            db,
            actor=actor,
            action="operator.grant",
            target_type="user",
            target_id=user.id,
            details={"email": user.email},
        )
        db.commit()
    return user


def revoke(db: Session, *, email: str, actor: Actor) -> User:
    """Take the operator role away (idempotent); the last operator cannot be removed."""
    user = users.get_by_email(db, email=email)
    if user is None:
        raise NotFound(f"No account with the email {email}")
    if user.is_operator:
        # Lock the operators so two revocations at once cannot both pass the check.
        others = db.scalars(
            select(User.id).where(User.is_operator, User.id != user.id).with_for_update()
        ).all()
        if not others:
            raise Conflict(
                f"{user.email} is the last operator: grant the role to someone else first",
                code="last_operator",
            )
        user.is_operator = False
        audit.record_operator(
            db,
            actor=actor,
            action="operator.revoke",
            target_type="user",
            target_id=user.id,
            details={"email": user.email},
        )
        db.commit()
    return user


def list_operators(db: Session) -> list[User]:
    return list(db.scalars(select(User).where(User.is_operator).order_by(User.email)).all())


@dataclass(frozen=True)
class WorkspaceRow:
    workspace: Workspace
    plan: Plan
    owners: list[str]
    members: int
    dashboards: int


def _rows(db: Session, workspace_ids: list[uuid.UUID] | None = None) -> list[WorkspaceRow]:
    query = (
        select(Workspace, Plan)
        .join(Plan, Plan.id == Workspace.plan_id)
        .where(Workspace.deleted_at.is_(None))
        .order_by(func.lower(Workspace.name), Workspace.created_at)
    )
    if workspace_ids is not None:
        query = query.where(Workspace.id.in_(workspace_ids))
    found = db.execute(query).tuples().all()
    ids = [w.id for w, _ in found]
    owners: dict[uuid.UUID, list[str]] = {}
    for ws_id, email in db.execute(
        select(Membership.workspace_id, User.email)
        .join(User, User.id == Membership.user_id)
        .where(Membership.workspace_id.in_(ids), Membership.role == Role.owner)
        .order_by(User.email)
    ).tuples():
        owners.setdefault(ws_id, []).append(email)
    members = dict(
        db.execute(
            select(Membership.workspace_id, func.count())
            .where(Membership.workspace_id.in_(ids))
            .group_by(Membership.workspace_id)
        )
        .tuples()
        .all()
    )
    dashboards = dict(
        db.execute(
            select(Dashboard.workspace_id, func.count())
            .where(Dashboard.workspace_id.in_(ids))
            .group_by(Dashboard.workspace_id)
        )
        .tuples()
        .all()
    )
    return [
        WorkspaceRow(w, p, owners.get(w.id, []), members.get(w.id, 0), dashboards.get(w.id, 0))
        for w, p in found
    ]


def list_workspaces(db: Session) -> list[WorkspaceRow]:
    """Every workspace that is not deleted, with its plan, owners and counts, by name."""
    return _rows(db)


def get_workspace(db: Session, *, workspace_id: uuid.UUID) -> WorkspaceRow:
    rows = _rows(db, [workspace_id])
    if not rows:
        raise NotFound("Workspace not found")
    return rows[0]


def _active(db: Session, workspace_id: uuid.UUID) -> Workspace:
    workspace = db.get(Workspace, workspace_id, with_for_update=True)
    if workspace is None or workspace.deleted_at is not None:
        raise NotFound("Workspace not found")
    return workspace


def change_plan(
    db: Session, *, workspace_id: uuid.UUID, plan_id: uuid.UUID, actor: Actor
) -> dict[str, dict[str, int]]:
    """Move a workspace to a plan; limits beyond the new plan's bounds come within them.

    Returns the limits that changed (``{limit: {"from", "to"}}``).
    """
    workspace = _active(db, workspace_id)
    plan = plans.get_plan(db, plan_id=plan_id)
    if workspace.plan_id == plan.id:
        return {}
    old = plans.get_plan(db, plan_id=workspace.plan_id)
    workspace.plan_id = plan.id
    details = {"from": old.name, "to": plan.name}
    audit.record(
        db,
        actor=actor,
        action="workspace.plan_change",
        workspace_id=workspace_id,
        target_type="workspace",
        target_id=workspace_id,
        details=details,
    )
    lowered = plans.bring_within(db, workspace_id=workspace_id, plan=plan, actor=actor)
    audit.record_operator(
        db,
        actor=actor,
        action="workspace.plan_change",
        target_type="workspace",
        target_id=workspace_id,
        workspace_id=workspace_id,
        details={**details, "workspace": workspace.name, "limits_lowered": lowered},
    )
    db.commit()
    return lowered


def suspend(db: Session, *, workspace_id: uuid.UUID, reason: str, actor: Actor) -> None:
    """Refuse the workspace's writes and queries from now on; its data stays."""
    workspace = _active(db, workspace_id)
    if workspace.suspended_at is not None:
        raise Conflict("The workspace is already suspended", code="already_suspended")
    workspace.suspended_at = datetime.now(UTC)
    workspace.suspended_reason = reason
    audit.record(
        db,
        actor=actor,
        action="workspace.suspend",
        workspace_id=workspace_id,
        target_type="workspace",
        target_id=workspace_id,
        details={"name": workspace.name, "reason": reason},
        operator_log=True,
    )
    db.commit()


def resume(db: Session, *, workspace_id: uuid.UUID, actor: Actor) -> None:
    workspace = _active(db, workspace_id)
    if workspace.suspended_at is None:
        raise Conflict("The workspace is not suspended", code="not_suspended")
    since = workspace.suspended_at
    workspace.suspended_at = None
    workspace.suspended_reason = None
    audit.record(
        db,
        actor=actor,
        action="workspace.resume",
        workspace_id=workspace_id,
        target_type="workspace",
        target_id=workspace_id,
        details={"name": workspace.name, "suspended_since": since.isoformat()},
        operator_log=True,
    )
    db.commit()
