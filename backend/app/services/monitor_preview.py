"""A monitor's preview: its query over the last hours and when it would have fired.

PromQL is evaluated at every step, as the evaluator would. DQL is read in buckets of the
monitor's window (or the query's own interval) and each evaluation reduces the buckets inside
its window; evaluations are one step apart, the monitor's interval or longer so that a day fits
in at most ``MAX_EVALUATIONS``. The evaluations then run through the same state machine as the
evaluator (``for``, new groups, no data), so the alerts drawn are the ones it would have raised.
"""

from __future__ import annotations

import math
import uuid
from collections import defaultdict
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.orm import Session

from app.alerting import evaluate, state
from app.alerting.conditions import Condition, change, reduce
from app.alerting.results import QueryFailed, series_points
from app.clients.storage import StorageClient
from app.core.errors import QueryRejected, StorageUnavailable
from app.schemas.monitor import PreviewRequest

MAX_EVALUATIONS = 1440
MAX_SERIES_DRAWN = 50
MAX_ALERTS = 500
Points = dict[str, tuple[dict[str, str], list[tuple[int, float | None]]]]


def _fetch(
    db: Session, storage: StorageClient, workspace_id: uuid.UUID, body: dict[str, Any]
) -> dict[str, Any]:
    try:
        (content,) = evaluate.fetch(db, storage, workspace_id=workspace_id, body=body)
    except QueryFailed as exc:
        if exc.status >= 500 and exc.code != "dql.timeout":
            raise StorageUnavailable(f"the preview could not run: {exc.message}") from exc
        raise QueryRejected(
            exc.message, code=exc.code, field="query", position=exc.position
        ) from exc
    return content


def _points(content: dict[str, Any]) -> Points:
    out: Points = {}
    for series in content.get("series") or []:
        tags = {str(k): str(v) for k, v in (series.get("tags") or {}).items()}
        key = state.group_key(tags)
        pts = sorted(series_points(series))
        if key in out:
            pts = sorted(out[key][1] + pts)
        out[key] = (tags, pts)
    return out


def _query(
    db: Session,
    storage: StorageClient,
    workspace_id: uuid.UUID,
    req: PreviewRequest,
    start_ms: int,
    end_ms: int,
    step_s: int,
) -> Points:
    if req.language == "promql":
        q: dict[str, Any] = {
            "qtype": "promql",
            "query": req.query,
            "time_range": [start_ms, end_ms],
            "step": f"{step_s}s",
        }
    else:
        q = {
            "query": req.query,
            "time_range": [start_ms - req.window_seconds * 1000, end_ms],
            "interval": f"{req.window_seconds}s",
            "disable_slimit": True,
            "max_point": MAX_EVALUATIONS * 2,
        }
    return _points(_fetch(db, storage, workspace_id, {"queries": [q]}))


def bucket_ms(points: Points, default: int) -> int:
    """The spacing of the buckets storage answered with (it widens them past max_point)."""
    gaps = [
        b[0] - a[0] for _tags, pts in points.values() for a, b in zip(pts, pts[1:], strict=False)
    ]
    return max(default, min((g for g in gaps if g > 0), default=default))


def _values_at(
    req: PreviewRequest, pts: list[tuple[int, float | None]], times: list[int], window: int
) -> list[float | None]:
    """Each evaluation's value: PromQL's point at that time; DQL's buckets within the window."""
    if req.language == "promql":
        by_time = dict(pts)
        return [by_time.get(t) for t in times]
    out: list[float | None] = []
    i = 0
    for t in times:
        while i < len(pts) and pts[i][0] < t - window:
            i += 1
        j, inside = i, []
        while j < len(pts) and pts[j][0] < t:
            inside.append(pts[j][1])
            j += 1
        out.append(reduce(inside, req.reducer))
    return out


def preview(
    db: Session, storage: StorageClient, *, workspace_id: uuid.UUID, req: PreviewRequest
) -> dict[str, Any]:
    span = req.hours * 3600
    step = max(req.interval_seconds, math.ceil(span / MAX_EVALUATIONS))
    end = int(datetime.now(UTC).timestamp()) // step * step
    start = end - span
    times = [(start + k * step) * 1000 for k in range(1, span // step + 1)]
    current = _query(db, storage, workspace_id, req, start * 1000, end * 1000, step)
    window = bucket_ms(current, req.window_seconds * 1000)
    values = {k: (tags, _values_at(req, pts, times, window)) for k, (tags, pts) in current.items()}
    if req.change is not None:
        shift = req.change.compare_to_seconds * 1000
        past = _query(
            db, storage, workspace_id, req, start * 1000 - shift, end * 1000 - shift, step
        )
        past_values = {
            k: _values_at(req, pts, [t - shift for t in times], window)
            for k, (_tags, pts) in past.items()
        }
        values = {
            k: (
                tags,
                [
                    change(v, (past_values.get(k) or [None] * len(times))[i], req.change.mode)
                    for i, v in enumerate(vals)
                ],
            )
            for k, (tags, vals) in values.items()
        }
    alerts = _simulate(req, values, times)
    drawn = sorted(
        values.items(),
        key=lambda kv: -max((v for v in kv[1][1] if v is not None), default=-math.inf),
    )
    fired = {state.group_key(a["tags"]) for a in alerts}
    drawn = sorted(drawn, key=lambda kv: kv[0] not in fired)[:MAX_SERIES_DRAWN]
    note = None
    if req.language == "dql" and step > req.interval_seconds:
        note = (
            f"Evaluated every {step} s over {req.hours} h (the monitor runs every "
            f"{req.interval_seconds} s): alerts shorter than that may not show."
        )
    return {
        "start": start * 1000,
        "end": end * 1000,
        "step_seconds": step,
        "series": [
            {"tags": tags, "points": list(zip(times, vals, strict=True))}
            for _k, (tags, vals) in drawn
        ],
        "alerts": alerts[:MAX_ALERTS],
        "conditions": [c.model_dump() for c in req.conditions],
        "truncated": len(values) > MAX_SERIES_DRAWN,
        "note": note,
    }


def _simulate(
    req: PreviewRequest,
    values: dict[str, tuple[dict[str, str], list[float | None]]],
    times: list[int],
) -> list[dict[str, Any]]:
    rules = state.Rules(
        conditions=tuple(
            Condition(c.severity, c.op, c.threshold, c.threshold2) for c in req.conditions
        ),
        for_seconds=req.for_seconds,
        group_grace_seconds=req.group_grace_seconds,
        new_group_delay_seconds=req.new_group_delay_seconds,
        no_data_action=req.no_data.action,
        no_data_after_seconds=req.no_data.after_seconds,
        no_data_severity=req.no_data.severity,
    )
    groups: dict[str, state.Group] = {}
    open_: dict[str, dict[str, Any]] = {}
    alerts: list[dict[str, Any]] = []
    first = datetime.fromtimestamp(times[0] / 1000, UTC) if times else datetime.now(UTC)
    by_time: dict[int, dict[str, state.Observation]] = defaultdict(dict)
    for key, (tags, vals) in values.items():
        for t, v in zip(times, vals, strict=True):
            if v is not None:
                by_time[t][key] = state.Observation(tags, v)
    for t in times:
        now = datetime.fromtimestamp(t / 1000, UTC)
        out = state.step(rules, groups, by_time.get(t, {}), now, data_since=first)
        groups = out.groups
        for tr in out.transitions:
            if tr.key in open_:  # resolved, back to ok, or firing at another severity
                open_.pop(tr.key)["end"] = t
            if tr.to_state in ("firing", "nodata"):
                alert = {
                    "tags": tr.tags,
                    "severity": tr.severity if tr.to_state == "firing" else "nodata",
                    "start": t,
                    "end": None,
                }
                open_[tr.key] = alert
                alerts.append(alert)
    return alerts
