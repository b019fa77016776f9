"""The query API: DQL ``query/raw`` and the Prometheus-compatible read API.

Two entry points for each: under ``/api/v1/workspaces/{workspace_id}/…`` (a session, or a
query key or service token of that workspace) and at the root (``/v1/query/raw``,
``/prometheus/api/v1/…``), where the query key (or a bearer service token) alone picks the
workspace. Storage's status and body pass through as-is,
with its ``Retry-After`` when it answers 429 (the workspace's queue of queries is full).

The handlers are coroutines: what needs the database (who asks, the workspace's limits, the
query count) runs in a dependency on a worker thread, which gives its database connection
back before the query is sent; storage is then awaited on the event loop. A flood of slow
queries therefore holds neither worker threads nor database connections, and login and the
UI keep theirs.
"""

from __future__ import annotations

import gzip
import json
import re
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any
from urllib.parse import parse_qsl

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import JSONResponse
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from app.api.deps import (
    INVALID_KEY,
    AsyncStorageDep,
    BearerDep,
    authenticate_key,
    get_key_scopes,
    get_query_queue,
    request_credential,
    workspace_context,
)
from app.clients.storage import AsyncStorageClient, QueryLimits, StorageResponse
from app.core.db import get_sessionmaker
from app.core.encoding import accepts
from app.core.errors import BadRequest, Unauthorized
from app.core.keys import looks_like_key
from app.core.permissions import Permission
from app.schemas.common import ERROR_RESPONSES, ErrorPublic
from app.schemas.query import DqlError, DqlRequest, DqlResponse, PrometheusError
from app.services import key_scopes, limits, prometheus_rules, query, workspaces
from app.services.key_scopes import KeyScopeCache

router = APIRouter(prefix="/workspaces/{workspace_id}", tags=["query"], responses=ERROR_RESPONSES)
public_router = APIRouter(tags=["query"], responses=ERROR_RESPONSES)


DQL_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: {"model": DqlError, "description": "DQL error (error_code dql.*), from storage"},
    504: {"model": DqlError, "description": "dql.timeout"},
    502: {"model": ErrorPublic, "description": "Storage unreachable"},
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
    """The workspace of the request's query key (or service token)."""
    credential = request_credential(request)
    if credential is None:
        raise Unauthorized("Not authenticated: send a query key as Authorization: Token <key>")
    if not looks_like_key(credential.value):
        raise Unauthorized(INVALID_KEY, code="invalid_key")
    key = authenticate_key(db, request, credential, Permission.QUERY)
    workspace = workspaces.get_active(db, workspace_id=key.workspace_id)
    if workspace is None:
        raise Unauthorized(INVALID_KEY, code="invalid_key")
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


def _resolve_key_scope(request: Request) -> QueryScope:
    with get_sessionmaker()() as db:
        workspace_id = _key_workspace(request, db)
        return QueryScope(workspace_id, query.prepare(db, workspace_id=workspace_id))


def _flush_query_counts() -> None:
    with get_sessionmaker()() as db:
        limits.query_counter.flush(db)


async def _key_scope(request: Request, _: BearerDep) -> QueryScope:
    """The key's scope, from the process's second-long memory of it when it holds the key
    (``key_scopes``): then the query is counted without a thread or a round trip."""
    cache: KeyScopeCache[QueryScope] = get_key_scopes(request)
    credential = request_credential(request)
    key = key_scopes.credential_key(credential.how, credential.value) if credential else None
    scope = cache.get(key) if key else None
    if scope is not None:
        if limits.query_counter.count(workspace_id=scope.workspace_id):
            await run_in_threadpool(_flush_query_counts)
        return scope
    resolved_in = key_scopes.generation()
    scope = await run_in_threadpool(_resolve_key_scope, request)
    if key:
        cache.put(key, scope, resolved_in)
    return scope


ScopeDep = Annotated[QueryScope, Depends(_scope)]
KeyScopeDep = Annotated[QueryScope, Depends(_key_scope)]


@router.post("/query/raw", response_model=DqlResponse, responses=DQL_RESPONSES)
async def query_raw(
    body: DqlRequest, request: Request, scope: ScopeDep, storage: AsyncStorageDep
) -> Response:
    """Run DQL in this workspace (DQL.md §2)."""
    answer = await query.query_raw_async(
        workspace_id=scope.workspace_id,
        body=_dql_body(body),
        limits=scope.limits,
        storage=storage,
        queue=get_query_queue(request),
    )
    return _response(answer, request)


@public_router.post("/v1/query/raw", response_model=DqlResponse, responses=DQL_RESPONSES)
async def query_raw_by_key(
    body: DqlRequest, request: Request, scope: KeyScopeDep, storage: AsyncStorageDep
) -> Response:
    """Run DQL in the workspace of the query key (``Authorization: Bearer|Token <key>`` or
    ``?token=``) — DataKit/Guance compatible."""
    answer = await query.query_raw_async(
        workspace_id=scope.workspace_id,
        body=_dql_body(body),
        limits=scope.limits,
        storage=storage,
        queue=get_query_queue(request),
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
        queue=get_query_queue(request),
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


# The Prometheus HTTP API. Every endpoint exists twice: under the workspace's path (a session
# or a query key of that workspace; ``_scope`` / ``_workspace`` check the permission) and at
# the root, where the query key picks the workspace. Endpoints that ask storage count as a
# query and carry the workspace's limits; the others (rules, alerts, build information) only
# need to know the workspace.

PROM_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"model": PrometheusError, "description": description}
    for status, description in {
        400: "bad_data: a parameter or the query is wrong",
        401: "unauthorized: missing or invalid credentials",
        403: "forbidden: the role or key scope does not allow this",
        404: "not_found: no such workspace (or not a member)",
        422: "execution or limit_exceeded, from storage",
        429: "limit_exceeded: the workspace's queue of queries is full",
        502: "unavailable: storage unreachable",
        503: "timeout or unavailable",
    }.items()
}
# The Prometheus API level these endpoints follow, reported by status/buildinfo: Grafana
# picks the requests it sends by it.
PROMETHEUS_VERSION = "2.53.0"

Form = list[tuple[str, str]] | None
ProxyBody = Callable[
    [Request, QueryScope, AsyncStorageClient, Form, str | None], Awaitable[Response]
]
LocalBody = Callable[[Request, uuid.UUID, Form], Awaitable[Response]]


def _workspace(workspace_id: uuid.UUID, request: Request, _: BearerDep) -> uuid.UUID:
    with get_sessionmaker()() as db:
        return workspace_context(db, request, workspace_id, Permission.QUERY).id


_workspace.permission = Permission.QUERY  # type: ignore[attr-defined]


def _key_workspace_only(request: Request, _: BearerDep) -> uuid.UUID:
    with get_sessionmaker()() as db:
        return _key_workspace(request, db)


def _args(request: Request, form: Form) -> list[tuple[str, str]]:
    """The request's parameters, URL and form body together, without the key."""
    return [(k, v) for k, v in request.query_params.multi_items() if k != "token"] + (form or [])


def _success(data: Any) -> JSONResponse:
    return JSONResponse({"status": "success", "data": data})


def _bad(name: str, reason: str) -> BadRequest:
    return BadRequest(f"invalid parameter {_quoted(name)}: {reason}", code="bad_data")


def _quoted(value: str) -> str:
    """``value`` (its first 64 characters) in double quotes, as Prometheus' messages quote."""
    return json.dumps(value[:64], ensure_ascii=False)


def _last(args: list[tuple[str, str]], name: str) -> str | None:
    values = [v for k, v in args if k == name]
    return values[-1] if values else None


def _int_arg(args: list[tuple[str, str]], name: str) -> int | None:
    value = _last(args, name)
    if value is None or value == "":
        return None
    try:
        return int(value)
    except ValueError:
        raise _bad(name, f"{_quoted(value)} is not a number") from None


def _check_time(args: list[tuple[str, str]], name: str) -> None:
    """A time as Prometheus takes it: Unix seconds (with a fraction) or RFC 3339."""
    value = _last(args, name)
    if value is None or value == "":
        return
    try:
        float(value)
        return
    except ValueError:
        pass
    try:
        datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise _bad(name, f"cannot parse {_quoted(value)} to a valid timestamp") from None


async def _proxy(
    request: Request, scope: QueryScope, storage: AsyncStorageClient, form: Form, label: str | None
) -> Response:
    endpoint = request.url.path.rsplit("/api/v1/", 1)[1]
    return await _prometheus(request, storage, scope, _endpoint_of(endpoint, label), form)


async def _metadata(
    request: Request, scope: QueryScope, storage: AsyncStorageClient, form: Form, _: str | None
) -> Response:
    """The workspace's metric names, each of type ``unknown``: no agent path carries metric
    types, help or units to Vigil, and Prometheus answers ``unknown`` for a metric without."""
    args = _args(request, form)
    limit = _int_arg(args, "limit")
    _int_arg(args, "limit_per_metric")
    metric = _last(args, "metric")
    answer = await query.prometheus_async(
        workspace_id=scope.workspace_id,
        limits=scope.limits,
        storage=storage,
        queue=get_query_queue(request),
        method="GET",
        endpoint="label/__name__/values",
        params=[],
        form=None,
    )
    if answer.status_code != 200:
        return _response(answer, request)
    content = answer.content
    if answer.content_encoding == "gzip":
        content = gzip.decompress(content)
    names = [n for n in json.loads(content).get("data") or [] if metric in (None, "", n)]
    if limit is not None and limit >= 0:
        names = names[:limit]
    return _success({n: [{"type": "unknown", "help": "", "unit": ""}] for n in names})


async def _buildinfo(request: Request, workspace_id: uuid.UUID, form: Form) -> Response:
    return _success(
        {
            "version": PROMETHEUS_VERSION,
            "revision": f"vigil-{request.app.version}",
            "branch": "",
            "buildUser": "",
            "buildDate": "",
            "goVersion": "",
        }
    )


async def _exemplars(request: Request, workspace_id: uuid.UUID, form: Form) -> Response:
    """No agent path carries exemplars to Vigil: the answer is always empty, after the
    parameters were checked as Prometheus checks them."""
    args = _args(request, form)
    if not _last(args, "query"):
        raise BadRequest("missing `query` parameter", code="bad_data")
    for name in ("start", "end"):
        _check_time(args, name)
    return _success([])


UNSUPPORTED_RULE_ARGS = ("match[]", "group_limit", "group_next_token")


def _rule_filter(args: list[tuple[str, str]]) -> prometheus_rules.RuleFilter:
    kind = (_last(args, "type") or "").lower()
    if kind not in ("", "alert", "record"):
        raise _bad("type", f"not supported value {_quoted(kind)}")
    exclude = (_last(args, "exclude_alerts") or "false").lower()
    if exclude not in ("true", "false", "1", "0"):
        raise _bad("exclude_alerts", f"{_quoted(exclude)} is not a boolean")
    for name in UNSUPPORTED_RULE_ARGS:
        if _last(args, name) is not None:
            raise _bad(name, "not supported by Vigil")
    return prometheus_rules.RuleFilter(
        type=kind,
        rule_names={v for k, v in args if k == "rule_name[]"},
        groups={v for k, v in args if k == "rule_group[]"},
        files={v for k, v in args if k == "file[]"},
        exclude_alerts=exclude in ("true", "1"),
    )


def _read(work: Callable[[Session], dict[str, Any]]) -> dict[str, Any]:
    with get_sessionmaker()() as db:
        return work(db)


async def _rules(request: Request, workspace_id: uuid.UUID, form: Form) -> Response:
    filters = _rule_filter(_args(request, form))
    data = await run_in_threadpool(
        _read,
        lambda db: prometheus_rules.rules(db, workspace_id=workspace_id, filters=filters),
    )
    return _success(data)


async def _alerts(request: Request, workspace_id: uuid.UUID, form: Form) -> Response:
    data = await run_in_threadpool(
        _read, lambda db: prometheus_rules.alerts(db, workspace_id=workspace_id)
    )
    return _success(data)


def _endpoint_of(path: str, label_name: str | None) -> str:
    return f"label/{_label_name(label_name)}/values" if label_name is not None else path


def _proxy_handler(
    body: ProxyBody, dep: Callable[..., QueryScope | Awaitable[QueryScope]], label: bool
) -> Any:
    # a default, not Annotated: the annotations are strings, resolved in the module's globals
    asker = Depends(dep)
    if label:

        async def with_label(
            label_name: str,
            request: Request,
            storage: AsyncStorageDep,
            form: FormDep,
            scope: QueryScope = asker,
        ) -> Response:
            return await body(request, scope, storage, form, label_name)

        return with_label

    async def plain(
        request: Request, storage: AsyncStorageDep, form: FormDep, scope: QueryScope = asker
    ) -> Response:
        return await body(request, scope, storage, form, None)

    return plain


def _local_handler(body: LocalBody, dep: Callable[..., uuid.UUID]) -> Any:
    asker = Depends(dep)

    async def local(request: Request, form: FormDep, asked: uuid.UUID = asker) -> Response:
        return await body(request, asked, form)

    return local


def _add(
    endpoint: str,
    summary: str,
    methods: tuple[str, ...],
    *,
    proxy: ProxyBody | None = None,
    local: LocalBody | None = None,
    selectors: bool = False,
) -> None:
    """Register ``endpoint`` under the workspace's path and at the root, for each method:
    ``proxy`` asks storage (a query, counted, with the workspace's limits), ``local`` answers
    from the backend's own state. ``selectors``: its GET documents ``match[]``, ``start`` and
    ``end``, so typed clients can send them."""
    short = "label_values" if endpoint.startswith("label/") else endpoint.replace("/", "_")
    for public in (False, True):
        if proxy is not None:
            handler = _proxy_handler(
                proxy, _key_scope if public else _scope, "{label_name}" in endpoint
            )
        else:
            assert local is not None
            handler = _local_handler(local, _key_workspace_only if public else _workspace)
        for method in methods:
            (public_router if public else router).add_api_route(
                f"/prometheus/api/v1/{endpoint}",
                handler,
                methods=[method],
                name=f"prometheus_{short}_{method.lower()}" + ("_by_key" if public else ""),
                summary=f"Prometheus API: {summary} ({method}"
                + (", key picks the workspace)" if public else ")"),
                description=(
                    "Prometheus HTTP API for Grafana's Prometheus data source: the query key "
                    "(Bearer/Token header, Basic password, or ?token=) picks the workspace."
                    if public
                    else "Prometheus HTTP API, scoped to this workspace. Session or query key."
                )
                + " Errors: Prometheus' envelope.",
                response_class=Response,
                responses=PROM_RESPONSES,
                openapi_extra=SELECTOR_PARAMETERS if selectors and method == "GET" else None,
            )


BOTH = ("GET", "POST")

SELECTOR_PARAMETERS: dict[str, Any] = {
    "parameters": [
        {
            "name": "match[]",
            "in": "query",
            "required": False,
            "description": "series selectors: only the series they match",
            "schema": {"type": "array", "items": {"type": "string"}},
            "style": "form",
            "explode": True,
        }
    ]
    + [
        {
            "name": name,
            "in": "query",
            "required": False,
            "description": f"{name} of the time range: RFC 3339 or Unix seconds",
            "schema": {"type": "string"},
        }
        for name in ("start", "end")
    ]
}


def _register_prometheus() -> None:
    _add("query", "Instant query", BOTH, proxy=_proxy)
    _add("query_range", "Range query", BOTH, proxy=_proxy)
    _add("series", "Series matching selectors", BOTH, proxy=_proxy, selectors=True)
    _add("labels", "Label names", BOTH, proxy=_proxy, selectors=True)
    _add("label/{label_name}/values", "Values of a label", BOTH, proxy=_proxy, selectors=True)
    _add("format_query", "Format a PromQL expression", BOTH, proxy=_proxy)
    _add("metadata", "Metric metadata", ("GET",), proxy=_metadata)
    _add("query_exemplars", "Exemplars (always none)", BOTH, local=_exemplars)
    _add("status/buildinfo", "Build information", ("GET",), local=_buildinfo)
    _add("rules", "Alerting and recording rules (monitors)", ("GET",), local=_rules)
    _add("alerts", "Active alerts (monitors)", ("GET",), local=_alerts)


_register_prometheus()
