from __future__ import annotations

import uuid
from datetime import datetime

from pydantic import BaseModel, Field

from app.core.keys import SCOPES_HELP
from app.models import KeyScope
from app.schemas.common import Name100


class ApiKeyCreate(BaseModel):
    name: Name100 = Field(examples=["web-01 agent"])
    scope: KeyScope = Field(description=SCOPES_HELP)


class ApiKeyPublic(BaseModel):
    id: uuid.UUID
    workspace_id: uuid.UUID
    name: str
    scope: KeyScope
    key_prefix: str = Field(description="First 12 characters, for recognising the key")
    created_at: datetime
    created_by: uuid.UUID | None
    created_by_email: str | None = Field(
        default=None, description="Who created it (null when their account is gone)"
    )
    created_by_name: str | None = None
    last_used_at: datetime | None
    revoked_at: datetime | None


class ApiKeyCreated(ApiKeyPublic):
    key: str = Field(
        description="The full key (service tokens start with vgs_). Shown only in this "
        "response; store it now."
    )


class ApiKeysPublic(BaseModel):
    data: list[ApiKeyPublic]
    count: int
