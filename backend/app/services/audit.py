"""The audit trail: every security-relevant action is recorded here."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.models import AuditEvent


@dataclass(frozen=True)
class Actor:
    """Who is acting and from where (filled from the request): a person (``user_id``), or a
    service token (``key_id``; ``email`` is then ``key:<its prefix>``)."""

    user_id: uuid.UUID | None
    email: str | None
    ip: str | None
    user_agent: str | None
    key_id: uuid.UUID | None = None


def record(
    db: Session,
    *,
    actor: Actor,
    action: str,
    workspace_id: uuid.UUID | None = None,
    target_type: str | None = None,
    target_id: object | None = None,
    details: dict[str, Any] | None = None,
) -> AuditEvent:
    """Add an event to the session; it commits with the action it records."""
    event = AuditEvent(
        workspace_id=workspace_id,
        actor_user_id=actor.user_id,
        actor_email=actor.email,
        action=action,
        target_type=target_type,
        target_id=None if target_id is None else str(target_id),
        details=details or {},
        ip=actor.ip,
        user_agent=actor.user_agent,
    )
    db.add(event)
    return event


def list_events(
    db: Session,
    *,
    workspace_id: uuid.UUID,
    action: str | None = None,
    actor: str | None = None,
    target_type: str | None = None,
    target_id: str | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    limit: int = 100,
    offset: int = 0,
) -> tuple[list[AuditEvent], int]:
    """Events of a workspace, newest first, filtered.

    ``action`` is an exact name (``api_key.create``) or a family ending in ``.*``
    (``member.*``); ``actor`` matches part of the actor's email, ignoring case;
    ``since`` is inclusive and ``until`` exclusive.
    """
    query = select(AuditEvent).where(AuditEvent.workspace_id == workspace_id)
    if action:
        if action.endswith(".*"):
            query = query.where(AuditEvent.action.startswith(action[:-1], autoescape=True))
        else:
            query = query.where(AuditEvent.action == action)
    if actor:
        query = query.where(AuditEvent.actor_email.icontains(actor, autoescape=True))
    if target_type:
        query = query.where(AuditEvent.target_type == target_type)
    if target_id:
        query = query.where(AuditEvent.target_id == target_id)
    if since is not None:
        query = query.where(AuditEvent.created_at >= since)
    if until is not None:
        query = query.where(AuditEvent.created_at < until)
    count = db.scalar(select(func.count()).select_from(query.subquery())) or 0
    rows = db.scalars(
        query.order_by(AuditEvent.created_at.desc(), AuditEvent.id).limit(limit).offset(offset)
    ).all()
    return list(rows), count


def list_user_events(
    db: Session,
    *,
    user_id: uuid.UUID,
    since: datetime | None = None,
    renewals: bool = True,
    limit: int = 50,
    offset: int = 0,
) -> tuple[list[AuditEvent], int]:
    """A person's security log: the events about their account (``user.*`` with the account
    as target: sign-ins and failed ones, sessions, passwords, profile), newest first."""
    query = select(AuditEvent).where(
        AuditEvent.target_type == "user",
        AuditEvent.target_id == str(user_id),
        AuditEvent.action.startswith("user."),
    )
    if since is not None:
        query = query.where(AuditEvent.created_at >= since)
    if not renewals:
        query = query.where(AuditEvent.action != "user.token_refresh")
    count = db.scalar(select(func.count()).select_from(query.subquery())) or 0
    rows = db.scalars(
        query.order_by(AuditEvent.created_at.desc(), AuditEvent.id).limit(limit).offset(offset)
    ).all()
    return list(rows), count
