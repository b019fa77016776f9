"""The workspace's audit log."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from app.api.deps import SessionDep, WorkspaceContext, WorkspaceDep
from app.core.permissions import Permission
from app.schemas.audit import AuditEventPublic, AuditEventsPublic
from app.schemas.common import ERROR_RESPONSES
from app.services import audit

router = APIRouter(
    prefix="/workspaces/{workspace_id}/audit", tags=["audit"], responses=ERROR_RESPONSES
)


@router.get("", response_model=AuditEventsPublic)
def read_audit_log(
    db: SessionDep,
    ws: Annotated[WorkspaceContext, WorkspaceDep(Permission.AUDIT_READ)],
    action: Annotated[str | None, Query(max_length=64, examples=["api_key.create"])] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> AuditEventsPublic:
    """Who did what, when and from where — newest first (admins and owners)."""
    rows, count = audit.list_events(
        db, workspace_id=ws.id, action=action, limit=limit, offset=offset
    )
    return AuditEventsPublic(data=[AuditEventPublic.model_validate(r) for r in rows], count=count)
