"""A stand-in for vigil-storage at the HTTP client level (``httpx.MockTransport``).

It records every request and answers like storage's internal API does for the paths the
backend calls; a test can replace ``handler`` to script other answers.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx

from app.clients.storage import AsyncStorageClient, StorageClient

INTERNAL_TOKEN = "test-internal-token"


class StorageMock:
    def __init__(self) -> None:
        self.requests: list[httpx.Request] = []
        self.handler: Callable[[httpx.Request], httpx.Response] | None = None
        self.usage = {"active_series": 42, "series_total": 50}
        self.stored = {"samples": 1000, "series": 50, "bytes": 25_000}

    def client(self) -> StorageClient:
        return StorageClient(
            base_url="http://storage.test",
            internal_token=INTERNAL_TOKEN,
            transport=httpx.MockTransport(self._handle),
        )

    def async_client(self) -> AsyncStorageClient:
        return AsyncStorageClient(
            base_url="http://storage.test",
            internal_token=INTERNAL_TOKEN,
            transport=httpx.MockTransport(self._handle),
        )

    def last(self) -> httpx.Request:
        assert self.requests, "storage was not called"
        return self.requests[-1]

    def _handle(self, request: httpx.Request) -> httpx.Response:
        request.read()
        self.requests.append(request)
        if request.url.path != "/health":
            if request.headers.get("authorization") != f"Bearer {INTERNAL_TOKEN}":
                return httpx.Response(401, json={"status": "error", "error": "bad token"})
            if not request.headers.get("x-vigil-workspace"):
                return httpx.Response(400, json={"status": "error", "error": "no workspace"})
        if self.handler is not None:
            response = self.handler(request)
        else:
            response = default_answer(request, self.usage, self.stored)
        if response.is_stream_consumed:
            # built from json=/content=, it is read already: hand it over as a network stream,
            # which is how the client reads storage's answers (raw, to pass them on)
            response = httpx.Response(
                response.status_code,
                headers=response.headers,
                stream=httpx.ByteStream(response.content),
            )
        return response


def default_answer(
    request: httpx.Request, usage: dict[str, int], stored: dict[str, int] | None = None
) -> httpx.Response:
    path = request.url.path
    if path == "/health":
        return httpx.Response(200, json={"status": "ok", "version": "test"})
    if path == "/v1/query/raw":
        body: dict[str, Any] = json.loads(request.content)
        return httpx.Response(
            200,
            json={
                "content": [
                    {
                        "series": [
                            {
                                "name": "cpu",
                                "tags": {"host": "web-01"},
                                "columns": ["time", "avg(usage_idle)"],
                                "values": [[1699999200000, 97.25]],
                            }
                        ],
                        "cost": "1ms",
                        "raw_query": "",
                        "query_type": "guancedb",
                    }
                    for _ in body.get("queries", [])
                ]
            },
        )
    if path == "/internal/v1/usage":
        return httpx.Response(200, json=usage)
    if path == "/internal/v1/usage/storage":
        return httpx.Response(200, json=stored or {"samples": 0, "series": 0, "bytes": 0})
    if path == "/internal/v1/usage/active_series":
        return httpx.Response(
            200,
            json={
                "status": "success",
                "data": {
                    "resultType": "matrix",
                    "result": [
                        {
                            "metric": {"workspace": request.headers["x-vigil-workspace"]},
                            "values": [[1700000000, "40"], [1700000060, "42"]],
                        }
                    ],
                },
            },
        )
    if path == "/internal/v1/workspace" and request.method == "DELETE":
        return httpx.Response(204)
    if path.startswith("/api/v1/"):
        return prometheus_answer(request)
    return httpx.Response(404, json={"status": "error", "error": f"unknown path {path}"})


def prometheus_answer(request: httpx.Request) -> httpx.Response:
    endpoint = request.url.path.removeprefix("/api/v1/")
    workspace = request.headers["x-vigil-workspace"]
    labels = {"__name__": "cpu:usage_user", "host": "web-01"}
    if endpoint == "query":
        data: Any = {
            "resultType": "vector",
            "result": [{"metric": labels, "value": [1700000000, "1.5"]}],
        }
    elif endpoint == "query_range":
        data = {
            "resultType": "matrix",
            "result": [{"metric": labels, "values": [[1700000000, "1.5"], [1700000060, "2.5"]]}],
        }
    elif endpoint == "series":
        data = [labels]
    elif endpoint == "labels":
        data = ["__name__", "host"]
    elif endpoint.startswith("label/") and endpoint.endswith("/values"):
        name = endpoint.split("/")[1]
        data = {"host": ["web-01"], "__name__": ["cpu:usage_user"]}.get(name, [])
    else:
        return httpx.Response(
            404, json={"status": "error", "errorType": "not_found", "error": endpoint}
        )
    return httpx.Response(
        200,
        json={"status": "success", "data": data},
        headers={"X-Test-Workspace": workspace},
    )
