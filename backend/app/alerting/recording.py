"""Recording rules: run a query every interval and write its result back into the workspace
as a new measurement, through the ingest gateway like any agent's points — so they are
counted against the workspace's ingest limits and reach storage through Kafka.

Each group of the result becomes one point: the rule's measurement, the group's tags (names
starting with ``__`` left out), one field per value column (``avg(usage)`` → ``avg_usage``, or
the rule's field name), at the run's scheduled time.
"""

from __future__ import annotations

import logging
import math
import re
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.alerting import evaluate
from app.alerting.results import QueryFailed
from app.clients.storage import StorageClient
from app.core.config import settings
from app.models import RecordingRule, Workspace
from app.services import api_keys

log = logging.getLogger(__name__)


def field_name(column: str) -> str:
    name = re.sub(r"[^A-Za-z0-9_]+", "_", column).strip("_")
    return name or "value"


def _esc(s: str, chars: str) -> str:
    s = s.replace("\\", "\\\\")
    for c in chars:
        s = s.replace(c, "\\" + c)
    return s.replace("\n", "\\n")


def lines(
    content: Mapping[str, Any], *, measurement: str, field: str | None, at_ms: int
) -> list[str]:
    """Line protocol for a query's result: the last value of each value column per series."""
    out: list[str] = []
    for series in content.get("series") or []:
        columns = list(series.get("columns") or [])
        rows = [r for r in series.get("values") or [] if isinstance(r, list)]
        fields: dict[str, float] = {}
        for i in range(1, len(columns)):
            last = None
            for r in rows:
                v = r[i] if len(r) > i else None
                if isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v):
                    last = float(v)
            if last is not None:
                fields[field if field else field_name(str(columns[i]))] = last
                if field:
                    break
        if not fields:
            continue
        tags = {
            k: str(v)
            for k, v in (series.get("tags") or {}).items()
            if not k.startswith("__") and str(v) != ""
        }
        head = _esc(measurement, ", ") + "".join(
            f",{_esc(k, ',= ')}={_esc(v, ',= ')}" for k, v in sorted(tags.items())
        )
        body = ",".join(f"{_esc(k, ',= ')}={repr(v)}" for k, v in fields.items())
        out.append(f"{head} {body} {at_ms}")
    return out


@dataclass(frozen=True)
class RuleRun:
    rule_id: Any
    points: int
    error: str | None
    seconds: float


def write(key: str, body: Iterable[str]) -> str | None:
    """POST the lines to the gateway; None when it took them, else why not."""
    data = "\n".join(body).encode()
    if not data:
        return None
    try:
        r = httpx.post(
            f"{settings.GATEWAY_URL.rstrip('/')}/v1/write/metric",
            params={"precision": "ms"},
            content=data,
            headers={"Authorization": f"Token {key}", "Content-Type": "text/plain"},
            timeout=30.0,
        )
    except httpx.HTTPError as exc:
        return f"the ingest gateway is unreachable: {exc}"
    if r.status_code == 204:
        return None
    detail = r.text[:300].strip()
    return f"the ingest gateway answered {r.status_code}: {detail}"


def claim_due(db: Session, now: datetime) -> RecordingRule | None:
    return db.scalar(
        select(RecordingRule)
        .join(Workspace, Workspace.id == RecordingRule.workspace_id)
        .where(RecordingRule.enabled, RecordingRule.next_eval_at <= now, Workspace.serving())
        .order_by(RecordingRule.next_eval_at)
        .limit(1)
        .with_for_update(skip_locked=True, of=RecordingRule)
        .execution_options(populate_existing=True)
    )


def run_rule(
    db: Session, query_db: Session, storage: StorageClient, rule: RecordingRule, now: datetime
) -> RuleRun:
    started = time.perf_counter()
    at = rule.next_eval_at if rule.next_eval_at <= now else now
    at_ms = int(at.timestamp() * 1000)
    spec = evaluate.QuerySpec(rule.language, rule.query, rule.window_seconds)  # type: ignore[arg-type]
    error: str | None = None
    points = 0
    try:
        (content,) = evaluate.fetch(
            query_db,
            storage,
            workspace_id=rule.workspace_id,
            body=evaluate.request_body(spec, at_ms),
        )
        body = lines(content, measurement=rule.measurement, field=rule.field, at_ms=at_ms)
        key = api_keys.system_ingest_key(query_db, workspace_id=rule.workspace_id)
        error = write(key, body)
        points = 0 if error else len(body)
    except QueryFailed as exc:
        error = f"{exc.code}: {exc.message}"
    if error:
        log.warning("recording rule %s: %s", rule.id, error)
    rule.last_error = error[:2000] if error else None
    rule.last_points = points
    rule.last_eval_at = now
    rule.last_eval_ms = (time.perf_counter() - started) * 1000
    interval = rule.interval_seconds
    nxt = datetime.fromtimestamp((int(at.timestamp()) // interval + 1) * interval, UTC)
    rule.next_eval_at = nxt if nxt > now else now + timedelta(seconds=interval)
    return RuleRun(rule.id, points, error, time.perf_counter() - started)


def run_once(db: Session, query_db: Session, storage: StorageClient) -> RuleRun | None:
    now = datetime.now(UTC)
    db.expire_all()
    rule = claim_due(db, now)
    if rule is None:
        db.rollback()
        return None
    try:
        result = run_rule(db, query_db, storage, rule, now)
        db.commit()
    except Exception:
        db.rollback()
        raise
    return result
