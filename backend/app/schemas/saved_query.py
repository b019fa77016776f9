from __future__ import annotations

import uuid
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from app.schemas.common import Name200


class SavedQueryCreate(BaseModel):
    name: Name200 = Field(examples=["CPU by host"])
    description: str = Field(default="", max_length=2000)
    query: str = Field(
        min_length=1, max_length=65536, examples=["M::cpu:(avg(usage_user)) [1h] BY host"]
    )


class SavedQueryUpdate(BaseModel):
    name: Name200 | None = None
    description: str | None = Field(default=None, max_length=2000)
    query: str | None = Field(default=None, min_length=1, max_length=65536)


class SavedQueryPublic(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: uuid.UUID
    workspace_id: uuid.UUID
    name: str
    description: str
    query: str
    created_by: uuid.UUID | None
    created_at: datetime
    updated_at: datetime


class SavedQueriesPublic(BaseModel):
    data: list[SavedQueryPublic]
    count: int
