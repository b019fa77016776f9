"""The FastAPI application: routers, error handlers, the UI."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse
from fastapi.routing import APIRoute
from sqlalchemy.exc import DataError
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.api import prometheus_errors
from app.api.main import api_router, root_router
from app.api.middleware import (
    BodySizeLimitMiddleware,
    DqlJsonBodyMiddleware,
    RequestMetricsMiddleware,
    SecurityHeadersMiddleware,
    ServerTimingMiddleware,
)
from app.api.routes import health, metrics
from app.clients.storage import AsyncStorageClient, StorageClient
from app.core.config import settings
from app.core.db import get_sessionmaker
from app.core.errors import VigilError
from app.core.logging import setup_logging
from app.services import limits, retention
from app.services.key_scopes import KeyScopeCache
from app.services.query_queue import QueryQueue
from app.ui import mount_ui

logger = logging.getLogger(__name__)

HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    415: "unsupported_media_type",
    422: "validation_error",
    429: "limit_exceeded",
    503: "busy",
}


def custom_generate_unique_id(route: APIRoute) -> str:
    return f"{route.tags[0]}-{route.name}" if route.tags else route.name


def _location(loc: Sequence[Any]) -> str:
    return ".".join(str(p) for p in loc)


async def vigil_error_handler(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, VigilError)
    return JSONResponse(exc.body(), status_code=exc.status_code, headers=exc.headers())


# What FastAPI says when a body cannot even be decoded, and what it means for the client.
_BODY_PARSE_ERROR = "There was an error parsing the body"


async def http_error_handler(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    detail = exc.detail
    if exc.status_code == 400 and detail == _BODY_PARSE_ERROR:
        cause = exc.__cause__ or exc.__context__
        detail = (
            f"the body is not UTF-8 text: {cause}"
            if isinstance(cause, UnicodeDecodeError)
            else "the body could not be read as JSON (UTF-8)"
        )
    return JSONResponse(
        {"detail": detail, "code": HTTP_CODES.get(exc.status_code, "error")},
        status_code=exc.status_code,
        headers=exc.headers,
    )


async def validation_error_handler(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = exc.errors()
    first = errors[0] if errors else {"loc": (), "msg": "invalid request"}
    detail = f"{_location(first.get('loc', ()))}: {first.get('msg', 'invalid')}".lstrip(": ")
    if first.get("type") == "json_invalid":
        # loc is ("body", <character offset>); ctx.error is the decoder's reason
        ctx = first.get("ctx")
        reason = ctx.get("error", "invalid JSON") if isinstance(ctx, dict) else "invalid JSON"
        at = list(first.get("loc", ()))[1:2]
        detail = f"the body is not valid JSON: {reason}" + (f" at character {at[0]}" if at else "")
    if len(errors) > 1:
        detail += f" (and {len(errors) - 1} more)"
    cleaned = [
        {"loc": list(e.get("loc", ())), "msg": e.get("msg"), "type": e.get("type")} for e in errors
    ]
    return JSONResponse(
        {"detail": detail, "code": "validation_error", "errors": cleaned}, status_code=422
    )


async def data_error_handler(_: Request, exc: Exception) -> JSONResponse:
    """A value the database cannot store is the request's fault: 422 saying which kind. Above
    all text with NUL (U+0000), which no PostgreSQL text column can hold, in any field."""
    assert isinstance(exc, DataError)
    reason = str(exc.orig).splitlines()[0] if exc.orig is not None else "invalid value"
    if "0x00" in reason:
        detail = "text must not contain NUL (\\u0000) characters"
    else:
        detail = f"a value cannot be stored: {reason}"
    return JSONResponse({"detail": detail, "code": "validation_error"}, status_code=422)


async def unicode_error_handler(_: Request, exc: Exception) -> JSONResponse:
    """JSON may escape half of a UTF-16 pair (``"\\udcff"``), which no UTF-8 text can hold:
    a field typed as text refuses it while validating; one passed on as it came (a query's
    options, a dashboard's spec) fails when it is encoded for storage or the database."""
    assert isinstance(exc, UnicodeEncodeError)
    bad = exc.object[exc.start : exc.end] if isinstance(exc.object, str) else ""
    shown = "".join(f"\\u{ord(c):04x}" for c in bad[:1]) or "a character"
    detail = f"text must be valid Unicode: {shown} is a lone surrogate (half of a UTF-16 pair)"
    return JSONResponse({"detail": detail, "code": "validation_error"}, status_code=422)


async def internal_error_handler(request: Request, exc: Exception) -> Response:
    """What Starlette answers to an unexpected exception, in Prometheus' envelope under its
    prefixes (the exception is still logged and re-raised by Starlette)."""
    if prometheus_errors.is_prometheus_path(request.url.path):
        return prometheus_errors.error_response(500, "internal server error")
    return PlainTextResponse("Internal Server Error", status_code=500)


Handler = Callable[[Request, Exception], Awaitable[Response]]


def prometheus_aware(handler: Handler) -> Handler:
    """``handler``, answering in Prometheus' envelope under the Prometheus prefixes."""

    async def wrapped(request: Request, exc: Exception) -> Response:
        response = await handler(request, exc)
        if prometheus_errors.is_prometheus_path(request.url.path):
            return prometheus_errors.rewrite(response)
        return response

    return wrapped


def _flush_counters() -> None:
    try:
        with get_sessionmaker()() as db:
            limits.query_counter.flush(db)
    except Exception:  # noqa: BLE001 - shutting down; the loss is a few query counts
        logger.exception("could not save query counts at shutdown")


def create_app(
    *, storage: StorageClient | None = None, async_storage: AsyncStorageClient | None = None
) -> FastAPI:
    """Build the app. Tests pass storage clients with a mock transport."""
    setup_logging()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        own = storage is None
        own_async = async_storage is None
        app.state.storage = storage or StorageClient(
            base_url=settings.STORAGE_URL,
            internal_token=settings.INTERNAL_TOKEN,
            timeout=settings.STORAGE_TIMEOUT_SECONDS,
        )
        app.state.async_storage = async_storage or AsyncStorageClient(
            base_url=settings.STORAGE_URL,
            internal_token=settings.INTERNAL_TOKEN,
            timeout=settings.STORAGE_TIMEOUT_SECONDS,
            max_connections=settings.STORAGE_MAX_CONNECTIONS,
        )
        sweeper = retention.start_sweeper(app.state.storage) if settings.RETENTION_SWEEP else None
        try:
            yield
        finally:
            if sweeper is not None:
                sweeper.stop()
            _flush_counters()
            if own:
                app.state.storage.close()
            if own_async:
                await app.state.async_storage.aclose()

    app = FastAPI(
        title=settings.PROJECT_NAME,
        summary="Multi-tenant metrics: workspaces, keys, dashboards and the DQL/PromQL query API",
        version="0.1.0",
        openapi_url="/api/openapi.json",
        docs_url="/api/docs",
        swagger_ui_oauth2_redirect_url="/api/docs/oauth2-redirect",
        redoc_url=None,
        generate_unique_id_function=custom_generate_unique_id,
        separate_input_output_schemas=False,
        lifespan=lifespan,
    )
    app.state.query_queue = QueryQueue(max_waiting=settings.QUERY_QUEUE_PER_WORKSPACE)
    app.state.key_scopes = KeyScopeCache[Any](settings.KEY_SCOPE_CACHE_SECONDS)
    if storage is not None:
        app.state.storage = storage
    if async_storage is not None:
        app.state.async_storage = async_storage
    app.add_middleware(RequestMetricsMiddleware)  # innermost: it reads the matched route
    app.add_middleware(DqlJsonBodyMiddleware)
    app.add_middleware(BodySizeLimitMiddleware, max_bytes=settings.MAX_REQUEST_BYTES)
    app.add_middleware(ServerTimingMiddleware)
    app.add_middleware(SecurityHeadersMiddleware)
    app.add_exception_handler(VigilError, prometheus_aware(vigil_error_handler))
    app.add_exception_handler(StarletteHTTPException, prometheus_aware(http_error_handler))
    app.add_exception_handler(RequestValidationError, prometheus_aware(validation_error_handler))
    app.add_exception_handler(DataError, prometheus_aware(data_error_handler))
    app.add_exception_handler(UnicodeEncodeError, prometheus_aware(unicode_error_handler))
    app.add_exception_handler(Exception, internal_error_handler)
    app.include_router(health.router)
    app.include_router(metrics.router)
    # The query paths at the root come before the API's: a router tries its routes in turn,
    # and agents' and Grafana's queries, the busiest requests, then skip the API's hundreds.
    app.include_router(root_router)
    app.include_router(api_router, prefix=settings.API_V1_STR)
    mount_ui(app, settings.UI_DIR)
    _describe_validation_errors(app)
    return app


def _describe_validation_errors(app: FastAPI) -> None:
    """Make the documented 422 body match ``validation_error_handler``'s."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = build()
            schemas = schema.get("components", {}).get("schemas", {})
            if "HTTPValidationError" in schemas:
                schemas["HTTPValidationError"] = {
                    "title": "HTTPValidationError",
                    "type": "object",
                    "required": ["detail", "code", "errors"],
                    "properties": {
                        "detail": {
                            "type": "string",
                            "title": "Detail",
                            "examples": ["body.email: value is not a valid email address"],
                        },
                        "code": {
                            "type": "string",
                            "title": "Code",
                            "examples": ["validation_error"],
                        },
                        "errors": {
                            "type": "array",
                            "title": "Errors",
                            "items": {"$ref": "#/components/schemas/ValidationError"},
                        },
                    },
                }
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


app = create_app()
