"""A small keep-alive HTTP client for the timed paths (one per thread).

``http.client`` costs far less per request than a full-featured client, which matters when
the load generator shares two cores with the system it measures.
"""

from __future__ import annotations

import http.client
import urllib.parse


class HttpError(RuntimeError):
    def __init__(self, status: int, body: bytes, what: str) -> None:
        self.status = status
        self.body = body
        super().__init__(f"{what}: HTTP {status}: {body[:500].decode(errors='replace')}")


class Http:
    def __init__(
        self, base_url: str, headers: dict[str, str] | None = None, timeout: float = 120
    ) -> None:
        u = urllib.parse.urlsplit(base_url)
        self.host = u.hostname or "127.0.0.1"
        self.port = u.port or (443 if u.scheme == "https" else 80)
        self.https = u.scheme == "https"
        self.prefix = u.path.rstrip("/")
        self.headers = dict(headers or {})
        self.timeout = timeout
        self._conn: http.client.HTTPConnection | None = None
        # the headers of the last answer
        self.last_headers: dict[str, str] = {}

    def _connection(self) -> http.client.HTTPConnection:
        if self._conn is None:
            cls = http.client.HTTPSConnection if self.https else http.client.HTTPConnection
            self._conn = cls(self.host, self.port, timeout=self.timeout)
        return self._conn

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def request(
        self,
        method: str,
        path: str,
        *,
        params: dict[str, str] | None = None,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, bytes]:
        url = self.prefix + path
        if params:
            url += "?" + urllib.parse.urlencode(params)
        h = {**self.headers, **(headers or {})}
        for attempt in (0, 1):
            conn = self._connection()
            try:
                conn.request(method, url, body=body, headers=h)
                resp = conn.getresponse()
                data = resp.read()
                self.last_headers = {k.lower(): v for k, v in resp.getheaders()}
                if resp.getheader("connection", "").lower() == "close":
                    self.close()
                return resp.status, data
            except (http.client.HTTPException, ConnectionError, TimeoutError, OSError):
                self.close()
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def expect(
        self, method: str, path: str, ok: tuple[int, ...] = (200, 204), **kw: object
    ) -> bytes:
        status, data = self.request(method, path, **kw)  # type: ignore[arg-type]
        if status not in ok:
            raise HttpError(status, data, f"{method} {path}")
        return data
