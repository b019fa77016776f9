from __future__ import annotations

import uuid
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, EmailStr, Field

from app.models.workspace import Role


class MemberPublic(BaseModel):
    user_id: uuid.UUID
    email: str
    full_name: str | None
    role: Role
    created_at: datetime


class MembersPublic(BaseModel):
    data: list[MemberPublic]
    count: int


class MemberUpdate(BaseModel):
    role: Role


class MemberRemoved(BaseModel):
    message: str
    invitations_revoked: int = Field(description="Their pending invitations, now revoked")
    keys_revoked: int = Field(description="Their API keys revoked (revoke_keys=true)")


class InvitationCreate(BaseModel):
    email: EmailStr = Field(examples=["grace@example.com"])
    role: Role = Role.viewer


class InvitationPublic(BaseModel):
    id: uuid.UUID
    workspace_id: uuid.UUID
    email: str
    role: Role
    created_at: datetime
    expires_at: datetime
    accepted_at: datetime | None
    revoked_at: datetime | None


class InvitationCreated(InvitationPublic):
    code: str = Field(description="Shown once; give it to the invitee (POST /invitations/accept)")


class InvitationsPublic(BaseModel):
    data: list[InvitationPublic]
    count: int


class InvitationAccept(BaseModel):
    code: str = Field(min_length=1, max_length=200)


InvitationState = Literal["pending", "accepted", "revoked", "expired"]


class InvitationPreview(BaseModel):
    """What the holder of an invitation code may learn before accepting it."""

    workspace_name: str
    role: Role = Field(description="The role the invitation offers")
    email: str | None = Field(
        description="The address the invitation was sent to; null once it is no longer pending"
    )
    inviter_name: str | None = Field(description="Null when the inviter gave no name")
    inviter_email: str | None = Field(
        description="Null when the inviter's account is gone, an API key invited, "
        "or the invitation is no longer pending"
    )
    expires_at: datetime
    state: InvitationState = Field(
        description="accepted, revoked or expired invitations can no longer be accepted"
    )
