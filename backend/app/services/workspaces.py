"""Workspaces (tenants): creation with defaults, membership lookups, rename, delete."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.clients.storage import StorageClient
from app.core.errors import BadRequest, Forbidden, NotFound
from app.models import (
    ApiKey,
    Invitation,
    Membership,
    Role,
    User,
    Workspace,
    WorkspaceLimits,
)
from app.models.workspace import STORAGE_TENANT_INDEX
from app.services import audit, dashboards, plans
from app.services.audit import Actor
from app.services.builtin_dashboards import host_overview


def create_workspace(db: Session, *, name: str, owner: User, actor: Actor) -> Workspace:
    """A workspace with its creator as owner, on the default plan with limits at its
    bounds, and the shipped dashboards."""
    plan = plans.default_plan(db)
    workspace = _insert_workspace(db, name=name, owner=owner, plan_id=plan.id)
    db.add(Membership(workspace_id=workspace.id, user_id=owner.id, role=Role.owner))
    db.add(WorkspaceLimits(workspace_id=workspace.id, **plans.initial_limits(plan)))
    dashboards.create_dashboard(
        db, workspace_id=workspace.id, data=host_overview(), user_id=owner.id, message="shipped"
    )
    audit.record(
        db,
        actor=actor,
        action="workspace.create",
        workspace_id=workspace.id,
        target_type="workspace",
        target_id=workspace.id,
        details={"name": name},
    )
    db.commit()
    return workspace


def _insert_workspace(db: Session, *, name: str, owner: User, plan_id: uuid.UUID) -> Workspace:
    """Insert the workspace's row with a fresh id. The first 8 bytes of the id name its tenant
    in vigil-storage's cluster mode and must be unique (``uq_workspaces_storage_tenant``):
    the rare id that repeats another's draws again."""
    for _ in range(8):
        workspace = Workspace(id=uuid.uuid4(), name=name, created_by=owner.id, plan_id=plan_id)
        try:
            with db.begin_nested():
                db.add(workspace)
                db.flush()
        except IntegrityError as exc:
            if STORAGE_TENANT_INDEX not in str(exc.orig):
                raise
            continue
        return workspace
    raise RuntimeError("could not draw a workspace id with an unused storage tenant")


def list_for_user(db: Session, *, user_id: uuid.UUID) -> list[tuple[Workspace, Role]]:
    rows = db.execute(
        select(Workspace, Membership.role)
        .join(Membership, Membership.workspace_id == Workspace.id)
        .where(Membership.user_id == user_id, Workspace.deleted_at.is_(None))
        .order_by(func.lower(Workspace.name), Workspace.created_at)
    ).all()
    return [(w, r) for w, r in rows]


def get_active(db: Session, *, workspace_id: uuid.UUID) -> Workspace | None:
    workspace = db.get(Workspace, workspace_id)
    if workspace is None or workspace.deleted_at is not None:
        return None
    return workspace


def ensure_not_suspended(workspace: Workspace) -> None:
    """403 ``workspace_suspended`` for a workspace a platform operator suspended."""
    if workspace.suspended_at is not None:
        reason = f" ({workspace.suspended_reason})" if workspace.suspended_reason else ""
        raise Forbidden(
            f"This workspace is suspended{reason}: its data is kept, but queries and writes "
            "are refused until a platform operator resumes it",
            code="workspace_suspended",
        )


def get_role(db: Session, *, workspace_id: uuid.UUID, user_id: uuid.UUID) -> Role | None:
    return db.scalar(
        select(Membership.role).where(
            Membership.workspace_id == workspace_id, Membership.user_id == user_id
        )
    )


def rename(db: Session, *, workspace_id: uuid.UUID, name: str, actor: Actor) -> Workspace:
    workspace = get_active(db, workspace_id=workspace_id)
    if workspace is None:
        raise NotFound("Workspace not found")
    old = workspace.name
    workspace.name = name
    audit.record(
        db,
        actor=actor,
        action="workspace.rename",
        workspace_id=workspace_id,
        target_type="workspace",
        target_id=workspace_id,
        details={"from": old, "to": name},
    )
    db.commit()
    return workspace


def delete_workspace(
    db: Session,
    *,
    workspace_id: uuid.UUID,
    confirm_name: str,
    storage: StorageClient,
    actor: Actor,
) -> None:
    """Delete the workspace's series in storage, then its keys, members and invitations.

    Storage goes first: if it fails nothing is deleted here and the owner can retry. The
    workspace row is kept (``deleted_at`` set) so the audit trail keeps its subject.
    """
    workspace = get_active(db, workspace_id=workspace_id)
    if workspace is None:
        raise NotFound("Workspace not found")
    if confirm_name != workspace.name:
        raise BadRequest(
            "confirm_name does not match the workspace's name", code="confirmation_mismatch"
        )
    storage.delete_workspace(workspace_id=workspace_id)
    db.execute(delete(ApiKey).where(ApiKey.workspace_id == workspace_id))
    db.execute(delete(Invitation).where(Invitation.workspace_id == workspace_id))
    db.execute(delete(Membership).where(Membership.workspace_id == workspace_id))
    workspace.deleted_at = datetime.now(UTC)
    audit.record(
        db,
        actor=actor,
        action="workspace.delete",
        workspace_id=workspace_id,
        target_type="workspace",
        target_id=workspace_id,
        details={"name": workspace.name},
    )
    db.commit()
