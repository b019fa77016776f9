"""Saved DQL queries per workspace."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.core.errors import NotFound
from app.models import SavedQuery
from app.services import audit
from app.services.audit import Actor


def list_saved(db: Session, *, workspace_id: uuid.UUID) -> list[SavedQuery]:
    return list(
        db.scalars(
            select(SavedQuery)
            .where(SavedQuery.workspace_id == workspace_id)
            .order_by(func.lower(SavedQuery.name), SavedQuery.id)
        ).all()
    )


def get_saved(db: Session, *, workspace_id: uuid.UUID, query_id: uuid.UUID) -> SavedQuery:
    row = db.get(SavedQuery, query_id)
    if row is None or row.workspace_id != workspace_id:
        raise NotFound("Saved query not found")
    return row


def create_saved(
    db: Session,
    *,
    workspace_id: uuid.UUID,
    data: dict[str, Any],
    user_id: uuid.UUID | None,
    actor: Actor,
) -> SavedQuery:
    row = SavedQuery(workspace_id=workspace_id, created_by=user_id, **data)
    db.add(row)
    db.flush()
    audit.record(
        db,
        actor=actor,
        action="saved_query.create",
        workspace_id=workspace_id,
        target_type="saved_query",
        target_id=row.id,
        details={"name": row.name},
    )
    db.commit()
    return row


def update_saved(
    db: Session,
    *,
    workspace_id: uuid.UUID,
    query_id: uuid.UUID,
    changes: dict[str, Any],
    actor: Actor,
) -> SavedQuery:
    row = get_saved(db, workspace_id=workspace_id, query_id=query_id)
    for name, value in changes.items():
        setattr(row, name, value)
    row.updated_at = datetime.now(UTC)
    audit.record(
        db,
        actor=actor,
        action="saved_query.update",
        workspace_id=workspace_id,
        target_type="saved_query",
        target_id=row.id,
        details={"name": row.name, "changed": sorted(changes)},
    )
    db.commit()
    return row


def delete_saved(
    db: Session, *, workspace_id: uuid.UUID, query_id: uuid.UUID, actor: Actor
) -> None:
    row = get_saved(db, workspace_id=workspace_id, query_id=query_id)
    db.delete(row)
    audit.record(
        db,
        actor=actor,
        action="saved_query.delete",
        workspace_id=workspace_id,
        target_type="saved_query",
        target_id=query_id,
        details={"name": row.name},
    )
    db.commit()
