"""ASGI middleware."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence

from starlette.routing import BaseRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

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
                    await self._refuse(send)
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
                    await self._refuse(send)
                return
            await send(message)

        await self.app(scope, limited_receive, guarded_send)

    async def _refuse(self, send: Send) -> None:
        body = json.dumps(
            {
                "detail": f"request body larger than {self.max_bytes} bytes",
                "code": "too_large",
                "limit": "max_request_bytes",
            }
        ).encode()
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
