"""Recording rules: derived metrics written back into the workspace every interval."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, status

from app.api.deps import SessionDep, StorageDep, WorkspaceContext, WorkspaceDep
from app.api.routes.monitors import QUERY_RESPONSES
from app.core.permissions import Permission
from app.schemas.common import ERROR_RESPONSES, Message
from app.schemas.recording_rule import (
    RecordingRuleCreate,
    RecordingRulePublic,
    RecordingRulesPublic,
    RecordingRuleUpdate,
)
from app.services import recording_rules

router = APIRouter(
    prefix="/workspaces/{workspace_id}/recording-rules",
    tags=["recording-rules"],
    responses=ERROR_RESPONSES,
)
Readers = Annotated[WorkspaceContext, WorkspaceDep(Permission.MONITORS_READ)]
Writers = Annotated[WorkspaceContext, WorkspaceDep(Permission.MONITORS_WRITE)]


@router.get("", response_model=RecordingRulesPublic)
def read_rules(db: SessionDep, ws: Readers) -> RecordingRulesPublic:
    """The workspace's recording rules, with the outcome of each one's last run."""
    data = [
        RecordingRulePublic.model_validate(r)
        for r in recording_rules.list_rules(db, workspace_id=ws.id)
    ]
    return RecordingRulesPublic(data=data, count=len(data))


@router.post(
    "",
    response_model=RecordingRulePublic,
    status_code=status.HTTP_201_CREATED,
    responses=QUERY_RESPONSES,
)
def create_rule(
    body: RecordingRuleCreate, db: SessionDep, storage: StorageDep, ws: Writers
) -> RecordingRulePublic:
    """Create a recording rule; storage runs its query once first."""
    row = recording_rules.create_rule(
        db, storage, workspace_id=ws.id, data=body.model_dump(), actor=ws.actor
    )
    return RecordingRulePublic.model_validate(row)


@router.get("/{rule_id}", response_model=RecordingRulePublic)
def read_rule(rule_id: uuid.UUID, db: SessionDep, ws: Readers) -> RecordingRulePublic:
    """One recording rule."""
    return RecordingRulePublic.model_validate(
        recording_rules.get_rule(db, workspace_id=ws.id, rule_id=rule_id)
    )


@router.patch("/{rule_id}", response_model=RecordingRulePublic, responses=QUERY_RESPONSES)
def update_rule(
    rule_id: uuid.UUID, body: RecordingRuleUpdate, db: SessionDep, storage: StorageDep, ws: Writers
) -> RecordingRulePublic:
    """Change a recording rule."""
    row = recording_rules.update_rule(
        db,
        storage,
        workspace_id=ws.id,
        rule_id=rule_id,
        changes=body.model_dump(exclude_unset=True),
        actor=ws.actor,
    )
    return RecordingRulePublic.model_validate(row)


@router.delete("/{rule_id}", response_model=Message)
def delete_rule(rule_id: uuid.UUID, db: SessionDep, ws: Writers) -> Message:
    """Delete a recording rule (what it wrote stays)."""
    recording_rules.delete_rule(db, workspace_id=ws.id, rule_id=rule_id, actor=ws.actor)
    return Message(message="Recording rule deleted")
