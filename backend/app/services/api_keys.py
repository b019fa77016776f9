"""Workspace API keys: created by admins, shown once, stored as SHA-256, revocable."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from app.core import security
from app.core.errors import NotFound
from app.models import ApiKey, Workspace
from app.services import audit
from app.services.audit import Actor

LAST_USED_RESOLUTION = timedelta(minutes=1)


def list_keys(db: Session, *, workspace_id: uuid.UUID) -> list[ApiKey]:
    return list(
        db.scalars(
            select(ApiKey)
            .where(ApiKey.workspace_id == workspace_id)
            .order_by(ApiKey.created_at.desc(), ApiKey.id)
        ).all()
    )


def create_key(
    db: Session, *, workspace_id: uuid.UUID, name: str, scope: str, actor: Actor
) -> tuple[ApiKey, str]:
    key = security.new_api_key(scope)
    row = ApiKey(
        workspace_id=workspace_id,
        name=name,
        scope=scope,
        key_hash=security.sha256_hex(key),
        key_prefix=key[: security.KEY_DISPLAY_CHARS],
        created_by=actor.user_id,
    )
    db.add(row)
    db.flush()
    audit.record(
        db,
        actor=actor,
        action="api_key.create",
        workspace_id=workspace_id,
        target_type="api_key",
        target_id=row.id,
        details={"name": name, "scope": scope, "key_prefix": row.key_prefix},
    )
    db.commit()
    return row, key


def revoke_key(db: Session, *, workspace_id: uuid.UUID, key_id: uuid.UUID, actor: Actor) -> ApiKey:
    row = db.get(ApiKey, key_id)
    if row is None or row.workspace_id != workspace_id:
        raise NotFound("API key not found")
    if row.revoked_at is None:
        row.revoked_at = datetime.now(UTC)
        audit.record(
            db,
            actor=actor,
            action="api_key.revoke",
            workspace_id=workspace_id,
            target_type="api_key",
            target_id=row.id,
            details={"name": row.name, "scope": row.scope, "key_prefix": row.key_prefix},
        )
        db.commit()
    return row


def resolve(db: Session, *, key: str) -> ApiKey | None:
    """The live key with this text, in a live workspace; marks it used (at most once a minute)."""
    row = db.scalar(
        select(ApiKey)
        .join(Workspace, Workspace.id == ApiKey.workspace_id)
        .where(
            ApiKey.key_hash == security.sha256_hex(key),
            ApiKey.revoked_at.is_(None),
            Workspace.deleted_at.is_(None),
        )
    )
    if row is None:
        return None
    now = datetime.now(UTC)
    if row.last_used_at is None or now - row.last_used_at >= LAST_USED_RESOLUTION:
        db.execute(update(ApiKey).where(ApiKey.id == row.id).values(last_used_at=now))
        db.commit()
        row.last_used_at = now
    return row
