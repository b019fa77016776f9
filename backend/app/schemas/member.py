from __future__ import annotations

import uuid
from datetime import datetime

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
