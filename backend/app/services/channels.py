"""Notification channels per workspace, and sending a test notification through one."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.alerting import delivery
from app.alerting.webhook import WebhookRefused, check_url
from app.core import secretbox
from app.core.errors import InvalidValue, NotFound
from app.models import Channel, Notification, Workspace
from app.services import audit
from app.services.audit import Actor


def list_channels(db: Session, *, workspace_id: uuid.UUID) -> list[Channel]:
    return list(
        db.scalars(
            select(Channel)
            .where(Channel.workspace_id == workspace_id)
            .order_by(func.lower(Channel.name), Channel.id)
        ).all()
    )


def last_outcomes(
    db: Session, *, workspace_id: uuid.UUID
) -> dict[uuid.UUID, tuple[str, str | None]]:
    """Each channel's most recent notification: (status, last error)."""
    latest = (
        select(
            Notification.channel_id,
            Notification.status,
            Notification.last_error,
            func.row_number()
            .over(partition_by=Notification.channel_id, order_by=Notification.created_at.desc())
            .label("n"),
        )
        .where(Notification.workspace_id == workspace_id, Notification.channel_id.is_not(None))
        .subquery()
    )
    rows = db.execute(
        select(latest.c.channel_id, latest.c.status, latest.c.last_error).where(latest.c.n == 1)
    ).tuples()
    return {cid: (status, err) for cid, status, err in rows if cid is not None}


def get_channel(db: Session, *, workspace_id: uuid.UUID, channel_id: uuid.UUID) -> Channel:
    row = db.get(Channel, channel_id)
    if row is None or row.workspace_id != workspace_id:
        raise NotFound("Channel not found")
    return row


def _check_config(config: dict[str, Any]) -> None:
    if config["type"] == "webhook":
        try:
            check_url(config["url"])
        except WebhookRefused as exc:
            raise InvalidValue(str(exc), field="config.url") from exc


def _secret(config: dict[str, Any], secret: str | None) -> str | None:
    if not secret:
        return None
    if config["type"] != "webhook":
        raise InvalidValue("only webhooks are signed", field="secret")
    if len(secret) < 16:
        raise InvalidValue("must be at least 16 characters", field="secret")
    return secretbox.seal(secret)


def create_channel(
    db: Session, *, workspace_id: uuid.UUID, data: dict[str, Any], actor: Actor
) -> Channel:
    config = data["config"]
    _check_config(config)
    row = Channel(
        workspace_id=workspace_id,
        name=data["name"],
        type=config["type"],
        config={k: v for k, v in config.items() if k != "type"},
        secret_sealed=_secret(config, data.get("secret")),
        enabled=data.get("enabled", True),
        created_by=actor.user_id,
    )
    db.add(row)
    db.flush()
    audit.record(
        db,
        actor=actor,
        action="channel.create",
        workspace_id=workspace_id,
        target_type="channel",
        target_id=row.id,
        details={"name": row.name, "type": row.type},
    )
    db.commit()
    return row


def update_channel(
    db: Session,
    *,
    workspace_id: uuid.UUID,
    channel_id: uuid.UUID,
    changes: dict[str, Any],
    actor: Actor,
) -> Channel:
    row = get_channel(db, workspace_id=workspace_id, channel_id=channel_id)
    changed: list[str] = []
    if changes.get("name") is not None:
        row.name = changes["name"]
        changed.append("name")
    if changes.get("config") is not None:
        config = changes["config"]
        if config["type"] != row.type:
            raise InvalidValue(
                f"a {row.type} channel stays one; create a new channel", field="config.type"
            )
        _check_config(config)
        row.config = {k: v for k, v in config.items() if k != "type"}
        changed.append("config")
    if "secret" in changes and changes["secret"] is not None:
        row.secret_sealed = _secret({"type": row.type}, changes["secret"])
        changed.append("secret")
    if changes.get("enabled") is not None:
        row.enabled = changes["enabled"]
        changed.append("enabled")
    row.updated_at = datetime.now(UTC)
    audit.record(
        db,
        actor=actor,
        action="channel.update",
        workspace_id=workspace_id,
        target_type="channel",
        target_id=row.id,
        details={"name": row.name, "changed": changed},
    )
    db.commit()
    return row


def delete_channel(
    db: Session, *, workspace_id: uuid.UUID, channel_id: uuid.UUID, actor: Actor
) -> None:
    row = get_channel(db, workspace_id=workspace_id, channel_id=channel_id)
    audit.record(
        db,
        actor=actor,
        action="channel.delete",
        workspace_id=workspace_id,
        target_type="channel",
        target_id=row.id,
        details={"name": row.name, "type": row.type},
    )
    db.delete(row)
    db.commit()


def send_test(
    db: Session, *, workspace_id: uuid.UUID, channel_id: uuid.UUID, actor: Actor
) -> delivery.Outcome:
    """Send a test notification now and record it (kind ``test``) with its outcome."""
    row = get_channel(db, workspace_id=workspace_id, channel_id=channel_id)
    workspace = db.get(Workspace, workspace_id)
    assert workspace is not None
    now = datetime.now(UTC)
    note = Notification(
        workspace_id=workspace_id,
        channel_id=row.id,
        channel_name=row.name,
        kind="test",
        status="pending",
        next_attempt_at=now,
        payload={},
    )
    db.add(note)
    db.flush()
    note.payload = delivery.test_payload(note.id, workspace, row, actor.email, now)
    outcome = delivery.send(row, note)
    note.attempts = 1
    note.status = "sent" if outcome.ok else "failed"
    note.sent_at = now if outcome.ok else None
    note.last_error = outcome.error
    audit.record(
        db,
        actor=actor,
        action="channel.test",
        workspace_id=workspace_id,
        target_type="channel",
        target_id=row.id,
        details={"name": row.name, "ok": outcome.ok, "error": outcome.error or ""},
    )
    db.commit()
    return outcome
