"""Recording rules per workspace: checked by storage before they are saved, counted with the
monitors against the workspace's max_monitors limit."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.alerting import evaluate
from app.clients.storage import StorageClient
from app.core.errors import NotFound
from app.models import RecordingRule
from app.services import audit
from app.services.audit import Actor
from app.services.monitors import check_query, check_rule_limits


def _spec(d: dict[str, Any]) -> evaluate.QuerySpec:
    return evaluate.QuerySpec(d["language"], d["query"], d["window_seconds"])


def list_rules(db: Session, *, workspace_id: uuid.UUID) -> list[RecordingRule]:
    return list(
        db.scalars(
            select(RecordingRule)
            .where(RecordingRule.workspace_id == workspace_id)
            .order_by(func.lower(RecordingRule.name), RecordingRule.id)
        ).all()
    )


def get_rule(db: Session, *, workspace_id: uuid.UUID, rule_id: uuid.UUID) -> RecordingRule:
    row = db.get(RecordingRule, rule_id)
    if row is None or row.workspace_id != workspace_id:
        raise NotFound("Recording rule not found")
    return row


def create_rule(
    db: Session,
    storage: StorageClient,
    *,
    workspace_id: uuid.UUID,
    data: dict[str, Any],
    actor: Actor,
) -> RecordingRule:
    check_rule_limits(
        db, workspace_id=workspace_id, interval_seconds=data["interval_seconds"], new=True
    )
    check_query(db, storage, workspace_id=workspace_id, spec=_spec(data))
    row = RecordingRule(
        workspace_id=workspace_id,
        created_by=actor.user_id,
        next_eval_at=datetime.now(UTC),
        **data,
    )
    db.add(row)
    db.flush()
    audit.record(
        db,
        actor=actor,
        action="recording_rule.create",
        workspace_id=workspace_id,
        target_type="recording_rule",
        target_id=row.id,
        details={"name": row.name, "measurement": row.measurement},
    )
    db.commit()
    return row


def update_rule(
    db: Session,
    storage: StorageClient,
    *,
    workspace_id: uuid.UUID,
    rule_id: uuid.UUID,
    changes: dict[str, Any],
    actor: Actor,
) -> RecordingRule:
    row = get_rule(db, workspace_id=workspace_id, rule_id=rule_id)
    changes = {k: v for k, v in changes.items() if v is not None or k == "field"}
    if "interval_seconds" in changes:
        check_rule_limits(
            db, workspace_id=workspace_id, interval_seconds=changes["interval_seconds"], new=False
        )
    merged = {c: getattr(row, c) for c in ("language", "query", "window_seconds")}
    merged.update({k: v for k, v in changes.items() if k in merged})
    if any(k in changes for k in merged):
        check_query(db, storage, workspace_id=workspace_id, spec=_spec(merged))
    for name, value in changes.items():
        setattr(row, name, value)
    row.updated_at = datetime.now(UTC)
    if "enabled" in changes or "interval_seconds" in changes:
        row.next_eval_at = row.updated_at
    audit.record(
        db,
        actor=actor,
        action="recording_rule.update",
        workspace_id=workspace_id,
        target_type="recording_rule",
        target_id=row.id,
        details={"name": row.name, "changed": sorted(changes)},
    )
    db.commit()
    return row


def delete_rule(db: Session, *, workspace_id: uuid.UUID, rule_id: uuid.UUID, actor: Actor) -> None:
    row = get_rule(db, workspace_id=workspace_id, rule_id=rule_id)
    audit.record(
        db,
        actor=actor,
        action="recording_rule.delete",
        workspace_id=workspace_id,
        target_type="recording_rule",
        target_id=row.id,
        details={"name": row.name},
    )
    db.delete(row)
    db.commit()
