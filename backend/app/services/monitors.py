"""Monitors per workspace: checked by storage before they are saved, within the workspace's
alerting limits (how many, how often), and their current state for the list and the page."""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.alerting import evaluate
from app.alerting.conditions import SEVERITY_RANK
from app.alerting.results import QueryFailed, observations
from app.alerting.silencing import ActiveSilence, muting
from app.clients.storage import StorageClient
from app.core.config import settings
from app.core.errors import InvalidValue, LimitExceeded, NotFound, QueryRejected, StorageUnavailable
from app.models import Channel, Monitor, MonitorGroup, RecordingRule, WorkspaceLimits
from app.services import audit
from app.services.audit import Actor

# columns a PATCH may set to null (clearing them); every other null means "keep"
NULLABLE = frozenset({"change", "renotify_minutes", "runbook_url"})
STATE_RANK = {"firing": 0, "nodata": 1, "pending": 2, "ok": 3}


def _limits(db: Session, workspace_id: uuid.UUID) -> WorkspaceLimits:
    limits = db.get(WorkspaceLimits, workspace_id)
    if limits is None:
        raise NotFound("Workspace limits not found")
    return limits


def rule_count(db: Session, *, workspace_id: uuid.UUID) -> int:
    monitors = db.scalar(
        select(func.count()).select_from(Monitor).where(Monitor.workspace_id == workspace_id)
    )
    rules = db.scalar(
        select(func.count())
        .select_from(RecordingRule)
        .where(RecordingRule.workspace_id == workspace_id)
    )
    return int(monitors or 0) + int(rules or 0)


def check_rule_limits(
    db: Session, *, workspace_id: uuid.UUID, interval_seconds: int | None, new: bool
) -> None:
    """429 when the workspace has all the monitors and recording rules it may; 422 when the
    interval is shorter than it may evaluate."""
    limits = _limits(db, workspace_id)
    if new and rule_count(db, workspace_id=workspace_id) >= limits.max_monitors:
        raise LimitExceeded(
            f"the workspace has {limits.max_monitors} monitors and recording rules, its limit "
            "(max_monitors); delete one or ask an admin to raise the limit",
            limit="max_monitors",
        )
    if interval_seconds is not None and interval_seconds < limits.min_monitor_interval_seconds:
        raise InvalidValue(
            f"{interval_seconds} s is more often than the workspace's limit allows: at least "
            f"{limits.min_monitor_interval_seconds} s (min_monitor_interval_seconds)",
            field="interval_seconds",
            limit="min_monitor_interval_seconds",
        )


def check_query(
    db: Session, storage: StorageClient, *, workspace_id: uuid.UUID, spec: evaluate.QuerySpec
) -> int:
    """Run the query once, now, as the evaluator will; the number of groups it returns.
    QueryRejected (400, storage's code and line:column) when storage refuses it."""
    now_ms = int(datetime.now(UTC).timestamp() * 1000)
    body = evaluate.request_body(spec, now_ms)
    try:
        (content,) = evaluate.fetch(db, storage, workspace_id=workspace_id, body=body)
        return len(observations(content, "last", max_groups=settings.ALERTING_MAX_GROUPS))
    except QueryFailed as exc:
        if exc.status >= 500 and exc.code != "dql.timeout":
            raise StorageUnavailable(f"the query could not be checked: {exc.message}") from exc
        raise QueryRejected(
            exc.message, code=exc.code, field="query", position=exc.position
        ) from exc


def spec_of(data: dict[str, Any] | Monitor) -> evaluate.QuerySpec:
    d: dict[str, Any] = (
        data
        if isinstance(data, dict)
        else {
            k: getattr(data, k)
            for k in ("language", "query", "window_seconds", "reducer", "change")
        }
    )
    change = d.get("change")
    return evaluate.QuerySpec(
        language=d["language"],
        query=d["query"],
        window_seconds=d["window_seconds"],
        reducer=d["reducer"],
        compare_to_seconds=change["compare_to_seconds"] if change else None,
        change_mode=change["mode"] if change else "percent",
    )


def check_routes(db: Session, *, workspace_id: uuid.UUID, routes: dict[str, Any]) -> None:
    wanted = {uuid.UUID(str(c)) for ids in routes.values() for c in ids}
    if not wanted:
        return
    found = set(
        db.scalars(
            select(Channel.id).where(Channel.workspace_id == workspace_id, Channel.id.in_(wanted))
        ).all()
    )
    missing = sorted(str(c) for c in wanted - found)
    if missing:
        raise InvalidValue(
            f"no such channel in this workspace: {', '.join(missing)}", field="routes"
        )


def list_monitors(db: Session, *, workspace_id: uuid.UUID) -> list[Monitor]:
    return list(
        db.scalars(
            select(Monitor)
            .where(Monitor.workspace_id == workspace_id)
            .order_by(func.lower(Monitor.name), Monitor.id)
        ).all()
    )


def get_monitor(db: Session, *, workspace_id: uuid.UUID, monitor_id: uuid.UUID) -> Monitor:
    row = db.get(Monitor, monitor_id)
    if row is None or row.workspace_id != workspace_id:
        raise NotFound("Monitor not found")
    return row


def _jsonable(data: dict[str, Any]) -> dict[str, Any]:
    out = dict(data)
    if "routes" in out and out["routes"] is not None:
        out["routes"] = {k: [str(c) for c in v] for k, v in out["routes"].items()}
    return out


def create_monitor(
    db: Session,
    storage: StorageClient,
    *,
    workspace_id: uuid.UUID,
    data: dict[str, Any],
    actor: Actor,
) -> Monitor:
    data = _jsonable(data)
    check_rule_limits(
        db, workspace_id=workspace_id, interval_seconds=data["interval_seconds"], new=True
    )
    check_routes(db, workspace_id=workspace_id, routes=data["routes"])
    check_query(db, storage, workspace_id=workspace_id, spec=spec_of(data))
    now = datetime.now(UTC)
    row = Monitor(workspace_id=workspace_id, created_by=actor.user_id, next_eval_at=now, **data)
    db.add(row)
    db.flush()
    audit.record(
        db,
        actor=actor,
        action="monitor.create",
        workspace_id=workspace_id,
        target_type="monitor",
        target_id=row.id,
        details={"name": row.name, "language": row.language},
    )
    db.commit()
    return row


def update_monitor(
    db: Session,
    storage: StorageClient,
    *,
    workspace_id: uuid.UUID,
    monitor_id: uuid.UUID,
    changes: dict[str, Any],
    actor: Actor,
) -> Monitor:
    row = get_monitor(db, workspace_id=workspace_id, monitor_id=monitor_id)
    changes = _jsonable({k: v for k, v in changes.items() if v is not None or k in NULLABLE})
    if "interval_seconds" in changes:
        check_rule_limits(
            db, workspace_id=workspace_id, interval_seconds=changes["interval_seconds"], new=False
        )
    if "routes" in changes:
        check_routes(db, workspace_id=workspace_id, routes=changes["routes"])
    merged = {
        c: getattr(row, c) for c in ("language", "query", "window_seconds", "reducer", "change")
    }
    merged.update({k: v for k, v in changes.items() if k in merged})
    if any(k in changes for k in ("language", "query", "window_seconds", "change")):
        check_query(db, storage, workspace_id=workspace_id, spec=spec_of(merged))
    diff = {k: True for k, v in changes.items() if getattr(row, k) != v}
    for name, value in changes.items():
        setattr(row, name, value)
    now = datetime.now(UTC)
    row.updated_at = now
    if "enabled" in diff or "interval_seconds" in diff:
        row.next_eval_at = now
    if row.enabled is False:
        row.last_error = None
    audit.record(
        db,
        actor=actor,
        action="monitor.update",
        workspace_id=workspace_id,
        target_type="monitor",
        target_id=row.id,
        details={"name": row.name, "changed": sorted(diff)},
    )
    db.commit()
    return row


def delete_monitor(
    db: Session, *, workspace_id: uuid.UUID, monitor_id: uuid.UUID, actor: Actor
) -> None:
    row = get_monitor(db, workspace_id=workspace_id, monitor_id=monitor_id)
    audit.record(
        db,
        actor=actor,
        action="monitor.delete",
        workspace_id=workspace_id,
        target_type="monitor",
        target_id=row.id,
        details={"name": row.name},
    )
    db.delete(row)
    db.commit()


def groups_of(
    db: Session, *, workspace_id: uuid.UUID, monitor_ids: Sequence[uuid.UUID] | None = None
) -> list[MonitorGroup]:
    query = select(MonitorGroup).where(MonitorGroup.workspace_id == workspace_id)
    if monitor_ids is not None:
        query = query.where(MonitorGroup.monitor_id.in_(monitor_ids))
    return list(db.scalars(query.order_by(MonitorGroup.monitor_id, MonitorGroup.group_key)).all())


def _worst(groups: Iterable[MonitorGroup]) -> MonitorGroup | None:
    def rank(g: MonitorGroup) -> tuple[int, int, float]:
        sev = SEVERITY_RANK.get(g.severity, 9) if g.severity else 9  # type: ignore[call-overload]
        return (STATE_RANK[g.state], sev, -(g.value or 0.0))

    return min(groups, key=rank, default=None)


def summarize(
    monitor: Monitor, groups: list[MonitorGroup], active: list[ActiveSilence], now: datetime
) -> dict[str, Any]:
    """The list's view of a monitor: status, worst severity and value, group counts, muted."""
    counts = Counter(g.state for g in groups)
    worst = _worst(groups)
    status = "disabled" if not monitor.enabled else (worst.state if worst else "ok")
    if monitor.enabled and monitor.last_error and status in ("ok", "pending"):
        status = "error"
    firing = [g for g in groups if g.state in ("firing", "nodata")]
    monitor_silenced = any(
        s.monitor_id == monitor.id and not s.matchers and s.in_effect(now) for s in active
    )
    muted = monitor_silenced or (
        bool(firing) and all(muting(active, monitor.id, g.tags, now) for g in firing)
    )
    return {
        "status": status,
        "severity": worst.severity if worst and worst.state in ("firing", "nodata") else None,
        "value": worst.value if worst else None,
        "groups": {s: counts.get(s, 0) for s in ("ok", "pending", "firing", "nodata")},
        "muted": muted,
    }
