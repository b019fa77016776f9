"""Notification channels: where alerts are sent (docs/alerting.md has the webhook body)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, EmailStr, Field

from app.schemas.common import Name200


class WebhookConfig(BaseModel):
    type: Literal["webhook"] = "webhook"
    url: str = Field(max_length=2000, pattern=r"^https?://\S+$")


class EmailConfig(BaseModel):
    type: Literal["email"] = "email"
    addresses: list[EmailStr] = Field(min_length=1, max_length=20)


ChannelConfig = Annotated[WebhookConfig | EmailConfig, Field(discriminator="type")]


class ChannelCreate(BaseModel):
    name: Name200
    config: ChannelConfig
    secret: str | None = Field(
        default=None,
        min_length=16,
        max_length=200,
        description="Webhook only: signs each request (X-Vigil-Signature). Never returned.",
    )
    enabled: bool = True


class ChannelUpdate(BaseModel):
    name: Name200 | None = None
    config: ChannelConfig | None = None
    secret: str | None = Field(
        default=None, max_length=200, description="A new secret; an empty string removes it"
    )
    enabled: bool | None = None


class ChannelPublic(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: uuid.UUID
    workspace_id: uuid.UUID
    name: str
    type: Literal["webhook", "email"]
    config: ChannelConfig
    has_secret: bool
    enabled: bool
    created_by: uuid.UUID | None
    created_at: datetime
    updated_at: datetime
    last_status: Literal["sent", "failed", "throttled", "pending"] | None = Field(
        default=None, description="The status of its most recent notification"
    )
    last_error: str | None = None


class ChannelsPublic(BaseModel):
    data: list[ChannelPublic]
    count: int


class ChannelTestResult(BaseModel):
    ok: bool
    status_code: int | None = Field(description="The receiver's HTTP status (webhooks)")
    error: str | None
