"""Silences per workspace: who mutes what, and which are in effect."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from app.alerting.silencing import ActiveSilence, from_row
from app.core.errors import InvalidValue, NotFound
from app.models import Monitor, Silence
from app.services import audit
from app.services.audit import Actor


def to_active(row: Silence) -> ActiveSilence:
    return from_row(
        id=row.id,
        monitor_id=row.monitor_id,
        matchers=row.matchers,
        starts_at=row.starts_at,
        ends_at=row.ends_at,
        recurrence=row.recurrence,
    )


def state(row: Silence, now: datetime) -> str:
    if row.ends_at is not None and now >= row.ends_at:
        return "expired"
    if now < row.starts_at:
        return "pending"
    return "active" if to_active(row).in_effect(now) else "scheduled"


def in_effect(db: Session, *, workspace_id: uuid.UUID, now: datetime) -> list[ActiveSilence]:
    """The silences that may mute something now (recurring ones are checked per group)."""
    rows = db.scalars(
        select(Silence).where(
            Silence.workspace_id == workspace_id,
            Silence.starts_at <= now,
            or_(Silence.ends_at.is_(None), Silence.ends_at > now),
        )
    ).all()
    return [s for s in (to_active(r) for r in rows) if s.in_effect(now)]


def list_silences(
    db: Session, *, workspace_id: uuid.UUID, include_expired: bool = True
) -> list[Silence]:
    query = select(Silence).where(Silence.workspace_id == workspace_id)
    if not include_expired:
        query = query.where(or_(Silence.ends_at.is_(None), Silence.ends_at > datetime.now(UTC)))
    return list(db.scalars(query.order_by(Silence.starts_at.desc(), Silence.id)).all())


def monitor_names(db: Session, *, workspace_id: uuid.UUID) -> dict[uuid.UUID, str]:
    rows = db.execute(
        select(Monitor.id, Monitor.name).where(Monitor.workspace_id == workspace_id)
    ).tuples()
    return {monitor_id: name for monitor_id, name in rows}


def get_silence(db: Session, *, workspace_id: uuid.UUID, silence_id: uuid.UUID) -> Silence:
    row = db.get(Silence, silence_id)
    if row is None or row.workspace_id != workspace_id:
        raise NotFound("Silence not found")
    return row


def create_silence(
    db: Session, *, workspace_id: uuid.UUID, data: dict[str, Any], actor: Actor
) -> Silence:
    if data.get("monitor_id") is not None:
        monitor = db.get(Monitor, data["monitor_id"])
        if monitor is None or monitor.workspace_id != workspace_id:
            raise InvalidValue("no such monitor in this workspace", field="monitor_id")
    now = datetime.now(UTC)
    row = Silence(
        workspace_id=workspace_id,
        comment=data["comment"],
        monitor_id=data.get("monitor_id"),
        matchers=data.get("matchers") or [],
        starts_at=data.get("starts_at") or now,
        ends_at=data.get("ends_at"),
        recurrence=data.get("recurrence"),
        created_by=actor.user_id,
        created_by_email=actor.email,
    )
    if row.ends_at is not None and row.ends_at <= row.starts_at:
        raise InvalidValue("must be after starts_at", field="ends_at")
    db.add(row)
    db.flush()
    audit.record(
        db,
        actor=actor,
        action="silence.create",
        workspace_id=workspace_id,
        target_type="silence",
        target_id=row.id,
        details={"comment": row.comment, "monitor_id": str(row.monitor_id or "")},
    )
    db.commit()
    return row


def update_silence(
    db: Session,
    *,
    workspace_id: uuid.UUID,
    silence_id: uuid.UUID,
    changes: dict[str, Any],
    actor: Actor,
) -> Silence:
    row = get_silence(db, workspace_id=workspace_id, silence_id=silence_id)
    if "comment" in changes and changes["comment"] is not None:
        row.comment = changes["comment"]
    if "ends_at" in changes and changes["ends_at"] is not None:
        ends = changes["ends_at"]
        if ends.tzinfo is None:
            raise InvalidValue("needs a time zone (e.g. 2026-11-28T12:00:00Z)", field="ends_at")
        row.ends_at = max(ends, row.starts_at)
    audit.record(
        db,
        actor=actor,
        action="silence.update",
        workspace_id=workspace_id,
        target_type="silence",
        target_id=row.id,
        details={k: str(v) for k, v in changes.items()},
    )
    db.commit()
    return row


def delete_silence(
    db: Session, *, workspace_id: uuid.UUID, silence_id: uuid.UUID, actor: Actor
) -> None:
    row = get_silence(db, workspace_id=workspace_id, silence_id=silence_id)
    audit.record(
        db,
        actor=actor,
        action="silence.delete",
        workspace_id=workspace_id,
        target_type="silence",
        target_id=row.id,
        details={"comment": row.comment},
    )
    db.delete(row)
    db.commit()
