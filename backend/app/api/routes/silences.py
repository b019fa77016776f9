"""Silences: mute notifications by monitor and tag matchers, once or every week."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, status

from app.api.deps import SessionDep, WorkspaceContext, WorkspaceDep
from app.core.permissions import Permission
from app.models import Silence
from app.schemas.common import ERROR_RESPONSES, Message
from app.schemas.silence import SilenceCreate, SilencePublic, SilencesPublic, SilenceUpdate
from app.services import silences

router = APIRouter(
    prefix="/workspaces/{workspace_id}/silences", tags=["silences"], responses=ERROR_RESPONSES
)
Readers = Annotated[WorkspaceContext, WorkspaceDep(Permission.MONITORS_READ)]
Writers = Annotated[WorkspaceContext, WorkspaceDep(Permission.SILENCES_WRITE)]


def _public(row: Silence, names: dict[uuid.UUID, str], now: datetime) -> SilencePublic:
    data = {c.key: getattr(row, c.key) for c in Silence.__table__.columns}
    return SilencePublic.model_validate(
        {
            **data,
            "monitor_name": names.get(row.monitor_id) if row.monitor_id else None,
            "state": silences.state(row, now),
        }
    )


@router.get("", response_model=SilencesPublic)
def read_silences(db: SessionDep, ws: Readers, include_expired: bool = True) -> SilencesPublic:
    """The workspace's silences, newest first, with whether each mutes anything now."""
    now = datetime.now(UTC)
    names = silences.monitor_names(db, workspace_id=ws.id)
    rows = silences.list_silences(db, workspace_id=ws.id, include_expired=include_expired)
    data = [_public(r, names, now) for r in rows]
    return SilencesPublic(data=data, count=len(data))


@router.post("", response_model=SilencePublic, status_code=status.HTTP_201_CREATED)
def create_silence(body: SilenceCreate, db: SessionDep, ws: Writers) -> SilencePublic:
    """Mute a monitor, or every group matching the matchers, for a time or every week.
    Events are still recorded (marked muted); only notifications are held back."""
    row = silences.create_silence(
        db, workspace_id=ws.id, data=body.model_dump(mode="python"), actor=ws.actor
    )
    return _public(row, silences.monitor_names(db, workspace_id=ws.id), datetime.now(UTC))


@router.get("/{silence_id}", response_model=SilencePublic)
def read_silence(silence_id: uuid.UUID, db: SessionDep, ws: Readers) -> SilencePublic:
    """One silence."""
    row = silences.get_silence(db, workspace_id=ws.id, silence_id=silence_id)
    return _public(row, silences.monitor_names(db, workspace_id=ws.id), datetime.now(UTC))


@router.patch("/{silence_id}", response_model=SilencePublic)
def update_silence(
    silence_id: uuid.UUID, body: SilenceUpdate, db: SessionDep, ws: Writers
) -> SilencePublic:
    """Change the comment, or end it (``ends_at``: now)."""
    row = silences.update_silence(
        db,
        workspace_id=ws.id,
        silence_id=silence_id,
        changes=body.model_dump(exclude_unset=True),
        actor=ws.actor,
    )
    return _public(row, silences.monitor_names(db, workspace_id=ws.id), datetime.now(UTC))


@router.delete("/{silence_id}", response_model=Message)
def delete_silence(silence_id: uuid.UUID, db: SessionDep, ws: Writers) -> Message:
    """Delete a silence."""
    silences.delete_silence(db, workspace_id=ws.id, silence_id=silence_id, actor=ws.actor)
    return Message(message="Silence deleted")
