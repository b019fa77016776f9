from __future__ import annotations

import uuid
from datetime import datetime

from pydantic import BaseModel, Field, field_validator

from app.models.workspace import Role


def _clean_name(value: str) -> str:
    value = value.strip()
    if not value:
        raise ValueError("name must not be blank")
    return value


class WorkspaceCreate(BaseModel):
    name: str = Field(min_length=1, max_length=100, examples=["Production"])

    _name = field_validator("name")(_clean_name)


class WorkspaceUpdate(BaseModel):
    name: str | None = Field(default=None, min_length=1, max_length=100)

    @field_validator("name")
    @classmethod
    def _name(cls, value: str | None) -> str | None:
        return None if value is None else _clean_name(value)


class WorkspacePublic(BaseModel):
    id: uuid.UUID
    name: str
    created_at: datetime
    role: Role = Field(description="Your role in this workspace")


class WorkspacesPublic(BaseModel):
    data: list[WorkspacePublic]
    count: int


class WorkspaceDelete(BaseModel):
    """Deleting is irreversible: type the workspace's name to confirm."""

    confirm_name: str = Field(min_length=1, max_length=100)
