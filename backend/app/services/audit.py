"""The audit trail: every security-relevant action is recorded here."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.models import AuditEvent, OperatorAuditEvent

_E = TypeVar("_E", AuditEvent, OperatorAuditEvent)


@dataclass(frozen=True)
class Actor:
    """Who is acting and from where (filled from the request): a person (``user_id``), or a
    service token (``key_id``; ``email`` is then ``key:<its prefix>``)."""

    user_id: uuid.UUID | None
    email: str | None
    ip: str | None
    user_agent: str | None
    key_id: uuid.UUID | None = None


def _event(
    model: type[_E],
    *,
    actor: Actor,
    action: str,
    workspace_id: uuid.UUID | None,
    target_type: str | None,
    target_id: object | None,
    details: dict[str, Any] | None,
) -> _E:
    return model(
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


def record(
    db: Session,
    *,
    actor: Actor,
    action: str,
    workspace_id: uuid.UUID | None = None,
    target_type: str | None = None,
    target_id: object | None = None,
    details: dict[str, Any] | None = None,
    operator_log: bool = False,
) -> AuditEvent:
    """Add an event to the session; it commits with the action it records. With
    ``operator_log`` the same event goes to the operator audit log too (a platform operator
    acting on the workspace)."""
    fields: dict[str, Any] = {
        "actor": actor,
        "action": action,
        "workspace_id": workspace_id,
        "target_type": target_type,
        "target_id": target_id,
        "details": details,
    }
    event = _event(AuditEvent, **fields)
    db.add(event)
    if operator_log:
        db.add(_event(OperatorAuditEvent, **fields))
    return event


def record_operator(
    db: Session,
    *,
    actor: Actor,
    action: str,
    target_type: str | None = None,
    target_id: object | None = None,
    workspace_id: uuid.UUID | None = None,
    details: dict[str, Any] | None = None,
) -> OperatorAuditEvent:
    """Add an event to the operator audit log (the platform's, not a workspace's); it commits
    with the action it records."""
    event = _event(
        OperatorAuditEvent,
        actor=actor,
        action=action,
        workspace_id=workspace_id,
        target_type=target_type,
        target_id=target_id,
        details=details,
    )
    db.add(event)
    return event


def _action_filter(column: Any, action: str) -> Any:
    """An exact action (``api_key.create``) or a family ending in ``.*`` (``member.*``)."""
    if action.endswith(".*"):
        return column.startswith(action[:-1], autoescape=True)
    return column == action


def list_operator_events(
    db: Session,
    *,
    action: str | None = None,
    actor: str | None = None,
    workspace_id: uuid.UUID | None = None,
    limit: int = 100,
    offset: int = 0,
) -> tuple[list[OperatorAuditEvent], int]:
    """Operator events, newest first; ``action`` is exact or a family (``plan.*``), ``actor``
    part of the actor's email."""
    query = select(OperatorAuditEvent)
    if action:
        query = query.where(_action_filter(OperatorAuditEvent.action, action))
    if actor:
        query = query.where(OperatorAuditEvent.actor_email.icontains(actor, autoescape=True))
    if workspace_id is not None:
        query = query.where(OperatorAuditEvent.workspace_id == workspace_id)
    count = db.scalar(select(func.count()).select_from(query.subquery())) or 0
    rows = db.scalars(
        query.order_by(OperatorAuditEvent.created_at.desc(), OperatorAuditEvent.id)
        .limit(limit)
        .offset(offset)
    ).all()
    return list(rows), count


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
        query = query.where(_action_filter(AuditEvent.action, action))
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
