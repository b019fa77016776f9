"""The gateway's ASGI application.

Order of work for every write: key → workspace (401/403), Content-Encoding and, for OTLP,
Content-Type (415), body within
the workspace's max_body_bytes (413), validation (400 naming the line), points/s limit
(429 naming it), produce to Kafka and wait for the acknowledgement (503 when it does not
come), then 204.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TypeVar
from urllib.parse import parse_qs

from kafka.errors import KafkaError
from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import (
    ExportMetricsServiceRequest,
)
from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from vigil_ingest import __version__
from vigil_ingest.common.config import Settings
from vigil_ingest.common.errors import (
    BadRequest,
    IngestError,
    RateLimited,
    Retryable,
    UnsupportedMediaType,
)
from vigil_ingest.common.kafka import Batch, Precision, ensure_topics, now_ms
from vigil_ingest.common.logs import setup_logging
from vigil_ingest.gateway.auth import KeyResolver, Principal, extract_key
from vigil_ingest.gateway.body import OFFLOAD_BYTES, content_encoding, read_body
from vigil_ingest.gateway.db import Database
from vigil_ingest.gateway.limits import RateLimiter, SharedRateLimiter
from vigil_ingest.gateway.parse import line as lineproto
from vigil_ingest.gateway.parse import otlp, promrw
from vigil_ingest.gateway.produce import Producer
from vigil_ingest.gateway.usage import UsageRecorder

log = logging.getLogger(__name__)

_PRECISIONS: dict[str, Precision] = {
    "": "ns",
    "n": "ns",
    "ns": "ns",
    "u": "us",
    "us": "us",
    "µ": "us",
    "ms": "ms",
    "s": "s",
}
_CREATE_DB_RE = re.compile(r"^\s*CREATE\s+DATABASE\b", re.IGNORECASE)
_QUERY_BODY_LIMIT = 64 * 1024
_INFLUX_VERSION = "1.8.10"  # what InfluxDB clients see on /ping


def parse_precision(value: str | None) -> Precision:
    """Map an InfluxDB precision parameter to ns|us|ms|s (default ns); 400 otherwise."""
    p = _PRECISIONS.get((value or "").strip())
    if p is None:
        raise BadRequest(f"unsupported precision {value!r}: use ns, us, ms or s")
    return p


def split_lines(body: bytes, max_bytes: int) -> list[bytes]:
    """Cut a line-protocol body at line boundaries into pieces of at most ``max_bytes``
    (a single longer line stays whole)."""
    if len(body) <= max_bytes:
        return [body]
    parts: list[bytes] = []
    start, n = 0, len(body)
    while start < n:
        end = start + max_bytes
        if end >= n:
            parts.append(body[start:])
            break
        cut = body.rfind(b"\n", start, end)
        if cut < start:
            cut = body.find(b"\n", end)
            if cut < 0:
                parts.append(body[start:])
                break
        parts.append(body[start : cut + 1])
        start = cut + 1
    return parts


class _Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter(
            "vigil_gateway_requests",
            "HTTP write requests by endpoint and status code",
            ["endpoint", "code"],
            registry=self.registry,
        )
        self.points = Counter(
            "vigil_gateway_points",
            "Points accepted (acknowledged by Kafka) by format",
            ["format"],
            registry=self.registry,
        )
        self.kafka_seconds = Histogram(
            "vigil_gateway_kafka_ack_seconds",
            "Time from produce to Kafka acknowledgement",
            registry=self.registry,
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
        )


def _error_response(e: IngestError) -> Response:
    body: dict[str, object] = {
        "code": getattr(e, "code", "error"),
        "error": e.message,
        "message": e.message,
    }
    headers: dict[str, str] = {}
    if isinstance(e, RateLimited):
        body["limit"] = e.limit
        headers["Retry-After"] = str(e.retry_after)
    elif isinstance(e, Retryable):
        headers["Retry-After"] = str(e.retry_after)
    return JSONResponse(body, status_code=getattr(e, "status", 500), headers=headers)


class Gateway:
    """Request handlers bound to the gateway's resolver, limiter and producer."""

    def __init__(self, settings: Settings, resolver: KeyResolver, producer: Producer) -> None:
        self.settings = settings
        self.resolver = resolver
        self.producer = producer
        self.usage = UsageRecorder(resolver.execute)
        self.db = Database(settings.psycopg_url)
        self.limiter: SharedRateLimiter | _LocalLimiter = (
            SharedRateLimiter(self.db.fetchone)
            if settings.shared_rate_limit
            else _LocalLimiter(RateLimiter())
        )
        self._retention_ms = settings.retention_ms
        self.metrics = _Metrics()

    def _bounds(self, principal: Principal, precision: str) -> lineproto.TimeBounds:
        """The timestamps to take now: storage's window, or the workspace's retention when
        that is shorter (its queries would never show older points)."""
        workspace_ms = principal.retention_days * 86_400_000
        if 0 < workspace_ms < self._retention_ms:
            retention_ms = workspace_ms
            days = principal.retention_days
            retention = f"{days} day{'' if days == 1 else 's'}, the workspace's retention"
        else:
            retention_ms, retention = self._retention_ms, self.settings.retention
        return lineproto.TimeBounds.around(
            now_ms(), precision=precision, retention_ms=retention_ms, retention=retention
        )

    async def _principal(self, request: Request) -> Principal:
        key = extract_key(request.headers, request.query_params)
        return await self.resolver.resolve(key)

    async def _line(self, request: Request, precision: str | None) -> Response:
        principal = await self._principal(request)
        p = parse_precision(precision)
        enc = content_encoding(request.headers, allowed=("", "gzip", "x-gzip"))
        body = await read_body(
            request.headers, request.stream(), limit=principal.max_body_bytes, gzip=bool(enc)
        )
        # a workspace over its limit is refused before its batch costs any validation
        self.limiter.check(principal.workspace_id)
        bounds = self._bounds(principal, p)
        points = await _offload(len(body), lineproto.count_points, body, bounds)
        if points == 0:
            return Response(status_code=204)
        await self.limiter.take(
            principal.workspace_id, points, rate=principal.points_per_second, burst=principal.burst
        )
        received = now_ms()
        parts = split_lines(body, self.settings.kafka_max_record_bytes)
        batches = [
            Batch(
                workspace=principal.workspace_id,
                format="line",
                value=part,
                points=points if len(parts) == 1 else lineproto.count_points(part),
                received_at_ms=received,
                precision=p,
                max_active_series=principal.active_series,
            )
            for part in parts
        ]
        await self._produce(batches, "line", points)
        return Response(status_code=204)

    async def _produce(self, batches: list[Batch], fmt: str, points: int) -> None:
        t0 = time.perf_counter()
        await self.producer.send(batches)
        self.metrics.kafka_seconds.observe(time.perf_counter() - t0)
        self.metrics.points.labels(fmt).inc(points)
        self.usage.add(batches[0].workspace, points)

    async def write_metric(self, request: Request) -> Response:
        """POST /v1/write/metric?precision= (DataKit's path)."""
        return await self._line(request, request.query_params.get("precision"))

    async def write_v1(self, request: Request) -> Response:
        """POST /write?db=&precision= (InfluxDB 1.x; the key may be the password p=)."""
        return await self._line(request, request.query_params.get("precision"))

    async def write_v2(self, request: Request) -> Response:
        """POST /api/v2/write?org=&bucket=&precision= (InfluxDB 2.x)."""
        return await self._line(request, request.query_params.get("precision"))

    async def write_promrw(self, request: Request) -> Response:
        """POST /api/v1/write: Prometheus remote_write 1.0 (snappy protobuf)."""
        principal = await self._principal(request)
        content_encoding(request.headers, allowed=("", "snappy"))
        ctype = request.headers.get("content-type", "application/x-protobuf").lower()
        if "proto=io.prometheus.write.v2" in ctype:
            raise UnsupportedMediaType("remote_write 2.0 is not supported; send remote_write 1.0")
        body = await read_body(
            request.headers, request.stream(), limit=principal.max_body_bytes, gzip=False
        )
        if not body:
            raise BadRequest("empty remote_write body")
        self.limiter.check(principal.workspace_id)
        bounds = self._bounds(principal, "ms")
        samples = await _offload(len(body), _count_promrw, body, principal.max_body_bytes, bounds)
        if samples == 0:
            return Response(status_code=204)
        await self.limiter.take(
            principal.workspace_id, samples, rate=principal.points_per_second, burst=principal.burst
        )
        batch = Batch(
            workspace=principal.workspace_id,
            format="promrw",
            value=body,
            points=samples,
            received_at_ms=now_ms(),
            max_active_series=principal.active_series,
        )
        await self._produce([batch], "promrw", samples)
        return Response(status_code=204)

    async def write_otlp(self, request: Request) -> Response:
        """POST /v1/metrics: OpenTelemetry metrics over OTLP/HTTP (protobuf or JSON, gzip).
        200 with an ExportMetricsServiceResponse, carrying partial_success when some data
        points were refused; 400 when none is left."""
        principal = await self._principal(request)
        enc = content_encoding(request.headers, allowed=("", "gzip", "x-gzip"))
        encoding = otlp.encoding_of(request.headers.get("content-type"))
        body = await read_body(
            request.headers, request.stream(), limit=principal.max_body_bytes, gzip=bool(enc)
        )
        self.limiter.check(principal.workspace_id)
        req, checked = await _offload(
            len(body), _decode_otlp, body, encoding, self._bounds(principal, "ns")
        )
        if checked.accepted == 0:
            if checked.rejected:
                raise BadRequest(
                    f"{checked.first_error} ({checked.rejected} data points refused, none left)"
                )
            return self._otlp_answer(encoding)
        await self.limiter.take(
            principal.workspace_id,
            checked.accepted,
            rate=principal.points_per_second,
            burst=principal.burst,
        )
        max_bytes = self.settings.kafka_max_record_bytes
        if encoding == "protobuf" and not checked.changed and len(body) <= max_bytes:
            parts = [(body, checked.accepted)]
        else:
            parts = otlp.split(req, max_bytes)
        received = now_ms()
        batches = [
            Batch(
                workspace=principal.workspace_id,
                format="otlp",
                value=value,
                points=points,
                received_at_ms=received,
                max_active_series=principal.active_series,
            )
            for value, points in parts
        ]
        await self._produce(batches, "otlp", checked.accepted)
        if checked.rejected:
            return self._otlp_answer(
                encoding,
                checked.rejected,
                f"{checked.rejected} data points refused; the first: {checked.first_error}",
            )
        return self._otlp_answer(encoding)

    @staticmethod
    def _otlp_answer(encoding: otlp.Encoding, rejected: int = 0, message: str = "") -> Response:
        media = otlp.JSON if encoding == "json" else otlp.PROTOBUF
        return Response(otlp.response(encoding, rejected, message), media_type=media)

    async def query(self, request: Request) -> Response:
        """GET|POST /query: InfluxDB 1.x clients (Telegraf) create their database first;
        answer CREATE DATABASE harmlessly, refuse anything else."""
        await self._principal(request)
        q = request.query_params.get("q", "")
        if not q and request.method == "POST":
            raw = await read_body(
                request.headers, request.stream(), limit=_QUERY_BODY_LIMIT, gzip=False
            )
            q = parse_qs(raw.decode(errors="replace")).get("q", [""])[0]
        if _CREATE_DB_RE.match(q):
            return JSONResponse({"results": [{"statement_id": 0}]})
        raise BadRequest(
            "the ingest gateway only answers CREATE DATABASE; query data through the "
            "Vigil API (POST /v1/query/raw or the Prometheus API)"
        )

    async def ping(self, request: Request) -> Response:
        """GET|HEAD /ping, as InfluxDB answers it."""
        return Response(
            status_code=204,
            headers={
                "X-Influxdb-Version": _INFLUX_VERSION,
                "X-Influxdb-Build": "OSS",
            },
        )

    def _internal(self, request: Request) -> bool:
        """Whether the request carries the internal token (``Authorization: Bearer``)."""
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            return False
        try:
            expected = self.settings.storage_token
        except RuntimeError:  # no internal token configured: nobody has it
            return False
        return hmac.compare_digest(token.strip().encode(), expected.encode())

    async def health(self, request: Request) -> Response:
        """GET /health: ok (200) when the Kafka producer is connected, else degraded (503).
        Its version and Kafka's address only for the internal token."""
        ok = await asyncio.to_thread(self.producer.connected)
        body: dict[str, object] = {"status": "ok" if ok else "degraded"}
        if self._internal(request):
            body["version"] = __version__
            body["kafka"] = {"ok": ok, "bootstrap": self.settings.kafka_bootstrap}
        return JSONResponse(body, status_code=200 if ok else 503)

    async def metrics_endpoint(self, request: Request) -> Response:
        """GET /metrics: Prometheus text, for the internal token only."""
        if not self._internal(request):
            return JSONResponse(
                {
                    "code": "unauthorized",
                    "error": "the gateway's metrics need the internal token "
                    "(Authorization: Bearer <VIGIL_INTERNAL_TOKEN>)",
                },
                status_code=401,
                headers={"WWW-Authenticate": "Bearer"},
            )
        return Response(generate_latest(self.metrics.registry), media_type=CONTENT_TYPE_LATEST)


Handler = Callable[[Request], Awaitable[Response]]

_T = TypeVar("_T")


async def _offload(size: int, fn: Callable[..., _T], *args: object) -> _T:
    """Run CPU-heavy validation of a large body on a worker thread: the event loop keeps
    answering other writes (and health checks) meanwhile."""
    if size > OFFLOAD_BYTES:
        return await asyncio.to_thread(fn, *args)
    return fn(*args)


def _count_promrw(body: bytes, max_bytes: int, bounds: lineproto.TimeBounds) -> int:
    return promrw.count_samples(promrw.decompress(body, max_bytes), bounds)


def _decode_otlp(
    body: bytes, encoding: otlp.Encoding, bounds: lineproto.TimeBounds
) -> tuple[ExportMetricsServiceRequest, otlp.Checked]:
    req = otlp.decode(body, encoding)
    return req, otlp.check(req, bounds)


class _LocalLimiter:
    """The per-process bucket behind the shared limiter's interface
    (``VIGIL_SHARED_RATE_LIMIT=false``)."""

    def __init__(self, limiter: RateLimiter) -> None:
        self._limiter = limiter

    def check(self, workspace: str) -> None:
        pass

    async def take(self, workspace: str, points: int, *, rate: float, burst: float) -> None:
        self._limiter.take(workspace, points, rate=rate, burst=burst)


def create_app(settings: Settings | None = None) -> Starlette:
    """Build the gateway application (uvicorn ``--factory`` entry point)."""
    settings = settings or Settings()
    setup_logging(settings.log_format)  # again in each worker process of VIGIL_GATEWAY_WORKERS
    resolver = KeyResolver(
        settings.psycopg_url,
        ttl_s=settings.auth_cache_seconds,
        retry_after_s=settings.retry_after_seconds,
    )
    producer = Producer(settings)
    gw = Gateway(settings, resolver, producer)

    def wrap(endpoint: str, handler: Handler) -> Handler:
        async def run(request: Request) -> Response:
            try:
                response = await handler(request)
            except IngestError as e:
                response = _error_response(e)
            gw.metrics.requests.labels(endpoint, str(response.status_code)).inc()
            return response

        return run

    async def connect_kafka() -> None:
        """Connect the producer and create missing topics, retrying until Kafka answers;
        meanwhile writes get 503 and agents keep their data."""
        while not await asyncio.to_thread(producer.connect):
            await asyncio.sleep(2)
        while True:
            try:
                await asyncio.to_thread(
                    ensure_topics, settings.kafka_servers, settings.kafka_partitions
                )
                return
            except KafkaError as e:
                log.warning("could not check kafka topics: %r", e)
                await asyncio.sleep(5)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        task = asyncio.create_task(connect_kafka())
        usage = asyncio.create_task(gw.usage.run(settings.usage_flush_seconds))
        yield
        task.cancel()
        usage.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await usage  # its last flush
        await resolver.close()
        await gw.db.close()
        await asyncio.to_thread(producer.close)

    routes = [
        Route("/v1/write/metric", wrap("/v1/write/metric", gw.write_metric), methods=["POST"]),
        Route("/write", wrap("/write", gw.write_v1), methods=["POST"]),
        Route("/api/v2/write", wrap("/api/v2/write", gw.write_v2), methods=["POST"]),
        Route("/api/v1/write", wrap("/api/v1/write", gw.write_promrw), methods=["POST"]),
        Route("/v1/metrics", wrap("/v1/metrics", gw.write_otlp), methods=["POST"]),
        Route("/query", wrap("/query", gw.query), methods=["GET", "POST"]),
        Route("/ping", gw.ping, methods=["GET", "HEAD"]),
        Route("/health", gw.health, methods=["GET"]),
        Route("/metrics", gw.metrics_endpoint, methods=["GET"]),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.gateway = gw
    return app
