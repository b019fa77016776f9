"""A query's answer (storage's DQL-shaped response) as one observation per group."""

from __future__ import annotations

import gzip
import json
from collections.abc import Mapping
from typing import Any

from app.alerting.conditions import Reducer, reduce
from app.alerting.state import Observation, group_key
from app.clients.storage import StorageResponse


class QueryFailed(Exception):
    """Storage refused the query or could not answer it. ``code`` is storage's error code
    (``dql.parse_error`` …), ``position`` its line/column when it named one."""

    def __init__(
        self,
        message: str,
        *,
        code: str = "query_failed",
        status: int = 400,
        position: dict[str, int] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.status = status
        self.position = position


def decode(answer: StorageResponse) -> Any:
    content = answer.content
    if answer.content_encoding == "gzip":
        content = gzip.decompress(content)
    try:
        return json.loads(content)
    except ValueError as exc:
        raise QueryFailed(
            f"storage answered {answer.status_code} with a body that is not JSON",
            code="storage_error",
            status=502,
        ) from exc


def contents(answer: StorageResponse) -> list[dict[str, Any]]:
    """The ``content`` list of a 200, or QueryFailed with storage's error."""
    body = decode(answer)
    if answer.status_code != 200:
        if isinstance(body, dict) and "error_code" in body:
            pos = body.get("position")
            raise QueryFailed(
                str(body.get("message", "")),
                code=str(body["error_code"]),
                status=answer.status_code,
                position=pos if isinstance(pos, dict) else None,
            )
        if isinstance(body, dict) and "errorType" in body:
            # storage's own refusals (the query slots' 429 naming concurrent_queries …)
            raise QueryFailed(
                str(body.get("error") or f"storage answered {answer.status_code}"),
                code=str(body["errorType"]),
                status=answer.status_code,
            )
        detail = body.get("detail") if isinstance(body, dict) else None
        raise QueryFailed(
            str(detail or f"storage answered {answer.status_code}"),
            code=str(body.get("code", "storage_error"))
            if isinstance(body, dict)
            else "storage_error",
            status=answer.status_code,
        )
    result = body.get("content") if isinstance(body, dict) else None
    if not isinstance(result, list):
        raise QueryFailed("storage's answer has no content", code="storage_error", status=502)
    return result


def _value_column(columns: list[Any], rows: list[list[Any]]) -> int | None:
    """The first column after ``time`` that holds numbers."""
    for i in range(1, len(columns)):
        if any(
            isinstance(r[i], int | float) and not isinstance(r[i], bool) for r in rows if len(r) > i
        ):
            return i
    return None


def series_points(series: Mapping[str, Any]) -> list[tuple[int, float | None]]:
    """(time ms, value) of a series' monitored column (the first numeric one after time)."""
    rows = [r for r in series.get("values") or [] if isinstance(r, list) and r]
    col = _value_column(list(series.get("columns") or []), rows)
    out: list[tuple[int, float | None]] = []
    for r in rows:
        v = r[col] if col is not None and len(r) > col else None
        num = float(v) if isinstance(v, int | float) and not isinstance(v, bool) else None
        out.append((int(r[0]) if isinstance(r[0], int | float) else 0, num))
    return out


def observations(
    content: Mapping[str, Any], reducer: Reducer, *, max_groups: int
) -> dict[str, Observation]:
    """One observation per group: the points of the group's series in the window, reduced.
    Series with the same tags (several measurements, say) are reduced together."""
    points: dict[str, list[float | None]] = {}
    tags_of: dict[str, dict[str, str]] = {}
    for series in content.get("series") or []:
        tags = {str(k): str(v) for k, v in (series.get("tags") or {}).items()}
        key = group_key(tags)
        tags_of[key] = tags
        points.setdefault(key, []).extend(v for _, v in series_points(series))
        if len(points) > max_groups:
            raise QueryFailed(
                f"the query returns more than {max_groups} groups; a monitor tracks at most "
                f"{max_groups}: group by fewer tags or filter",
                code="too_many_groups",
            )
    return {k: Observation(tags_of[k], reduce(v, reducer)) for k, v in points.items()}
