from __future__ import annotations

import uuid
from datetime import datetime

from pydantic import BaseModel, Field

from app.models.workspace import Role
from app.schemas.common import Name100


class WorkspaceCreate(BaseModel):
    name: Name100 = Field(examples=["Production"])


class WorkspaceUpdate(BaseModel):
    name: Name100 | None = None


class WorkspacePublic(BaseModel):
    id: uuid.UUID
    name: str
    created_at: datetime
    role: Role = Field(description="Your role in this workspace")
    suspended_at: datetime | None = Field(
        default=None,
        description="Set while a platform operator has the workspace suspended: its data is "
        "kept, but writes and queries are refused (403 workspace_suspended)",
    )
    suspended_reason: str | None = None


class WorkspacesPublic(BaseModel):
    data: list[WorkspacePublic]
    count: int


class WorkspaceDelete(BaseModel):
    """Deleting is irreversible: type the workspace's name to confirm."""

    confirm_name: str = Field(min_length=1, max_length=100)
