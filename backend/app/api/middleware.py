"""ASGI middleware."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence

from starlette.routing import BaseRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api import prometheus_errors
from app.core import metrics


class BodySizeLimitMiddleware:
    """Refuse request bodies above ``max_bytes`` with 413, before anything parses them.

    Checks ``Content-Length`` up front and counts streamed (chunked) bodies as they arrive.
    """

    def __init__(self, app: ASGIApp, *, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    too_large = int(value) > self.max_bytes
                except ValueError:
                    too_large = False
                if too_large:
                    await self._refuse(scope, send)
                    return
        received = 0
        exceeded = False
        replaced = False

        async def limited_receive() -> Message:
            # Past the limit the app gets an empty final chunk; whatever it answers to the
            # truncated body is replaced by the 413 below.
            nonlocal received, exceeded
            if exceeded:
                return {"type": "http.request", "body": b"", "more_body": False}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    exceeded = True
                    return {"type": "http.request", "body": b"", "more_body": False}
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal replaced
            if exceeded:
                if not replaced:
                    replaced = True
                    await self._refuse(scope, send)
                return
            await send(message)

        await self.app(scope, limited_receive, guarded_send)

    async def _refuse(self, scope: Scope, send: Send) -> None:
        detail = f"request body larger than {self.max_bytes} bytes"
        if prometheus_errors.is_prometheus_path(scope.get("path", "")):
            error: dict[str, str] = prometheus_errors.body("too_large", detail)
        else:
            error = {"detail": detail, "code": "too_large", "limit": "max_request_bytes"}
        body = json.dumps(error).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


class DqlJsonBodyMiddleware:
    """Treat ``query/raw`` bodies as JSON whatever their ``Content-Type`` says.

    DataKit-style clients and ``curl -d`` post DQL requests without ``application/json``
    (curl sends ``application/x-www-form-urlencoded``); the body is JSON all the same.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and scope["method"] == "POST"
            and scope["path"].endswith("/query/raw")
        ):
            headers = [(k, v) for k, v in scope["headers"] if k != b"content-type"]
            headers.append((b"content-type", b"application/json"))
            scope = {**scope, "headers": headers}
        await self.app(scope, receive, send)


class ServerTimingMiddleware:
    """Adds the time the backend spent on each answer to its ``Server-Timing`` header
    (``app;dur=<ms>``, up to the answer's first byte), beside what the route itself reported
    (``storage;dur=`` for queries), so a browser's network panel splits a slow request into
    the backend's share and storage's.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()

        async def timed_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                entry = f"app;dur={(time.perf_counter() - started) * 1000:.1f}".encode()
                headers = list(message.get("headers", []))
                for i, (name, value) in enumerate(headers):
                    if name.lower() == b"server-timing":
                        headers[i] = (name, value + b", " + entry)
                        break
                else:
                    headers.append((b"server-timing", entry))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, timed_send)


# What the UI needs and nothing more: its own scripts (no inline script, no eval), its own
# styles plus the style attributes React and ECharts set, images of its own, data: URIs and
# https images a dashboard's author wrote into a text panel, API calls to itself; and no page
# may frame it (clickjacking).
UI_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data: https:; font-src 'self' data:; connect-src 'self'; "
    "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)
# /api/docs is FastAPI's Swagger UI, which loads from its CDN and starts with an inline script.
DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; img-src 'self' data: https:; "
    "connect-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = (
    (b"x-content-type-options", b"nosniff"),
    # no address (with its query: invitation codes, tokens) ever leaves in a Referer header
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
)


class SecurityHeadersMiddleware:
    """Adds the security headers to every answer: a Content-Security-Policy, nosniff, a
    Referrer-Policy, and framing refused (``frame-ancestors 'none'``, X-Frame-Options)."""

    def __init__(self, app: ASGIApp, *, docs_path: str = "/api/docs") -> None:
        self.app = app
        self.docs_path = docs_path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        csp = (DOCS_CSP if scope["path"].startswith(self.docs_path) else UI_CSP).encode()

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                extra = [(b"content-security-policy", csp), *SECURITY_HEADERS]
                headers.extend((n, v) for n, v in extra if n not in present)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class RequestMetricsMiddleware:
    """Counts each answer and its duration by route template (``vigil_backend_http_*``).

    Added innermost, so it sees the route the router picked (FastAPI puts it in the scope)
    and the status the error handlers answered with; a request no route matched counts as
    route ``other``.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._templates: dict[int, str] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def recording_send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, recording_send)
        finally:
            if self._templates is None:
                self._templates = _route_templates(getattr(scope.get("app"), "routes", []))
            route = _route_template(scope, self._templates)
            method = scope["method"]
            metrics.HTTP_REQUESTS.labels(method, route, str(status)).inc()
            metrics.HTTP_SECONDS.labels(method, route).observe(time.perf_counter() - started)


def _route_templates(routes: Sequence[BaseRoute]) -> dict[int, str]:
    """Full path template of every route, through included routers, by the id of the route
    and of its endpoint (Starlette's routes, such as the OpenAPI document's, only put their
    endpoint in the scope; FastAPI's the route, whose own ``path`` lacks the router's prefix)."""
    try:
        from fastapi.routing import iter_route_contexts
    except ImportError:  # FastAPI before lazily included routers
        pairs = [(r, str(getattr(r, "path", ""))) for r in routes]
    else:
        pairs = [(c.route, c.path or "") for c in iter_route_contexts(routes)]
    out: dict[int, str] = {}
    for route, path in pairs:
        if path:
            out.setdefault(id(route), path)
            endpoint = getattr(route, "endpoint", None)
            if endpoint is not None:
                out.setdefault(id(endpoint), path)
    return out


def _route_template(scope: Scope, templates: dict[int, str]) -> str:
    for key in ("route", "endpoint"):
        if scope.get(key) is not None and id(scope[key]) in templates:
            return templates[id(scope[key])]
    return "other"
