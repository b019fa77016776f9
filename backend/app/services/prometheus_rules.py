"""A workspace's monitors and recording rules as Prometheus' ``/api/v1/rules`` and
``/api/v1/alerts`` describe rules and alerts, for Grafana's alert list of a Prometheus data
source.

Each enabled monitor is one alerting rule in a group of its own (file ``monitors``; a group
has one interval in Prometheus, and each monitor has its own), and each enabled recording
rule one recording rule (file ``recording_rules``). A monitor's groups that are pending,
firing or without data are its alerts: ``pending`` stays pending, ``firing`` and ``nodata``
are firing (a no-data alert carries the label ``nodata="true"``). Disabled monitors and rules
are not evaluated, and are left out, as Prometheus lists only the rules it runs.
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Collection
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.alerting.conditions import Condition
from app.alerting.notify import rendered, template_values
from app.models import Monitor, MonitorGroup, RecordingRule

MONITORS_FILE = "monitors"
RECORDING_FILE = "recording_rules"
# Go's zero time, which Prometheus reports for a rule that has not run yet
NEVER = "0001-01-01T00:00:00Z"
ALERT_STATES = ("pending", "firing", "nodata")


@dataclass(frozen=True)
class RuleFilter:
    """The filters of ``/api/v1/rules``; an empty collection lets everything through."""

    type: str = ""  # "", "alert" or "record"
    rule_names: Collection[str] = ()
    groups: Collection[str] = ()
    files: Collection[str] = ()
    exclude_alerts: bool = False


def go_float(x: float | None) -> str:
    """``x`` as Go's ``strconv.FormatFloat(x, 'e', -1, 64)`` writes it (``1.5e+00``), which
    is how Prometheus gives an alert's value."""
    if x is None or math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "+Inf" if x > 0 else "-Inf"
    for digits in range(17):
        text = f"{x:.{digits}e}"
        if float(text) == x:
            return text
    return f"{x:.16e}"


def _time(at: datetime | None) -> str:
    if at is None:
        return NEVER
    return at.astimezone(UTC).isoformat().replace("+00:00", "Z")


def _health(last_eval_at: datetime | None, last_error: str | None) -> str:
    if last_error:
        return "err"
    return "ok" if last_eval_at is not None else "unknown"


def _condition(monitor: Monitor, group: MonitorGroup) -> str:
    if group.state == "nodata":
        return "no data"
    for c in monitor.conditions:
        if c.get("severity") == group.severity:
            return Condition(c["severity"], c["op"], c["threshold"], c.get("threshold2")).describe()
    return ""


def _alert(monitor: Monitor, group: MonitorGroup) -> dict[str, Any]:
    labels = {str(k): str(v) for k, v in group.tags.items() if not str(k).startswith("__")}
    if group.severity:
        labels["severity"] = group.severity
    if group.state == "nodata":
        labels["nodata"] = "true"
    labels["alertname"] = monitor.name
    values = template_values(
        monitor,
        status=group.state,
        severity=group.severity,
        value=group.value,
        condition=_condition(monitor, group),
        tags=group.tags,
        at=group.since,
        url="",
    )
    title, message = rendered(monitor, values, group.tags)
    return {
        "labels": labels,
        "annotations": {"summary": title, "description": message},
        "state": "pending" if group.state == "pending" else "firing",
        "activeAt": _time(group.since),
        "value": go_float(group.value),
    }


def _annotations(monitor: Monitor) -> dict[str, str]:
    out = {"summary": monitor.title, "description": monitor.message}
    if monitor.runbook_url:
        out["runbook_url"] = monitor.runbook_url
    return out


def _alerting_rule(
    monitor: Monitor, alerts: list[dict[str, Any]], *, exclude_alerts: bool
) -> dict[str, Any]:
    states = {a["state"] for a in alerts}
    state = "firing" if "firing" in states else "pending" if states else "inactive"
    rule: dict[str, Any] = {
        "state": state,
        "name": monitor.name,
        "query": monitor.query,
        "duration": monitor.for_seconds,
        "keepFiringFor": 0,
        "labels": {"language": monitor.language},
        "annotations": _annotations(monitor),
        "health": _health(monitor.last_eval_at, monitor.last_error),
        "lastError": monitor.last_error or "",
        "evaluationTime": (monitor.last_eval_ms or 0.0) / 1000,
        "lastEvaluation": _time(monitor.last_eval_at),
        "type": "alerting",
    }
    if not exclude_alerts:
        rule["alerts"] = alerts
    return rule


def _recording_rule(rule: RecordingRule) -> dict[str, Any]:
    return {
        "name": f"{rule.measurement}:{rule.field}" if rule.field else rule.measurement,
        "query": rule.query,
        "labels": {"language": rule.language},
        "health": _health(rule.last_eval_at, rule.last_error),
        "lastError": rule.last_error or "",
        "evaluationTime": (rule.last_eval_ms or 0.0) / 1000,
        "lastEvaluation": _time(rule.last_eval_at),
        "type": "recording",
    }


def _group(
    file: str, name: str, interval: int, rule: dict[str, Any], last: datetime | None
) -> dict[str, Any]:
    return {
        "name": name,
        "file": file,
        "rules": [rule],
        "interval": interval,
        "limit": 0,
        "evaluationTime": rule["evaluationTime"],
        "lastEvaluation": _time(last),
    }


def _active_groups(
    db: Session, workspace_id: uuid.UUID, monitor_ids: Collection[uuid.UUID] | None = None
) -> dict[uuid.UUID, list[MonitorGroup]]:
    query = select(MonitorGroup).where(
        MonitorGroup.workspace_id == workspace_id, MonitorGroup.state.in_(ALERT_STATES)
    )
    if monitor_ids is not None:
        query = query.where(MonitorGroup.monitor_id.in_(monitor_ids))
    out: dict[uuid.UUID, list[MonitorGroup]] = {}
    for g in db.scalars(query.order_by(MonitorGroup.monitor_id, MonitorGroup.group_key)):
        out.setdefault(g.monitor_id, []).append(g)
    return out


def _enabled_monitors(db: Session, workspace_id: uuid.UUID) -> list[Monitor]:
    return list(
        db.scalars(
            select(Monitor)
            .where(Monitor.workspace_id == workspace_id, Monitor.enabled)
            .order_by(func.lower(Monitor.name), Monitor.id)
        )
    )


def _wanted(f: RuleFilter, file: str, group: str, name: str) -> bool:
    return (
        (not f.files or file in f.files)
        and (not f.groups or group in f.groups)
        and (not f.rule_names or name in f.rule_names)
    )


def rules(db: Session, *, workspace_id: uuid.UUID, filters: RuleFilter) -> dict[str, Any]:
    """The ``data`` of ``/api/v1/rules``: ``{"groups": [...]}``."""
    groups: list[dict[str, Any]] = []
    if filters.type in ("", "alert"):
        monitors = [
            m
            for m in _enabled_monitors(db, workspace_id)
            if _wanted(filters, MONITORS_FILE, m.name, m.name)
        ]
        active = _active_groups(db, workspace_id, [m.id for m in monitors])
        for m in monitors:
            alerts = [_alert(m, g) for g in active.get(m.id, [])]
            rule = _alerting_rule(m, alerts, exclude_alerts=filters.exclude_alerts)
            groups.append(_group(MONITORS_FILE, m.name, m.interval_seconds, rule, m.last_eval_at))
    if filters.type in ("", "record"):
        recording = db.scalars(
            select(RecordingRule)
            .where(RecordingRule.workspace_id == workspace_id, RecordingRule.enabled)
            .order_by(func.lower(RecordingRule.name), RecordingRule.id)
        )
        for r in recording:
            rule = _recording_rule(r)
            if _wanted(filters, RECORDING_FILE, r.name, rule["name"]):
                groups.append(
                    _group(RECORDING_FILE, r.name, r.interval_seconds, rule, r.last_eval_at)
                )
    return {"groups": groups}


def alerts(db: Session, *, workspace_id: uuid.UUID) -> dict[str, Any]:
    """The ``data`` of ``/api/v1/alerts``: every pending or firing alert of the workspace."""
    monitors = _enabled_monitors(db, workspace_id)
    active = _active_groups(db, workspace_id, [m.id for m in monitors])
    return {"alerts": [_alert(m, g) for m in monitors for g in active.get(m.id, [])]}
