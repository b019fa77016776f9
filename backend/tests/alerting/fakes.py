"""Storage answers for alerting tests: a DQL content per group from a dict of values."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping

import httpx

from tests.storage_mock import default_answer

Values = Mapping[str, float | None]


def dql_answer(
    values: Callable[[], Values] | Values, *, tag: str = "host"
) -> Callable[[httpx.Request], httpx.Response]:
    """A storage handler answering every DQL query with one series per key of ``values``
    (``{"web-1": 95}`` → tags ``{host: web-1}``; the key ``""`` is a series without tags)."""

    def handle(request: httpx.Request) -> httpx.Response:
        if request.url.path != "/v1/query/raw":
            return default_answer(request, {})
        body = json.loads(request.content)
        current = values() if callable(values) else values
        series = [
            {
                "name": "cpu",
                **({"tags": {tag: k}} if k else {}),
                "columns": ["time", "avg(usage)"],
                "values": [[body["queries"][0]["time_range"][0], v]],
            }
            for k, v in current.items()
        ]
        return httpx.Response(
            200,
            json={
                "content": [
                    {"series": series, "cost": "1ms", "raw_query": "", "query_type": "guancedb"}
                ]
            },
        )

    return handle
