"""Workspace API keys: created by admins, shown once, stored as SHA-256, revocable."""

from __future__ import annotations

import base64
import hashlib
import hmac
import uuid
from datetime import UTC, datetime, timedelta

from sqlalchemy import Select, func, select, update
from sqlalchemy.orm import Session

from app.core import security
from app.core.config import settings
from app.core.errors import NotFound
from app.models import ApiKey, User, Workspace, WorkspaceLimits
from app.services import audit
from app.services.audit import Actor

LAST_USED_RESOLUTION = timedelta(minutes=1)


def list_keys(db: Session, *, workspace_id: uuid.UUID) -> list[tuple[ApiKey, User | None]]:
    """The workspace's keys, newest first, each with the person who created it (None when
    their account is gone). Keys belong to the workspace: they outlive their creator's
    membership unless revoked."""
    rows = db.execute(
        select(ApiKey, User)
        .outerjoin(User, User.id == ApiKey.created_by)
        .where(ApiKey.workspace_id == workspace_id)
        .order_by(ApiKey.created_at.desc(), ApiKey.id)
    ).all()
    return [(k, u) for k, u in rows]


def _live_keys_of(workspace_id: uuid.UUID, user_id: uuid.UUID) -> Select[ApiKey]:
    return select(ApiKey).where(
        ApiKey.workspace_id == workspace_id,
        ApiKey.created_by == user_id,
        ApiKey.revoked_at.is_(None),
    )


def count_live_keys_of(db: Session, *, workspace_id: uuid.UUID, user_id: uuid.UUID) -> int:
    query = _live_keys_of(workspace_id, user_id).subquery()
    return db.scalar(select(func.count()).select_from(query)) or 0


def revoke_keys_of(
    db: Session, *, workspace_id: uuid.UUID, user_id: uuid.UUID, reason: str, actor: Actor
) -> int:
    """Revoke every live key ``user_id`` created in the workspace (each audited); the caller
    commits."""
    rows = db.scalars(_live_keys_of(workspace_id, user_id).with_for_update()).all()
    for row in rows:
        _revoke(db, row, actor=actor, reason=reason)
    return len(rows)


def _revoke(db: Session, row: ApiKey, *, actor: Actor, reason: str | None = None) -> None:
    row.revoked_at = datetime.now(UTC)
    details = {"name": row.name, "scope": row.scope, "key_prefix": row.key_prefix}
    audit.record(
        db,
        actor=actor,
        action="api_key.revoke",
        workspace_id=row.workspace_id,
        target_type="api_key",
        target_id=row.id,
        details={**details, "reason": reason} if reason else details,
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
        _revoke(db, row, actor=actor)
        db.commit()
    return row


def resolve(db: Session, *, key: str) -> ApiKey | None:
    """The live key with this text, in a live workspace; marks it used (at most once a minute).

    The workspace and its limits are read in the same statement: they land in the session's
    identity map, so what the query API does next with the key (``workspaces.get_active``,
    ``limits.get_limits``, both ``Session.get``) costs no round trip of its own.
    """
    found = db.execute(
        select(ApiKey, Workspace, WorkspaceLimits)
        .join(Workspace, Workspace.id == ApiKey.workspace_id)
        .outerjoin(WorkspaceLimits, WorkspaceLimits.workspace_id == ApiKey.workspace_id)
        .where(
            ApiKey.key_hash == security.sha256_hex(key),
            ApiKey.revoked_at.is_(None),
            Workspace.deleted_at.is_(None),
        )
    ).first()
    if found is None:
        return None
    row = found[0]
    # the identity map holds its objects weakly: the session keeps them for its lifetime
    db.info["api_key_resolved"] = found
    now = datetime.now(UTC)
    if row.last_used_at is None or now - row.last_used_at >= LAST_USED_RESOLUTION:
        db.execute(update(ApiKey).where(ApiKey.id == row.id).values(last_used_at=now))
        db.commit()
        row.last_used_at = now
    return row


RECORDING_KEY_NAME = "Recording rules"


def _system_key_text(key_id: uuid.UUID) -> str:
    mac = hmac.new(settings.SECRET_KEY.encode(), f"system-ingest:{key_id}".encode(), hashlib.sha256)
    return security.INGEST_KEY_PREFIX + base64.urlsafe_b64encode(mac.digest()).decode().rstrip("=")


def system_ingest_key(db: Session, *, workspace_id: uuid.UUID) -> str:
    """The ingest key recording rules write with, so their points take the normal write path
    (the gateway, the workspace's limits). It is listed with the workspace's keys, created by
    no one; its text is derived from the server's secret key and the key's id, so it is never
    stored. An admin who revokes it makes the next run create a new one."""
    for row in db.scalars(
        select(ApiKey).where(
            ApiKey.workspace_id == workspace_id,
            ApiKey.name == RECORDING_KEY_NAME,
            ApiKey.scope == "ingest",
            ApiKey.created_by.is_(None),
            ApiKey.revoked_at.is_(None),
        )
    ):
        text = _system_key_text(row.id)
        if hmac.compare_digest(security.sha256_hex(text), row.key_hash):
            return text
    key_id = uuid.uuid4()
    text = _system_key_text(key_id)
    db.add(
        ApiKey(
            id=key_id,
            workspace_id=workspace_id,
            name=RECORDING_KEY_NAME,
            scope="ingest",
            key_hash=security.sha256_hex(text),
            key_prefix=text[: security.KEY_DISPLAY_CHARS],
            created_by=None,
        )
    )
    db.commit()
    return text
