"""vigil-storage's internal write API, as the consumer uses it (docs/internals.md).

Outcomes are classified at this boundary: 2xx returns; 5xx, 429, timeouts and connection
errors raise Retryable; 400/413/415 raise Poison with storage's reason; 410 raises
WorkspaceDeleted (the workspace was deleted, its data is refused for good); any other answer
(401, 403, 404: a wrong token or URL) raises StorageMisconfigured, which stops the consumer.
"""

from __future__ import annotations

import json

import httpx

from vigil_ingest.common.errors import Poison, Retryable, WorkspaceDeleted

WORKSPACE_HEADER = "X-Vigil-Workspace"
# the workspace's limit of active series; storage leaves out the points of new series beyond it
# and says how many in DROPPED_HEADER
MAX_ACTIVE_SERIES_HEADER = "X-Vigil-Max-Active-Series"
DROPPED_HEADER = "X-Vigil-Dropped-Points"
_POISON_STATUSES = frozenset({400, 413, 415, 422})


class StorageMisconfigured(RuntimeError):
    """Storage refused us rather than the data (token, URL): retrying cannot help."""


def _reason(resp: httpx.Response) -> str:
    text = resp.text.strip()
    try:
        doc = json.loads(text)
    except ValueError:
        return text[:2000] or f"HTTP {resp.status_code}"
    if isinstance(doc, dict) and isinstance(doc.get("error"), str):
        return str(doc["error"])[:2000]
    return text[:2000]


class StorageClient:
    """Writes line protocol, remote_write and OTLP bodies to vigil-storage, one workspace each."""

    def __init__(
        self,
        base_url: str,
        token: str,
        *,
        timeout_s: float = 30.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self._client = httpx.Client(
            base_url=base_url.rstrip("/"),
            headers={"Authorization": f"Bearer {token}"},
            timeout=httpx.Timeout(timeout_s, connect=5.0),
            transport=transport,
        )

    def close(self) -> None:
        self._client.close()

    def write_line(
        self, workspace: str, body: bytes, *, precision: str, max_active_series: int = 0
    ) -> int:
        """Writes line protocol; returns the points storage left out for the series limit."""
        return self._post(
            "/internal/v1/write/line",
            workspace,
            body,
            params={"precision": precision},
            content_type="text/plain; charset=utf-8",
            max_active_series=max_active_series,
        )

    def write_promrw(self, workspace: str, body: bytes, *, max_active_series: int = 0) -> int:
        """Writes remote_write; returns the points storage left out for the series limit."""
        return self._post(
            "/internal/v1/write/promrw",
            workspace,
            body,
            params=None,
            content_type="application/x-protobuf",
            extra={"Content-Encoding": "snappy", "X-Prometheus-Remote-Write-Version": "0.1.0"},
            max_active_series=max_active_series,
        )

    def write_otlp(self, workspace: str, body: bytes, *, max_active_series: int = 0) -> int:
        """Writes an OTLP metrics export (protobuf); returns the points storage left out for
        the series limit."""
        return self._post(
            "/internal/v1/write/otlp",
            workspace,
            body,
            params=None,
            content_type="application/x-protobuf",
            max_active_series=max_active_series,
        )

    def _post(
        self,
        path: str,
        workspace: str,
        body: bytes,
        *,
        params: dict[str, str] | None,
        content_type: str,
        extra: dict[str, str] | None = None,
        max_active_series: int = 0,
    ) -> int:
        headers = {WORKSPACE_HEADER: workspace, "Content-Type": content_type}
        if extra:
            headers.update(extra)
        if max_active_series > 0:
            headers[MAX_ACTIVE_SERIES_HEADER] = str(max_active_series)
        try:
            resp = self._client.post(path, content=body, params=params, headers=headers)
        except httpx.TransportError as e:
            raise Retryable(f"storage unreachable: {type(e).__name__}: {e}") from e
        status = resp.status_code
        if 200 <= status < 300:
            try:
                return max(0, int(resp.headers.get(DROPPED_HEADER, "0")))
            except ValueError:
                return 0
        reason = _reason(resp)
        if status >= 500 or status == 429:
            raise Retryable(f"storage answered {status}: {reason}")
        if status in _POISON_STATUSES:
            raise Poison(reason)
        if status == 410:
            raise WorkspaceDeleted(reason)
        raise StorageMisconfigured(f"storage answered {status} to {path}: {reason}")

    def healthy(self) -> bool:
        try:
            return self._client.get("/health", timeout=2.0).status_code == 200
        except httpx.TransportError:
            return False
