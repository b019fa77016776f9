"""Workspace API keys and service tokens: created by admins, shown once, stored as SHA-256,
revocable; a refused use of a service token is audited in its workspace."""

from __future__ import annotations

import base64
import hashlib
import hmac
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Select, func, select, update
from sqlalchemy.orm import Session

from app.core import keys, security
from app.core.config import settings
from app.core.errors import NotFound
from app.models import ApiKey, AuditEvent, KeyScope, User, Workspace, WorkspaceLimits
from app.services import audit, key_scopes
from app.services.audit import Actor

LAST_USED_RESOLUTION = timedelta(minutes=1)
# A refused use of a service token is audited at most this often per token and reason, so a
# script retrying a revoked token cannot flood the workspace's log.
REFUSAL_AUDIT_EVERY = timedelta(minutes=1)


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


def _describe(row: ApiKey) -> dict[str, Any]:
    return {"name": row.name, "scope": row.scope, "key_prefix": row.key_prefix}


def _revoke(db: Session, row: ApiKey, *, actor: Actor, reason: str | None = None) -> None:
    row.revoked_at = datetime.now(UTC)
    details = _describe(row)
    audit.record(
        db,
        actor=actor,
        action="api_key.revoke",
        workspace_id=row.workspace_id,
        target_type="api_key",
        target_id=row.id,
        details={**details, "reason": reason} if reason else details,
    )
    if keys.kind_of(row.scope).is_service_token:
        # an invitation never outlives the right of whoever sent it to send it
        from app.services import members  # members imports this module

        members.revoke_invitations_of_key(db, key=row, actor=actor)


def create_key(
    db: Session, *, workspace_id: uuid.UUID, name: str, scope: KeyScope, actor: Actor
) -> tuple[ApiKey, str]:
    key = keys.new_key(scope)
    row = ApiKey(
        workspace_id=workspace_id,
        name=name,
        scope=scope.value,
        key_hash=security.sha256_hex(key),
        key_prefix=key[: keys.KEY_DISPLAY_CHARS],
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
        details=_describe(row),
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


def find(db: Session, *, key: str) -> ApiKey | None:
    """The key with this text in a live workspace, revoked or not (to audit a refused use).

    The workspace and its limits are read in the same statement: they land in the session's
    identity map, so what the query API does next with the key (``workspaces.get_active``,
    ``limits.get_limits``, both ``Session.get``) costs no round trip of its own.
    """
    found = db.execute(
        select(ApiKey, Workspace, WorkspaceLimits)
        .join(Workspace, Workspace.id == ApiKey.workspace_id)
        .outerjoin(WorkspaceLimits, WorkspaceLimits.workspace_id == ApiKey.workspace_id)
        .where(ApiKey.key_hash == security.sha256_hex(key), Workspace.deleted_at.is_(None))
    ).first()
    if found is None:
        return None
    # the identity map holds its objects weakly: the session keeps them for its lifetime
    db.info["api_key_resolved"] = found
    row: ApiKey = found[0]
    return row


def resolve(db: Session, *, key: str) -> ApiKey | None:
    """The live key with this text, in a live workspace; marks it used (at most once a minute)."""
    row = find(db, key=key)
    if row is None or row.revoked_at is not None:
        return None
    now = datetime.now(UTC)
    if row.last_used_at is None or now - row.last_used_at >= LAST_USED_RESOLUTION:
        db.execute(
            update(ApiKey).where(ApiKey.id == row.id).values(last_used_at=now),
            execution_options={key_scopes.SCOPE_NEUTRAL: True},
        )
        db.commit()
        row.last_used_at = now
    return row


def record_refusal(
    db: Session, row: ApiKey, *, reason: str, actor: Actor, details: dict[str, Any]
) -> None:
    """Audit a refused use of a service token in its own workspace (``api_key.refused``, with
    ``reason``), unless the same was recorded within ``REFUSAL_AUDIT_EVERY``; commits."""
    since = datetime.now(UTC) - REFUSAL_AUDIT_EVERY
    recent = db.scalar(
        select(AuditEvent.id)
        .where(
            AuditEvent.workspace_id == row.workspace_id,
            AuditEvent.action == "api_key.refused",
            AuditEvent.target_id == str(row.id),
            AuditEvent.created_at >= since,
            AuditEvent.details["reason"].astext == reason,
        )
        .limit(1)
    )
    if recent is not None:
        return
    audit.record(
        db,
        actor=actor,
        action="api_key.refused",
        workspace_id=row.workspace_id,
        target_type="api_key",
        target_id=row.id,
        details={**_describe(row), "reason": reason, **details},
    )
    db.commit()


RECORDING_KEY_NAME = "Recording rules"


def _system_key_text(key_id: uuid.UUID) -> str:
    mac = hmac.new(settings.SECRET_KEY.encode(), f"system-ingest:{key_id}".encode(), hashlib.sha256)
    prefix = keys.KEY_KINDS[KeyScope.ingest].prefix
    return prefix + base64.urlsafe_b64encode(mac.digest()).decode().rstrip("=")


def system_ingest_key(db: Session, *, workspace_id: uuid.UUID) -> str:
    """The ingest key recording rules write with, so their points take the normal write path
    (the gateway, the workspace's limits). It is listed with the workspace's keys, created by
    no one; its text is derived from the server's secret key and the key's id, so it is never
    stored. An admin who revokes it makes the next run create a new one."""
    for row in db.scalars(
        select(ApiKey).where(
            ApiKey.workspace_id == workspace_id,
            ApiKey.name == RECORDING_KEY_NAME,
            ApiKey.scope == KeyScope.ingest.value,
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
            scope=KeyScope.ingest.value,
            key_hash=security.sha256_hex(text),
            key_prefix=text[: keys.KEY_DISPLAY_CHARS],
            created_by=None,
        )
    )
    db.commit()
    return text
