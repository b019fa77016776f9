"""Members, roles and invitations of a workspace."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Path, Query, Response, status

from app.api.deps import CurrentSessionDep, SessionDep, WorkspaceContext, WorkspaceDep
from app.core.permissions import Permission
from app.models import Invitation, Membership, User
from app.schemas.common import ERROR_RESPONSES, ErrorPublic, Message
from app.schemas.member import (
    InvitationAccept,
    InvitationCreate,
    InvitationCreated,
    InvitationPreview,
    InvitationPublic,
    InvitationsPublic,
    MemberPublic,
    MemberRemoved,
    MembersPublic,
    MemberUpdate,
)
from app.schemas.workspace import WorkspacePublic
from app.services import members

router = APIRouter(prefix="/workspaces/{workspace_id}", tags=["members"], responses=ERROR_RESPONSES)
invitations_router = APIRouter(prefix="/invitations", tags=["members"], responses=ERROR_RESPONSES)

Readers = Annotated[WorkspaceContext, WorkspaceDep(Permission.MEMBERS_READ)]
Managers = Annotated[WorkspaceContext, WorkspaceDep(Permission.MEMBERS_MANAGE)]


def _member(membership: Membership, user: User) -> MemberPublic:
    return MemberPublic(
        user_id=user.id,
        email=user.email,
        full_name=user.full_name,
        role=membership.role,
        created_at=membership.created_at,
    )


def _invitation(invitation: Invitation) -> InvitationPublic:
    return InvitationPublic.model_validate(invitation, from_attributes=True)


@router.get("/members", response_model=MembersPublic)
def read_members(db: SessionDep, ws: Readers) -> MembersPublic:
    """Members of the workspace and their roles."""
    data = [_member(m, u) for m, u in members.list_members(db, workspace_id=ws.id)]
    return MembersPublic(data=data, count=len(data))


@router.patch(
    "/members/{user_id}",
    response_model=MemberPublic,
    responses={409: {"model": ErrorPublic, "description": "Would leave no owner"}},
)
def update_member(
    user_id: uuid.UUID, body: MemberUpdate, db: SessionDep, ws: Managers
) -> MemberPublic:
    """Change a member's role. Nobody can grant a role above their own."""
    assert ws.role is not None
    membership, user = members.change_role(
        db, workspace_id=ws.id, user_id=user_id, role=body.role, actor_role=ws.role, actor=ws.actor
    )
    return _member(membership, user)


@router.delete(
    "/members/{user_id}",
    response_model=MemberRemoved,
    responses={409: {"model": ErrorPublic, "description": "Would leave no owner"}},
)
def delete_member(
    user_id: uuid.UUID,
    db: SessionDep,
    ws: Managers,
    revoke_keys: Annotated[
        bool,
        Query(
            description="Also revoke the API keys this member created. Keys belong to the "
            "workspace, so by default they keep working (the keys list shows who created each)"
        ),
    ] = False,
) -> MemberRemoved:
    """Remove a member from the workspace. Their pending invitations are revoked."""
    assert ws.role is not None
    removal = members.remove_member(
        db,
        workspace_id=ws.id,
        user_id=user_id,
        actor_role=ws.role,
        actor=ws.actor,
        revoke_keys=revoke_keys,
    )
    return MemberRemoved(
        message="Member removed",
        invitations_revoked=removal.invitations_revoked,
        keys_revoked=removal.keys_revoked,
    )


@router.post(
    "/leave",
    response_model=Message,
    responses={409: {"model": ErrorPublic, "description": "You are the last owner"}},
)
def leave_workspace(
    db: SessionDep, ws: Annotated[WorkspaceContext, WorkspaceDep(Permission.WORKSPACE_LEAVE)]
) -> Message:
    """Leave the workspace yourself."""
    assert ws.user is not None
    members.leave(db, workspace_id=ws.id, user_id=ws.user.id, actor=ws.actor)
    return Message(message="You left the workspace")


@router.get("/invitations", response_model=InvitationsPublic)
def read_invitations(db: SessionDep, ws: Managers) -> InvitationsPublic:
    """Invitations of the workspace (codes are never shown again)."""
    data = [_invitation(i) for i in members.list_invitations(db, workspace_id=ws.id)]
    return InvitationsPublic(data=data, count=len(data))


@router.post(
    "/invitations",
    response_model=InvitationCreated,
    status_code=status.HTTP_201_CREATED,
    responses={
        409: {
            "model": ErrorPublic,
            "description": "Already a member, or a pending invitation for that email exists",
        },
        429: {
            "model": ErrorPublic,
            "description": "Members and pending invitations reach the limit (max_members)",
        },
    },
)
def create_invitation(body: InvitationCreate, db: SessionDep, ws: Managers) -> InvitationCreated:
    """Invite someone by email. The response carries the code to hand over; it is shown once.
    Members and pending invitations together stay within the workspace's ``max_members``."""
    assert ws.role is not None
    invitation, code = members.create_invitation(
        db, workspace_id=ws.id, email=body.email, role=body.role, actor_role=ws.role, actor=ws.actor
    )
    return InvitationCreated(**_invitation(invitation).model_dump(), code=code)


@router.delete("/invitations/{invitation_id}", response_model=InvitationPublic)
def revoke_invitation(invitation_id: uuid.UUID, db: SessionDep, ws: Managers) -> InvitationPublic:
    """Revoke a pending invitation."""
    invitation = members.revoke_invitation(
        db, workspace_id=ws.id, invitation_id=invitation_id, actor=ws.actor
    )
    return _invitation(invitation)


@invitations_router.post(
    "/accept",
    response_model=WorkspacePublic,
    responses={
        400: {"model": ErrorPublic, "description": "Invitation expired"},
        409: {"model": ErrorPublic, "description": "Invitation used, or already a member"},
        429: {"model": ErrorPublic, "description": "The workspace is full (max_members)"},
    },
)
def accept_invitation(
    body: InvitationAccept, db: SessionDep, current: CurrentSessionDep
) -> WorkspacePublic:
    """Join a workspace with an invitation code sent to your email address."""
    workspace, role = members.accept_invitation(
        db, code=body.code, user=current.user, actor=current.actor
    )
    return WorkspacePublic(
        id=workspace.id, name=workspace.name, created_at=workspace.created_at, role=role
    )


@invitations_router.get(
    "/{code}",
    response_model=InvitationPreview,
    responses={404: {"model": ErrorPublic, "description": "No invitation has this code"}},
)
def read_invitation_by_code(
    code: Annotated[str, Path(min_length=1, max_length=200)], db: SessionDep, response: Response
) -> InvitationPreview:
    """What an invitation offers, for the person holding its code; no session needed.

    Answers only the workspace's name, the role, who invited whom, the expiry and the state,
    so the code reveals nothing else about the workspace.
    """
    invitation, workspace, inviter = members.find_invitation(db, code=code)
    # The code is a secret: keep the answer out of shared caches and browser history.
    response.headers["Cache-Control"] = "no-store"
    state = members.invitation_state(invitation, now=datetime.now(UTC))
    # A link that no longer works (used, revoked, expired) may have reached someone else:
    # it no longer tells either person's address.
    pending = state == "pending"
    return InvitationPreview(
        workspace_name=workspace.name,
        role=invitation.role,
        email=invitation.email if pending else None,
        inviter_name=inviter.full_name if inviter else None,
        inviter_email=inviter.email if inviter and pending else None,
        expires_at=invitation.expires_at,
        state=state,
    )
