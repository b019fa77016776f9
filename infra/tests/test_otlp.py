"""OpenTelemetry metrics in: the real OpenTelemetry Python SDK and its OTLP/HTTP exporter
push to the gateway's /v1/metrics; the points come back through DQL and PromQL.

- gauges, sums (a delta counter and a cumulative up-down counter), a classic histogram and an
  exponential histogram from the SDK (protobuf, gzip), resource attributes as tags;
- a summary in OTLP's JSON encoding (the SDK makes no summaries), which the gateway turns into
  protobuf;
- partial success: a data point with the reserved tenant label is refused by name while the
  rest of the request is stored.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from opentelemetry.exporter.otlp.proto.http import Compression
from opentelemetry.exporter.otlp.proto.http.metric_exporter import OTLPMetricExporter
from opentelemetry.sdk.metrics import Counter, MeterProvider
from opentelemetry.sdk.metrics.export import (
    AggregationTemporality,
    MetricExportResult,
    PeriodicExportingMetricReader,
)
from opentelemetry.sdk.metrics.view import ExponentialBucketHistogramAggregation, View
from opentelemetry.sdk.resources import Resource

import stack
from stack import GATEWAY, INGEST_KEY, needs_stack, poll

pytestmark = needs_stack

SERVICE = f"otlp-{uuid.uuid4().hex[:10]}"


@pytest.fixture(scope="module")
def exported() -> Iterator[None]:
    """One export from the SDK, as an application configured by OTEL_EXPORTER_OTLP_* does."""
    exporter = OTLPMetricExporter(
        endpoint=f"{GATEWAY}/v1/metrics",
        headers={"Authorization": f"Token {INGEST_KEY}"},
        compression=Compression.Gzip,
        preferred_temporality={Counter: AggregationTemporality.DELTA},
    )
    results: list[MetricExportResult] = []
    export = exporter.export

    def recording(*args: Any, **kwargs: Any) -> MetricExportResult:
        results.append(export(*args, **kwargs))
        return results[-1]

    exporter.export = recording  # type: ignore[method-assign]
    reader = PeriodicExportingMetricReader(exporter, export_interval_millis=3_600_000)
    provider = MeterProvider(
        resource=Resource.create({"service.name": SERVICE, "deployment.environment": "test"}),
        metric_readers=[reader],
        views=[
            View(instrument_name="otel.sizes", aggregation=ExponentialBucketHistogramAggregation())
        ],
    )
    meter = provider.get_meter("vigil.tests", "1.0")
    meter.create_counter("otel.orders").add(5, {"shop": "a"})
    meter.create_up_down_counter("otel.queue").add(7)
    meter.create_gauge("otel.temperature").set(21.5, {"room": "lab"})
    latency = meter.create_histogram("otel.latency", unit="ms")
    for v in (3, 30, 300):
        latency.record(v)
    sizes = meter.create_histogram("otel.sizes")
    for v in (2, 3, 5):
        sizes.record(v)
    assert provider.force_flush(timeout_millis=15_000)
    assert results == [MetricExportResult.SUCCESS]
    yield
    provider.shutdown()


def last(query: str) -> dict[str, float]:
    """The last value of each series a DQL query answers, by its tag set."""
    out = {}
    for s in stack.dql_series(query):
        out[json.dumps(s.get("tags") or {}, sort_keys=True)] = s["values"][-1][1]
    return out


def prom_result(query: str) -> list[dict[str, Any]]:
    """The instant PromQL answer once it has series: an instant query looks back from
    `-search.latencyOffset` before now, so a point written within that second is not yet in it."""
    return poll(lambda: stack.prom_query(query)["data"]["result"] or None, timeout=45, what=query)


def dql_value(measurement: str, field: str, where: str = "", by: str = "") -> Any:
    flt = f"{{`service.name`='{SERVICE}'{', ' + where if where else ''}}}"
    q = f"M::`{measurement}`:(last({field})) {flt} [15m]{' BY ' + by if by else ''}"
    return poll(lambda: last(q) or None, timeout=45, what=q)


def test_sdk_gauge_and_sums_read_back_through_dql(exported) -> None:
    assert dql_value("otel.temperature", "value", by="room") == {'{"room": "lab"}': 21.5}
    # a delta counter's point is the increase over its interval; cumulative keeps the total
    assert dql_value("otel.orders", "value", "shop='a'") == {"{}": 5}
    assert dql_value("otel.queue", "value") == {"{}": 7}
    # resource attributes and the scope are tags
    tags = dql_value("otel.queue", "value", by="`deployment.environment`, `scope.name`")
    assert tags == {'{"deployment.environment": "test", "scope.name": "vigil.tests"}': 7}


def test_sdk_histograms_read_back_through_dql_and_promql(exported) -> None:
    assert dql_value("otel.latency", "count") == {"{}": 3}
    assert dql_value("otel.latency", "sum") == {"{}": 333}
    buckets = dql_value("otel.latency", "bucket", "le='+Inf'")
    assert buckets == {"{}": 3}
    # exponential histogram: count, sum and vmrange buckets
    assert dql_value("otel.sizes", "count") == {"{}": 3}
    [total] = prom_result(f'sum(otel.sizes_bucket{{service.name="{SERVICE}"}})')
    assert float(total["value"][1]) == 3
    [median] = prom_result(
        f'histogram_quantile(0.5, sum(otel.latency_bucket{{service.name="{SERVICE}"}}) by (le))'
    )
    assert 10 <= float(median["value"][1]) <= 50  # the middle value, 30
    [series] = prom_result(f'otel.orders{{service.name="{SERVICE}", shop="a"}}')
    assert series["metric"]["scope.version"] == "1.0"
    assert float(series["value"][1]) == 5


def _json_export(body: dict[str, Any]) -> httpx.Response:
    return httpx.post(
        f"{GATEWAY}/v1/metrics",
        content=json.dumps(body),
        headers={"Authorization": f"Bearer {INGEST_KEY}", "Content-Type": "application/json"},
        timeout=15,
    )


def _resource(*metrics: dict[str, Any]) -> dict[str, Any]:
    return {
        "resourceMetrics": [
            {
                "resource": {
                    "attributes": [{"key": "service.name", "value": {"stringValue": SERVICE}}]
                },
                "scopeMetrics": [{"metrics": list(metrics)}],
            }
        ]
    }


def test_json_summary_and_partial_success() -> None:
    now = str(time.time_ns())
    summary = {
        "name": "otel.rpc",
        "summary": {
            "dataPoints": [
                {
                    "timeUnixNano": now,
                    "count": "4",
                    "sum": 10,
                    "quantileValues": [{"quantile": 0.5, "value": 2}, {"quantile": 1, "value": 4}],
                }
            ]
        },
    }
    bad = {
        "name": "otel.sneaky",
        "gauge": {
            "dataPoints": [
                {
                    "timeUnixNano": now,
                    "asDouble": 1,
                    "attributes": [{"key": "vigil_workspace", "value": {"stringValue": "other"}}],
                }
            ]
        },
    }
    r = _json_export(_resource(summary, bad))
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "application/json"
    assert r.json() == {
        "partialSuccess": {
            "rejectedDataPoints": "1",
            "errorMessage": "1 data points refused; the first: metric 'otel.sneaky': attribute "
            "'vigil_workspace' is reserved (vigil_workspace, vm_account_id, vm_project_id and "
            "names starting with __ are set by Vigil)",
        }
    }
    assert dql_value("otel.rpc", "count") == {"{}": 4}
    assert dql_value("otel.rpc", "value", by="quantile") == {
        '{"quantile": "0.5"}': 2,
        '{"quantile": "1"}': 4,
    }
    # nothing of the refused point arrived
    assert not stack.dql_series("M::`otel.sneaky`:(last(value)) [15m]")
    # only bad points: 400 naming the problem
    r = _json_export(_resource(bad))
    assert r.status_code == 400
    assert r.json()["error"].startswith("metric 'otel.sneaky': attribute 'vigil_workspace' is")
