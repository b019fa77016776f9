"""The backend's Prometheus metrics (the default registry of prometheus_client, as
vigil-alerting's), served at ``GET /metrics``.

Requests are counted by route template (``/api/v1/workspaces/{workspace_id}/dashboards``),
never by the path a client sent, so the number of series stays bounded.
"""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client import REGISTRY, Counter, Histogram
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

_LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)

HTTP_REQUESTS = Counter(
    "vigil_backend_http_requests_total",
    "HTTP requests answered, by method, route template and status code",
    ["method", "route", "status"],
)
HTTP_SECONDS = Histogram(
    "vigil_backend_http_request_duration_seconds",
    "Time to answer an HTTP request (to the last byte), by method and route template",
    ["method", "route"],
    buckets=_LATENCY_BUCKETS,
)
STORAGE_SECONDS = Histogram(
    "vigil_backend_storage_request_duration_seconds",
    "Time vigil-storage took to answer a query, by operation and status code "
    '("error" when it did not answer)',
    ["operation", "status"],
    buckets=_LATENCY_BUCKETS,
)


_POOL_GAUGES = {
    "size": "Connections the pool keeps open",
    "checked_out": "Connections in use by a request or a job",
    "checked_in": "Idle connections in the pool",
    "overflow": "Connections opened beyond the pool's size",
}


class _PoolCollector(Collector):
    """The SQLAlchemy connection pool, read when scraped (never at import: the engine and
    the settings it is built from come to exist only when first used)."""

    def describe(self) -> Iterator[GaugeMetricFamily]:
        for name, doc in _POOL_GAUGES.items():
            yield GaugeMetricFamily(f"vigil_backend_db_pool_{name}", doc)

    def collect(self) -> Iterator[GaugeMetricFamily]:
        from sqlalchemy.pool import QueuePool

        from app.core.db import get_engine

        pool = get_engine().pool
        if not isinstance(pool, QueuePool):
            return
        values = {
            "size": pool.size(),
            "checked_out": pool.checkedout(),
            "checked_in": pool.checkedin(),
            "overflow": max(pool.overflow(), 0),
        }
        for name, doc in _POOL_GAUGES.items():
            yield GaugeMetricFamily(f"vigil_backend_db_pool_{name}", doc, value=values[name])


REGISTRY.register(_PoolCollector())
