"""The query API: DQL ``query/raw`` and the Prometheus-compatible read API.

Two entry points for each: under ``/api/v1/workspaces/{workspace_id}/…`` (a session, or a
query key of that workspace) and at the root (``/v1/query/raw``, ``/prometheus/api/v1/…``),
where the query key alone picks the workspace. Storage's status and body pass through as-is,
with its ``Retry-After`` when it answers 429 (the workspace's queue of queries is full).

The handlers are coroutines: what needs the database (who asks, the workspace's limits, the
query count) runs in a dependency on a worker thread, which gives its database connection
back before the query is sent; storage is then awaited on the event loop. A flood of slow
queries therefore holds neither worker threads nor database connections, and login and the
UI keep theirs.
"""

from __future__ import annotations

import gzip
import re
import uuid
from dataclasses import dataclass
from typing import Annotated, Any
from urllib.parse import parse_qsl

from fastapi import APIRouter, Depends, Request, Response
from sqlalchemy.orm import Session

from app.api.deps import (
    AsyncStorageDep,
    BearerDep,
    extract_token,
    resolve_query_key,
    workspace_context,
)
from app.clients.storage import AsyncStorageClient, QueryLimits, StorageResponse
from app.core.db import get_sessionmaker
from app.core.encoding import accepts
from app.core.errors import BadRequest, Unauthorized
from app.core.permissions import Permission
from app.schemas.common import ERROR_RESPONSES, ErrorPublic
from app.schemas.query import DqlError, DqlRequest, DqlResponse
from app.services import query, workspaces

router = APIRouter(prefix="/workspaces/{workspace_id}", tags=["query"], responses=ERROR_RESPONSES)
public_router = APIRouter(tags=["query"], responses=ERROR_RESPONSES)


DQL_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: {"model": DqlError, "description": "DQL error (error_code dql.*), from storage"},
    504: {"model": DqlError, "description": "dql.timeout"},
    502: {"model": ErrorPublic, "description": "Storage unreachable"},
}
PROM_ENDPOINTS = {
    "query": "Instant query",
    "query_range": "Range query",
    "series": "Series matching selectors",
    "labels": "Label names",
}
MAX_FORM_BYTES = 1024 * 1024


def _response(answer: StorageResponse, request: Request) -> Response:
    """Storage's answer as it is; a gzip'd one stays gzip'd for clients that accept it.

    ``Server-Timing`` says how much of the request storage took (the backend's whole share
    is added by ``ServerTimingMiddleware``): browsers show both in their network panel.
    """
    content = answer.content
    headers = {"Server-Timing": f"storage;dur={answer.seconds * 1000:.1f}", **answer.headers}
    if answer.content_encoding == "gzip":
        headers["Vary"] = "Accept-Encoding"
        if accepts(request.headers.get("accept-encoding", ""), "gzip"):
            headers["Content-Encoding"] = "gzip"
        else:
            content = gzip.decompress(content)
    return Response(
        content=content,
        status_code=answer.status_code,
        media_type=answer.content_type,
        headers=headers,
    )


def _dql_body(body: DqlRequest) -> dict[str, Any]:
    return body.model_dump(mode="json", exclude_unset=True)


def _key_workspace(request: Request, db: Session) -> uuid.UUID:
    token = extract_token(request)
    if token is None:
        raise Unauthorized("Not authenticated: send a query key as Authorization: Token <key>")
    key = resolve_query_key(db, token)
    workspace = workspaces.get_active(db, workspace_id=key.workspace_id)
    if workspace is None:
        raise Unauthorized("API key is invalid or revoked", code="invalid_key")
    workspaces.ensure_not_suspended(workspace)
    return key.workspace_id


@dataclass(frozen=True)
class QueryScope:
    """The workspace a query runs in and its limits, resolved before storage is asked."""

    workspace_id: uuid.UUID
    limits: QueryLimits


# Everything a query needs of the database happens in one call on a worker thread, with a
# session of its own that is closed before storage is asked: a connection taken in one
# dependency and given back in another would wait for a free thread while holding it, and a
# flood of queries would hold every connection and every thread at once.


def _scope(workspace_id: uuid.UUID, request: Request, _: BearerDep) -> QueryScope:
    with get_sessionmaker()() as db:
        ws = workspace_context(db, request, workspace_id, Permission.QUERY)
        return QueryScope(ws.id, query.prepare(db, workspace_id=ws.id))


_scope.permission = Permission.QUERY  # type: ignore[attr-defined]


def _key_scope(request: Request, _: BearerDep) -> QueryScope:
    with get_sessionmaker()() as db:
        workspace_id = _key_workspace(request, db)
        return QueryScope(workspace_id, query.prepare(db, workspace_id=workspace_id))


ScopeDep = Annotated[QueryScope, Depends(_scope)]
KeyScopeDep = Annotated[QueryScope, Depends(_key_scope)]


@router.post("/query/raw", response_model=DqlResponse, responses=DQL_RESPONSES)
async def query_raw(
    body: DqlRequest, request: Request, scope: ScopeDep, storage: AsyncStorageDep
) -> Response:
    """Run DQL in this workspace (DQL.md §2)."""
    answer = await query.query_raw_async(
        workspace_id=scope.workspace_id, body=_dql_body(body), limits=scope.limits, storage=storage
    )
    return _response(answer, request)


@public_router.post("/v1/query/raw", response_model=DqlResponse, responses=DQL_RESPONSES)
async def query_raw_by_key(
    body: DqlRequest, request: Request, scope: KeyScopeDep, storage: AsyncStorageDep
) -> Response:
    """Run DQL in the workspace of the query key (``Authorization: Bearer|Token <key>`` or
    ``?token=``) — DataKit/Guance compatible."""
    answer = await query.query_raw_async(
        workspace_id=scope.workspace_id, body=_dql_body(body), limits=scope.limits, storage=storage
    )
    return _response(answer, request)


async def _form(request: Request) -> list[tuple[str, str]] | None:
    if request.method != "POST":
        return None
    content_type = request.headers.get("content-type", "")
    if not content_type.startswith("application/x-www-form-urlencoded"):
        if await request.body():
            raise BadRequest(
                "POST bodies must be application/x-www-form-urlencoded", code="bad_content_type"
            )
        return []
    raw = await request.body()
    if len(raw) > MAX_FORM_BYTES:
        raise BadRequest(f"form body larger than {MAX_FORM_BYTES} bytes", code="body_too_large")
    try:
        return parse_qsl(raw.decode(), keep_blank_values=True, strict_parsing=False)
    except UnicodeDecodeError as exc:
        raise BadRequest("form body is not UTF-8", code="bad_form") from exc


FormDep = Annotated[list[tuple[str, str]] | None, Depends(_form)]


async def _prometheus(
    request: Request,
    storage: AsyncStorageClient,
    scope: QueryScope,
    endpoint: str,
    form: list[tuple[str, str]] | None,
) -> Response:
    params = [(k, v) for k, v in request.query_params.multi_items() if k != "token"]
    answer = await query.prometheus_async(
        workspace_id=scope.workspace_id,
        limits=scope.limits,
        storage=storage,
        method=request.method,
        endpoint=endpoint,
        params=params,
        form=form,
    )
    return _response(answer, request)


LABEL_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.:-]{0,255}$")


def _label_name(name: str) -> str:
    if not LABEL_NAME.match(name):
        raise BadRequest(
            f"invalid label name {name[:64]!r}: expected [A-Za-z_][A-Za-z0-9_.:-]*, "
            "at most 256 characters",
            code="bad_label",
        )
    return name


def _register_prometheus() -> None:
    for endpoint, summary in PROM_ENDPOINTS.items():
        for method in ("GET", "POST"):
            _add_scoped(endpoint, summary, method)
            _add_public(endpoint, summary, method)
    for method in ("GET", "POST"):
        _add_scoped("label/{label_name}/values", "Values of a label", method)
        _add_public("label/{label_name}/values", "Values of a label", method)


def _endpoint_of(path: str, label_name: str | None) -> str:
    return f"label/{_label_name(label_name)}/values" if label_name is not None else path


def _name(endpoint: str, method: str) -> str:
    short = "label_values" if endpoint.startswith("label/") else endpoint
    return f"prometheus_{short}_{method.lower()}"


def _add_scoped(endpoint: str, summary: str, method: str) -> None:
    if "{label_name}" in endpoint:

        async def handler_label(
            label_name: str,
            request: Request,
            scope: ScopeDep,
            storage: AsyncStorageDep,
            form: FormDep,
        ) -> Response:
            return await _prometheus(request, storage, scope, _endpoint_of("", label_name), form)

        handler: Any = handler_label
    else:

        async def handler_plain(
            request: Request, scope: ScopeDep, storage: AsyncStorageDep, form: FormDep
        ) -> Response:
            return await _prometheus(request, storage, scope, endpoint, form)

        handler = handler_plain
    router.add_api_route(
        f"/prometheus/api/v1/{endpoint}",
        handler,
        methods=[method],
        name=_name(endpoint, method),
        summary=f"Prometheus API: {summary} ({method})",
        description="Prometheus HTTP API, scoped to this workspace. Session or query key.",
        response_class=Response,
    )


def _add_public(endpoint: str, summary: str, method: str) -> None:
    if "{label_name}" in endpoint:

        async def handler_label(
            label_name: str,
            request: Request,
            scope: KeyScopeDep,
            storage: AsyncStorageDep,
            form: FormDep,
        ) -> Response:
            return await _prometheus(request, storage, scope, _endpoint_of("", label_name), form)

        handler: Any = handler_label
    else:

        async def handler_plain(
            request: Request, scope: KeyScopeDep, storage: AsyncStorageDep, form: FormDep
        ) -> Response:
            return await _prometheus(request, storage, scope, endpoint, form)

        handler = handler_plain
    public_router.add_api_route(
        f"/prometheus/api/v1/{endpoint}",
        handler,
        methods=[method],
        name=_name(endpoint, method) + "_by_key",
        summary=f"Prometheus API: {summary} ({method}, key picks the workspace)",
        description="Prometheus HTTP API for Grafana's Prometheus data source: the query key "
        "(Bearer/Token header, Basic password, or ?token=) picks the workspace.",
        response_class=Response,
    )


_register_prometheus()
