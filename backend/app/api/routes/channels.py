"""Notification channels: webhooks and email addresses alerts are sent to."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, status

from app.api.deps import SessionDep, WorkspaceContext, WorkspaceDep
from app.core.permissions import Permission
from app.models import Channel
from app.schemas.channel import (
    ChannelCreate,
    ChannelPublic,
    ChannelsPublic,
    ChannelTestResult,
    ChannelUpdate,
)
from app.schemas.common import ERROR_RESPONSES, Message
from app.services import channels

router = APIRouter(
    prefix="/workspaces/{workspace_id}/channels", tags=["channels"], responses=ERROR_RESPONSES
)
Readers = Annotated[WorkspaceContext, WorkspaceDep(Permission.CHANNELS_READ)]
Writers = Annotated[WorkspaceContext, WorkspaceDep(Permission.CHANNELS_WRITE)]


def _public(row: Channel, last: tuple[str, str | None] | None = None) -> ChannelPublic:
    return ChannelPublic.model_validate(
        {
            "id": row.id,
            "workspace_id": row.workspace_id,
            "name": row.name,
            "type": row.type,
            "config": {"type": row.type, **row.config},
            "has_secret": row.secret_sealed is not None,
            "enabled": row.enabled,
            "created_by": row.created_by,
            "created_at": row.created_at,
            "updated_at": row.updated_at,
            "last_status": last[0] if last else None,
            "last_error": last[1] if last else None,
        }
    )


@router.get("", response_model=ChannelsPublic)
def read_channels(db: SessionDep, ws: Readers) -> ChannelsPublic:
    """The workspace's channels, each with the outcome of its latest notification."""
    last = channels.last_outcomes(db, workspace_id=ws.id)
    data = [_public(c, last.get(c.id)) for c in channels.list_channels(db, workspace_id=ws.id)]
    return ChannelsPublic(data=data, count=len(data))


@router.post("", response_model=ChannelPublic, status_code=status.HTTP_201_CREATED)
def create_channel(body: ChannelCreate, db: SessionDep, ws: Writers) -> ChannelPublic:
    """Create a channel. A webhook URL that resolves to a loopback, private or link-local
    address is refused (422) unless an operator allowed its host."""
    row = channels.create_channel(
        db, workspace_id=ws.id, data=body.model_dump(mode="json"), actor=ws.actor
    )
    return _public(row)


@router.get("/{channel_id}", response_model=ChannelPublic)
def read_channel(channel_id: uuid.UUID, db: SessionDep, ws: Readers) -> ChannelPublic:
    """One channel."""
    row = channels.get_channel(db, workspace_id=ws.id, channel_id=channel_id)
    return _public(row, channels.last_outcomes(db, workspace_id=ws.id).get(row.id))


@router.patch("/{channel_id}", response_model=ChannelPublic)
def update_channel(
    channel_id: uuid.UUID, body: ChannelUpdate, db: SessionDep, ws: Writers
) -> ChannelPublic:
    """Change a channel (an empty secret removes it)."""
    row = channels.update_channel(
        db,
        workspace_id=ws.id,
        channel_id=channel_id,
        changes=body.model_dump(mode="json", exclude_unset=True),
        actor=ws.actor,
    )
    return _public(row)


@router.delete("/{channel_id}", response_model=Message)
def delete_channel(channel_id: uuid.UUID, db: SessionDep, ws: Writers) -> Message:
    """Delete a channel; monitors that route to it stop sending there."""
    channels.delete_channel(db, workspace_id=ws.id, channel_id=channel_id, actor=ws.actor)
    return Message(message="Channel deleted")


@router.post("/{channel_id}/test", response_model=ChannelTestResult)
def test_channel(channel_id: uuid.UUID, db: SessionDep, ws: Writers) -> ChannelTestResult:
    """Send a test notification now and say whether it arrived (recorded like the others)."""
    outcome = channels.send_test(db, workspace_id=ws.id, channel_id=channel_id, actor=ws.actor)
    return ChannelTestResult(ok=outcome.ok, status_code=outcome.status_code, error=outcome.error)
