"""Saved DQL queries."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, status

from app.api.deps import SessionDep, WorkspaceContext, WorkspaceDep
from app.core.permissions import Permission
from app.schemas.common import ERROR_RESPONSES, Message
from app.schemas.saved_query import (
    SavedQueriesPublic,
    SavedQueryCreate,
    SavedQueryPublic,
    SavedQueryUpdate,
)
from app.services import saved_queries

router = APIRouter(
    prefix="/workspaces/{workspace_id}/saved-queries",
    tags=["saved-queries"],
    responses=ERROR_RESPONSES,
)

Readers = Annotated[WorkspaceContext, WorkspaceDep(Permission.SAVED_QUERIES_READ)]
Writers = Annotated[WorkspaceContext, WorkspaceDep(Permission.SAVED_QUERIES_WRITE)]


@router.get("", response_model=SavedQueriesPublic)
def read_saved_queries(db: SessionDep, ws: Readers) -> SavedQueriesPublic:
    """The workspace's saved queries."""
    data = [
        SavedQueryPublic.model_validate(q) for q in saved_queries.list_saved(db, workspace_id=ws.id)
    ]
    return SavedQueriesPublic(data=data, count=len(data))


@router.post("", response_model=SavedQueryPublic, status_code=status.HTTP_201_CREATED)
def create_saved_query(body: SavedQueryCreate, db: SessionDep, ws: Writers) -> SavedQueryPublic:
    """Save a query."""
    user_id = ws.user.id if ws.user else None
    row = saved_queries.create_saved(
        db, workspace_id=ws.id, data=body.model_dump(), user_id=user_id, actor=ws.actor
    )
    return SavedQueryPublic.model_validate(row)


@router.get("/{query_id}", response_model=SavedQueryPublic)
def read_saved_query(query_id: uuid.UUID, db: SessionDep, ws: Readers) -> SavedQueryPublic:
    """One saved query."""
    return SavedQueryPublic.model_validate(
        saved_queries.get_saved(db, workspace_id=ws.id, query_id=query_id)
    )


@router.patch("/{query_id}", response_model=SavedQueryPublic)
def update_saved_query(
    query_id: uuid.UUID, body: SavedQueryUpdate, db: SessionDep, ws: Writers
) -> SavedQueryPublic:
    """Change a saved query."""
    changes = body.model_dump(exclude_unset=True, exclude_none=True)
    row = saved_queries.update_saved(
        db, workspace_id=ws.id, query_id=query_id, changes=changes, actor=ws.actor
    )
    return SavedQueryPublic.model_validate(row)


@router.delete("/{query_id}", response_model=Message)
def delete_saved_query(query_id: uuid.UUID, db: SessionDep, ws: Writers) -> Message:
    """Delete a saved query."""
    saved_queries.delete_saved(db, workspace_id=ws.id, query_id=query_id, actor=ws.actor)
    return Message(message="Saved query deleted")
