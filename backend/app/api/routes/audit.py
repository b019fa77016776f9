"""The workspace's audit log."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Query

from app.api.deps import SessionDep, WorkspaceContext, WorkspaceDep
from app.core.errors import BadRequest
from app.core.permissions import Permission
from app.schemas.audit import AuditEventPublic, AuditEventsPublic
from app.schemas.common import ERROR_RESPONSES
from app.services import audit

# PostgreSQL text cannot hold NUL, and no action, email or id holds a control character.
NO_CONTROL = r"^[^\x00-\x1f\x7f]*$"

router = APIRouter(
    prefix="/workspaces/{workspace_id}/audit", tags=["audit"], responses=ERROR_RESPONSES
)


def _as_utc(moment: datetime | None) -> datetime | None:
    """Times without an offset are read as UTC."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


@router.get("", response_model=AuditEventsPublic)
def read_audit_log(
    db: SessionDep,
    ws: Annotated[WorkspaceContext, WorkspaceDep(Permission.AUDIT_READ)],
    action: Annotated[
        str | None,
        Query(
            max_length=64,
            pattern=NO_CONTROL,
            examples=["api_key.create", "member.*"],
            description="An action name, or a family such as `member.*`",
        ),
    ] = None,
    actor: Annotated[
        str | None,
        Query(
            max_length=320, pattern=NO_CONTROL, description="Part of the actor's email, any case"
        ),
    ] = None,
    target_type: Annotated[
        str | None,
        Query(max_length=32, pattern=NO_CONTROL, examples=["user", "api_key", "invitation"]),
    ] = None,
    target_id: Annotated[str | None, Query(max_length=64, pattern=NO_CONTROL)] = None,
    since: Annotated[
        datetime | None, Query(description="Events at or after this time (ISO 8601)")
    ] = None,
    until: Annotated[
        datetime | None, Query(description="Events before this time (ISO 8601)")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> AuditEventsPublic:
    """Who did what, when and from where — newest first (admins and owners)."""
    since, until = _as_utc(since), _as_utc(until)
    if since is not None and until is not None and since >= until:
        raise BadRequest("since must be before until", code="invalid_time_range")
    rows, count = audit.list_events(
        db,
        workspace_id=ws.id,
        action=action,
        actor=actor,
        target_type=target_type,
        target_id=target_id,
        since=since,
        until=until,
        limit=limit,
        offset=offset,
    )
    return AuditEventsPublic(data=[AuditEventPublic.model_validate(r) for r in rows], count=count)
