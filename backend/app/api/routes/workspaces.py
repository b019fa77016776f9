"""Workspaces (tenants)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, status

from app.api.deps import (
    CurrentSessionDep,
    SessionDep,
    StorageDep,
    WorkspaceContext,
    WorkspaceDep,
)
from app.core.permissions import Permission
from app.models import Role, Workspace
from app.schemas.common import ERROR_RESPONSES, ErrorPublic, Message
from app.schemas.workspace import (
    WorkspaceCreate,
    WorkspaceDelete,
    WorkspacePublic,
    WorkspacesPublic,
    WorkspaceUpdate,
)
from app.services import workspaces

router = APIRouter(prefix="/workspaces", tags=["workspaces"], responses=ERROR_RESPONSES)


def _public(workspace: Workspace, role: Role) -> WorkspacePublic:
    return WorkspacePublic(
        id=workspace.id,
        name=workspace.name,
        created_at=workspace.created_at,
        role=role,
        suspended_at=workspace.suspended_at,
        suspended_reason=workspace.suspended_reason,
    )


@router.get("", response_model=WorkspacesPublic)
def read_workspaces(db: SessionDep, current: CurrentSessionDep) -> WorkspacesPublic:
    """The workspaces you are a member of, with your role in each."""
    rows = workspaces.list_for_user(db, user_id=current.user.id)
    data = [_public(w, r) for w, r in rows]
    return WorkspacesPublic(data=data, count=len(data))


@router.post("", response_model=WorkspacePublic, status_code=status.HTTP_201_CREATED)
def create_workspace(
    body: WorkspaceCreate, db: SessionDep, current: CurrentSessionDep
) -> WorkspacePublic:
    """Create a workspace; you become its owner. It comes with the "Host overview" dashboard."""
    workspace = workspaces.create_workspace(
        db, name=body.name, owner=current.user, actor=current.actor
    )
    return _public(workspace, Role.owner)


@router.get("/{workspace_id}", response_model=WorkspacePublic)
def read_workspace(
    ws: Annotated[WorkspaceContext, WorkspaceDep(Permission.WORKSPACE_READ)],
) -> WorkspacePublic:
    """One workspace, with your role."""
    assert ws.role is not None
    return _public(ws.workspace, ws.role)


@router.patch("/{workspace_id}", response_model=WorkspacePublic)
def update_workspace(
    body: WorkspaceUpdate,
    db: SessionDep,
    ws: Annotated[WorkspaceContext, WorkspaceDep(Permission.WORKSPACE_UPDATE)],
) -> WorkspacePublic:
    """Rename a workspace (admins and owners)."""
    assert ws.role is not None
    workspace = ws.workspace
    if body.name is not None:
        workspace = workspaces.rename(db, workspace_id=ws.id, name=body.name, actor=ws.actor)
    return _public(workspace, ws.role)


@router.delete(
    "/{workspace_id}",
    response_model=Message,
    responses={
        400: {"model": ErrorPublic, "description": "confirm_name does not match"},
        502: {"model": ErrorPublic, "description": "Storage could not delete the data; retry"},
    },
)
def delete_workspace(
    body: WorkspaceDelete,
    db: SessionDep,
    storage: StorageDep,
    ws: Annotated[WorkspaceContext, WorkspaceDep(Permission.WORKSPACE_DELETE)],
) -> Message:
    """Delete a workspace, its stored data, keys, members and invitations (owners only).

    Send the workspace's exact name as ``confirm_name``.
    """
    workspaces.delete_workspace(
        db, workspace_id=ws.id, confirm_name=body.confirm_name, storage=storage, actor=ws.actor
    )
    return Message(message="Workspace deleted")
