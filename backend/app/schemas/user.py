from __future__ import annotations

import uuid
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field


class UserPublic(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: uuid.UUID
    email: str  # validated at signup; shown as stored
    full_name: str | None
    created_at: datetime
    is_operator: bool = Field(
        default=False, description="A platform operator (the Operator area, /api/v1/operator)"
    )
    email_verified_at: datetime = Field(description="When the address answered its link")


class UserUpdate(BaseModel):
    full_name: str | None = Field(default=None, max_length=200)
