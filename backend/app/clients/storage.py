"""Typed client for vigil-storage's internal HTTP API (docs/internals.md).

Every call names the workspace in ``X-Vigil-Workspace`` and carries the internal token;
the backend is the trusted caller that also sets the per-request limit headers.
"""

from __future__ import annotations

import contextlib
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import httpx

from app.core.errors import BadRequest, StorageUnavailable

WORKSPACE_HEADER = "X-Vigil-Workspace"
PROMETHEUS_ENDPOINTS = ("query", "query_range", "series", "labels")


@dataclass(frozen=True)
class QueryLimits:
    """Per-request limits storage enforces (sent as X-Vigil-* headers)."""

    timeout_seconds: int
    max_points: int
    # the workspace's retention: storage reads nothing older (None: all it keeps)
    retention_days: int | None = None

    def headers(self) -> dict[str, str]:
        headers = {
            "X-Vigil-Query-Timeout": f"{self.timeout_seconds}s",
            "X-Vigil-Max-Points": str(self.max_points),
        }
        if self.retention_days is not None:
            headers["X-Vigil-Retention"] = f"{self.retention_days * 24}h"
        return headers


@dataclass(frozen=True)
class StorageResponse:
    """Storage's answer, passed through to the caller unchanged.

    ``content`` is the body as it came over the wire: gzip'd when ``content_encoding`` is
    ``"gzip"`` (storage compresses answers of 1 KiB and more), so it can be sent on without
    being inflated and compressed again. ``seconds`` is how long storage took, from sending
    the request to its answer's last byte.
    """

    status_code: int
    content: bytes
    content_type: str
    content_encoding: str | None = None
    seconds: float = 0.0


@contextlib.contextmanager
def _storage_errors() -> Iterator[None]:
    """Transport failures talking to storage, as the 502/504 the caller gets."""
    try:
        yield
    except httpx.TimeoutException as exc:
        raise StorageUnavailable(
            f"vigil-storage did not answer in time ({type(exc).__name__})",
            code="storage_timeout",
        ) from exc
    except httpx.TransportError as exc:
        raise StorageUnavailable(f"vigil-storage is unreachable: {exc}") from exc


class StorageClient:
    def __init__(
        self,
        *,
        base_url: str,
        internal_token: str,
        timeout: float = 120.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self._http = httpx.Client(
            base_url=base_url.rstrip("/"),
            # gzip only: the one coding passed on to browsers and API clients as it is
            headers={"Authorization": f"Bearer {internal_token}", "Accept-Encoding": "gzip"},
            timeout=httpx.Timeout(timeout, connect=5.0),
            transport=transport,
        )

    def close(self) -> None:
        self._http.close()

    def _send(
        self,
        method: str,
        path: str,
        *,
        workspace_id: uuid.UUID,
        limits: QueryLimits | None = None,
        timeout: float | None = None,
        extra_headers: Mapping[str, str] | None = None,
        stream: bool = False,
        **kwargs: Any,
    ) -> httpx.Response:
        headers = {WORKSPACE_HEADER: str(workspace_id)}
        if limits is not None:
            headers.update(limits.headers())
        if extra_headers:
            headers.update(extra_headers)
        extra: dict[str, Any] = {}
        if timeout is not None:
            extra["timeout"] = httpx.Timeout(timeout, connect=5.0)
        try:
            request = self._http.build_request(method, path, headers=headers, **kwargs, **extra)
        except httpx.InvalidURL as exc:
            raise BadRequest(f"request cannot be forwarded: {exc}", code="bad_request") from exc
        with _storage_errors():
            return self._http.send(request, stream=stream)

    def _passthrough(self, method: str, path: str, **kwargs: Any) -> StorageResponse:
        """Sends a request and keeps the answer's body as sent (still compressed)."""
        started = time.perf_counter()
        response = self._send(method, path, stream=True, **kwargs)
        with _storage_errors(), contextlib.closing(response):
            content = b"".join(response.iter_raw())
        return StorageResponse(
            status_code=response.status_code,
            content=content,
            content_type=response.headers.get("content-type", "application/json"),
            content_encoding=response.headers.get("content-encoding"),
            seconds=time.perf_counter() - started,
        )

    def query_raw(
        self, *, workspace_id: uuid.UUID, body: Mapping[str, Any], limits: QueryLimits
    ) -> StorageResponse:
        """DQL ``POST /v1/query/raw``; status and body are returned as storage sent them."""
        return self._passthrough(
            "POST",
            "/v1/query/raw",
            workspace_id=workspace_id,
            limits=limits,
            json=body,
            timeout=limits.timeout_seconds + 10.0,
        )

    def prometheus(
        self,
        *,
        workspace_id: uuid.UUID,
        method: str,
        endpoint: str,
        params: Sequence[tuple[str, str]],
        form: Sequence[tuple[str, str]] | None,
        limits: QueryLimits,
    ) -> StorageResponse:
        """Prometheus HTTP API ``/api/v1/<endpoint>`` scoped to the workspace by storage.

        Repeated fields (``match[]``) are kept: the form is re-encoded as sent.
        """
        kwargs: dict[str, Any] = {"params": list(params)}
        headers: dict[str, str] = {}
        if form is not None:
            kwargs["content"] = str(httpx.QueryParams(list(form))).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        return self._passthrough(
            method,
            f"/api/v1/{endpoint}",
            workspace_id=workspace_id,
            limits=limits,
            timeout=limits.timeout_seconds + 10.0,
            extra_headers=headers,
            **kwargs,
        )

    def usage(self, *, workspace_id: uuid.UUID) -> dict[str, Any]:
        response = self._send("GET", "/internal/v1/usage", workspace_id=workspace_id, timeout=10.0)
        if response.status_code != 200:
            raise StorageUnavailable(
                f"vigil-storage answered {response.status_code} to the usage request"
            )
        data = response.json()
        keys = ("active_series", "series_total", "series_limit_dropped_points")
        out: dict[str, Any] = {k: int(data[k]) for k in keys if data.get(k) is not None}
        if data.get("error"):
            # a workspace with more series than storage counts gets the rest of its usage
            out["storage_error"] = str(data["error"])
        return out

    def stored(self, *, workspace_id: uuid.UUID) -> dict[str, int]:
        """What the workspace stores: ``samples``, ``series`` and ``bytes`` (an estimate)."""
        response = self._send(
            "GET", "/internal/v1/usage/storage", workspace_id=workspace_id, timeout=65.0
        )
        if response.status_code == 501:
            raise StorageUnavailable(
                "vigil-storage cannot tell a workspace's size in remote mode",
                code="storage_size_unavailable",
            )
        if response.status_code != 200:
            raise StorageUnavailable(
                f"vigil-storage answered {response.status_code} to the stored size request"
            )
        data = response.json()
        return {k: int(data[k]) for k in ("samples", "series", "bytes")}

    def active_series_history(
        self, *, workspace_id: uuid.UUID, start: int, end: int, step: int, timeout_seconds: int
    ) -> list[tuple[int, float]]:
        """The workspace's active series from ``start`` to ``end`` (epoch seconds), one
        ``(epoch ms, value)`` pair per ``step`` seconds: the most it had within the hour (or
        the step) before each, as storage counted them at ingest."""
        response = self._send(
            "GET",
            "/internal/v1/usage/active_series",
            workspace_id=workspace_id,
            limits=QueryLimits(timeout_seconds=timeout_seconds, max_points=1_000_000),
            params={"start": str(start), "end": str(end), "step": f"{step}s"},
            timeout=timeout_seconds + 5.0,
        )
        if response.status_code != 200:
            raise StorageUnavailable(
                f"vigil-storage answered {response.status_code} to the active series request"
            )
        result = response.json().get("data", {}).get("result", [])
        if not result:
            return []
        return [(int(float(t) * 1000), float(v)) for t, v in result[0].get("values", [])]

    def delete_workspace(self, *, workspace_id: uuid.UUID) -> None:
        response = self._send(
            "DELETE", "/internal/v1/workspace", workspace_id=workspace_id, timeout=60.0
        )
        if response.status_code >= 300:
            raise StorageUnavailable(
                f"vigil-storage answered {response.status_code} when deleting the workspace's data"
            )

    def health(self, *, timeout: float) -> dict[str, Any]:
        try:
            response = self._http.get("/health", timeout=timeout)
        except httpx.HTTPError as exc:
            raise StorageUnavailable(f"vigil-storage is unreachable: {exc}") from exc
        if response.status_code != 200:
            raise StorageUnavailable(f"vigil-storage /health answered {response.status_code}")
        result: dict[str, Any] = response.json()
        return result
