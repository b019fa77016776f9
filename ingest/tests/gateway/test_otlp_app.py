"""POST /v1/metrics (OTLP/HTTP) over HTTP, against a real PostgreSQL (keys) and Kafka."""

from __future__ import annotations

import gzip
import json
import time
from collections.abc import Iterator

import pytest
from google.protobuf import json_format
from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import (
    ExportMetricsServiceRequest,
    ExportMetricsServiceResponse,
)
from starlette.testclient import TestClient

from vigil_ingest.common.config import Settings
from vigil_ingest.common.kafka import HEADER_FORMAT, HEADER_MAX_ACTIVE_SERIES, HEADER_POINTS
from vigil_ingest.gateway.app import create_app

pytestmark = pytest.mark.integration

PROTO = {"Content-Type": "application/x-protobuf"}
JSON = {"Content-Type": "application/json"}


@pytest.fixture(scope="module")
def client(postgres_url: str, kafka_topics: str) -> Iterator[TestClient]:
    settings = Settings(database_url=postgres_url, kafka_bootstrap=kafka_topics)
    with TestClient(create_app(settings)) as c:
        deadline = time.monotonic() + 20
        while c.get("/health").status_code != 200:
            assert time.monotonic() < deadline, "gateway did not connect to Kafka"
            time.sleep(0.1)
        yield c


def export(*points: dict[str, object]) -> dict[str, object]:
    """An ExportMetricsServiceRequest in OTLP JSON: one gauge with ``points``."""
    return {
        "resourceMetrics": [
            {
                "resource": {"attributes": [{"key": "host", "value": {"stringValue": "a"}}]},
                "scopeMetrics": [{"metrics": [{"name": "temp", "gauge": {"dataPoints": list(points)}}]}],
            }
        ]
    }  # fmt: skip


def point(value: float, **attrs: str) -> dict[str, object]:
    return {
        "timeUnixNano": str(time.time_ns()),
        "asDouble": value,
        "attributes": [{"key": k, "value": {"stringValue": v}} for k, v in attrs.items()],
    }


def proto(doc: dict[str, object]) -> bytes:
    return bytes(json_format.ParseDict(doc, ExportMetricsServiceRequest()).SerializeToString())


def test_protobuf_lands_on_kafka_as_received(client, keys, tail_otlp) -> None:
    k = keys.create(active_series=99)
    body = proto(export(point(1), point(2, room="b")))
    r = client.post(
        "/v1/metrics", content=body, headers={"Authorization": f"Token {k.key}", **PROTO}
    )
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "application/x-protobuf"
    assert r.content == b""  # an ExportMetricsServiceResponse without partial_success
    [rec] = tail_otlp.records(k.workspace_id, 1)
    assert rec.value == body
    h = dict(rec.headers)
    assert h[HEADER_FORMAT] == b"otlp"
    assert h[HEADER_POINTS] == b"2"
    assert h[HEADER_MAX_ACTIVE_SERIES] == b"99"


def test_gzip_json_is_stored_as_protobuf(client, keys, tail_otlp) -> None:
    k = keys.create()
    doc = export(point(1.5))
    r = client.post(
        f"/v1/metrics?token={k.key}",
        content=gzip.compress(json.dumps(doc).encode()),
        headers={"Content-Encoding": "gzip", **JSON},
    )
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "application/json"
    assert r.json() == {}
    [rec] = tail_otlp.records(k.workspace_id, 1)
    assert rec.value == proto(doc)


@pytest.mark.parametrize("encoding", ["protobuf", "json"])
def test_partial_success_names_the_refused_points(client, keys, tail_otlp, encoding) -> None:
    k = keys.create()
    doc = export(point(1), point(2, vigil_workspace="other"), point(3, __x="y"))
    hdr = {"Authorization": f"Bearer {k.key}", **(PROTO if encoding == "protobuf" else JSON)}
    body = proto(doc) if encoding == "protobuf" else json.dumps(doc).encode()
    r = client.post("/v1/metrics", content=body, headers=hdr)
    assert r.status_code == 200, r.text
    message = (
        "2 data points refused; the first: metric 'temp': attribute 'vigil_workspace' is "
        "reserved (vigil_workspace, vm_account_id, vm_project_id and names starting with __ "
        "are set by Vigil)"
    )
    if encoding == "protobuf":
        resp = ExportMetricsServiceResponse.FromString(r.content)
        assert resp.partial_success.rejected_data_points == 2
        assert resp.partial_success.error_message == message
    else:
        assert r.json() == {"partialSuccess": {"rejectedDataPoints": "2", "errorMessage": message}}
    [rec] = tail_otlp.records(k.workspace_id, 1)
    kept = ExportMetricsServiceRequest.FromString(rec.value)
    points = kept.resource_metrics[0].scope_metrics[0].metrics[0].gauge.data_points
    assert [p.as_double for p in points] == [1]
    assert dict(rec.headers)[HEADER_POINTS] == b"1"


def test_nothing_left_is_400_naming_the_problem(client, keys) -> None:
    k = keys.create()
    body = proto(export(point(1, vm_project_id="2")))
    r = client.post(
        "/v1/metrics", content=body, headers={"Authorization": f"Token {k.key}", **PROTO}
    )
    assert r.status_code == 400
    assert r.json()["error"] == (
        "metric 'temp': attribute 'vm_project_id' is reserved (vigil_workspace, vm_account_id, "
        "vm_project_id and names starting with __ are set by Vigil) (1 data points refused, "
        "none left)"
    )


def test_empty_export_is_200(client, keys) -> None:
    k = keys.create()
    r = client.post(
        "/v1/metrics", content=b"", headers={"Authorization": f"Token {k.key}", **PROTO}
    )
    assert r.status_code == 200, r.text


@pytest.mark.parametrize(
    ("headers", "body", "status", "message"),
    [
        ({"Content-Type": "text/plain"}, b"x", 415, "unsupported Content-Type 'text/plain': OTLP/HTTP metrics are application/x-protobuf or application/json"),
        ({"Content-Encoding": "zstd", **PROTO}, b"x", 415, "unsupported Content-Encoding 'zstd'"),
        (PROTO, b"\xff\xff\xff", 400, "body is not an OTLP protobuf ExportMetricsServiceRequest"),
        (JSON, b"[1]", 400, "body is not an OTLP JSON ExportMetricsServiceRequest"),
        (PROTO, b"\x0a" * 2000, 413, "max_body_bytes (1000 bytes)"),
    ],
)  # fmt: skip
def test_bad_requests(client, keys, headers, body, status, message) -> None:
    k = keys.create(max_body=1000)
    r = client.post(
        "/v1/metrics", content=body, headers={"Authorization": f"Token {k.key}", **headers}
    )
    assert r.status_code == status, r.text
    assert message in r.json()["error"]


def test_rate_limit_counts_data_points_and_names_the_limit(client, keys) -> None:
    k = keys.create(pps=10, burst=20)
    hdr = {"Authorization": f"Token {k.key}", **PROTO}
    body = proto(export(*(point(i) for i in range(20))))
    assert client.post("/v1/metrics", content=body, headers=hdr).status_code == 200
    r = client.post("/v1/metrics", content=body, headers=hdr)
    assert r.status_code == 429
    assert r.json()["limit"] == "ingest_points_per_second"
    assert "ingest_points_per_second=10" in r.json()["error"]
    assert int(r.headers["Retry-After"]) >= 1


def test_unknown_key_is_401(client) -> None:
    r = client.post(
        "/v1/metrics", content=b"", headers={"Authorization": "Token vgi_nope", **PROTO}
    )
    assert r.status_code == 401
