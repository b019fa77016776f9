"""Sending the outbox: due notification rows, one at a time, from any number of processes.

A row is claimed with ``FOR UPDATE SKIP LOCKED`` and stays locked while it is sent, so two
dispatchers never send it twice; the outcome is written in the same transaction. A failure
worth retrying is tried again after a growing pause (``VIGIL_ALERTING_NOTIFY_BACKOFF_SECONDS``
× 3ⁿ, at most an hour) until ``VIGIL_ALERTING_NOTIFY_MAX_ATTEMPTS``; then, or at once for an
answer that retrying cannot change, the row is marked failed with the reason, for the UI.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.alerting import delivery
from app.core.config import settings
from app.models import Channel, Notification, Workspace

log = logging.getLogger(__name__)
MAX_PAUSE_SECONDS = 3600.0


@dataclass(frozen=True)
class Sent:
    id: uuid.UUID
    status: str
    error: str | None


def backoff(attempts: int) -> timedelta:
    seconds = settings.ALERTING_NOTIFY_BACKOFF_SECONDS * 3 ** max(0, attempts - 1)
    return timedelta(seconds=min(seconds, MAX_PAUSE_SECONDS))


def claim(db: Session, now: datetime, ids: list[uuid.UUID] | None = None) -> Notification | None:
    query = (
        select(Notification)
        .join(Workspace, Workspace.id == Notification.workspace_id)
        .where(
            Notification.status == "pending",
            Notification.next_attempt_at <= now,
            Workspace.serving(),  # a suspended workspace's wait until it is resumed
        )
    )
    if ids is not None:
        query = query.where(Notification.id.in_(ids))
    return db.scalar(
        query.order_by(Notification.next_attempt_at)
        .limit(1)
        .with_for_update(skip_locked=True, of=Notification)
        .execution_options(populate_existing=True)
    )


def send_claimed(db: Session, n: Notification, now: datetime) -> Sent:
    channel = db.get(Channel, n.channel_id) if n.channel_id else None
    n.attempts += 1
    if channel is None or not channel.enabled:
        n.status = "failed"
        n.last_error = "the channel was deleted" if channel is None else "the channel is disabled"
        return Sent(n.id, n.status, n.last_error)
    outcome = delivery.send(channel, n)
    if outcome.ok:
        n.status, n.sent_at, n.last_error = "sent", datetime.now(UTC), None
    elif outcome.retryable and n.attempts < settings.ALERTING_NOTIFY_MAX_ATTEMPTS:
        n.last_error = outcome.error
        n.next_attempt_at = now + backoff(n.attempts)
    else:
        n.status = "failed"
        n.last_error = (
            f"{outcome.error} (gave up after {n.attempts} attempts)"
            if outcome.retryable
            else outcome.error
        )
    if n.status != "sent":
        log.warning("notification %s via %s: %s", n.id, channel.name, n.last_error)
    return Sent(n.id, n.status, n.last_error)


def send_due(
    db: Session,
    *,
    ids: list[uuid.UUID] | None = None,
    limit: int = 100,
    now: datetime | None = None,
) -> list[Sent]:
    """Send due notifications (only ``ids`` when given), each in its own transaction;
    ``now`` (default: the clock) decides what is due."""
    sent: list[Sent] = []
    for _ in range(limit):
        now = now or datetime.now(UTC)
        n = claim(db, now, ids)
        if n is None:
            db.rollback()
            break
        try:
            sent.append(send_claimed(db, n, now))
            db.commit()
        except Exception:
            db.rollback()
            raise
    return sent
