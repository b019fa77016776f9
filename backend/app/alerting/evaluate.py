"""Running a monitor's (or recording rule's) query at a given time, through the same
workspace-scoped query path as people's queries (``app.services.query``): storage scopes it
to the workspace by rewriting the parsed query, applies the workspace's query limits, and the
query counts towards the workspace's usage."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from sqlalchemy.orm import Session

from app.alerting.conditions import ChangeMode, Reducer, change
from app.alerting.results import QueryFailed, contents, observations
from app.alerting.state import Observation
from app.clients.storage import StorageClient
from app.core.config import settings
from app.core.errors import VigilError
from app.services import query as query_service

Language = Literal["dql", "promql"]
#: a PromQL query is evaluated as an instant query: the last point of this short range
PROMQL_RANGE_MS = 1000


@dataclass(frozen=True)
class QuerySpec:
    language: Language
    query: str
    window_seconds: int
    reducer: Reducer = "last"
    compare_to_seconds: int | None = None
    change_mode: ChangeMode = "percent"


def request_body(spec: QuerySpec, end_ms: int, **extra: Any) -> dict[str, Any]:
    """The DQL-API request for ``spec`` over the window that ends at ``end_ms``."""
    if spec.language == "promql":
        q: dict[str, Any] = {
            "qtype": "promql",
            "query": spec.query,
            "time_range": [end_ms - PROMQL_RANGE_MS, end_ms],
            "step": "1s",
        }
    else:
        q = {
            "query": spec.query,
            "time_range": [end_ms - spec.window_seconds * 1000, end_ms],
            "disable_slimit": True,
        }
    q.update(extra)
    return {"queries": [q]}


def fetch(
    db: Session,
    storage: StorageClient,
    *,
    workspace_id: uuid.UUID,
    body: dict[str, Any],
) -> list[dict[str, Any]]:
    try:
        answer = query_service.query_raw(db, workspace_id=workspace_id, body=body, storage=storage)
    except VigilError as exc:  # storage unreachable, limits
        raise QueryFailed(exc.detail, code=exc.code, status=exc.status_code) from exc
    return contents(answer)


def observe(
    db: Session,
    storage: StorageClient,
    *,
    workspace_id: uuid.UUID,
    spec: QuerySpec,
    at: datetime,
) -> dict[str, Observation]:
    """Each group's value at ``at``: the query's points in the window, reduced, or — with
    change detection — how far that moved from the same window ``compare_to_seconds`` ago."""
    reducer: Reducer = "last" if spec.language == "promql" else spec.reducer
    end = int(at.timestamp() * 1000)
    current = _observe_at(db, storage, workspace_id, spec, end, reducer)
    if spec.compare_to_seconds is None:
        return current
    past_end = int((at - timedelta(seconds=spec.compare_to_seconds)).timestamp() * 1000)
    past = _observe_at(db, storage, workspace_id, spec, past_end, reducer)
    return {
        key: Observation(
            obs.tags,
            change(obs.value, past[key].value if key in past else None, spec.change_mode),
        )
        for key, obs in current.items()
    }


def _observe_at(
    db: Session,
    storage: StorageClient,
    workspace_id: uuid.UUID,
    spec: QuerySpec,
    end_ms: int,
    reducer: Reducer,
) -> dict[str, Observation]:
    body = request_body(spec, end_ms)
    (content,) = fetch(db, storage, workspace_id=workspace_id, body=body)
    return observations(content, reducer, max_groups=settings.ALERTING_MAX_GROUPS)
