"""OTLP metrics: decoding (protobuf, JSON), the checks per data point, partial success."""

from __future__ import annotations

import json
import time

import pytest
from google.protobuf import json_format
from hypothesis import given, settings
from hypothesis import strategies as st
from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import (
    ExportMetricsServiceRequest,
    ExportMetricsServiceResponse,
)
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue, KeyValueList

from vigil_ingest.common.errors import BadRequest, UnsupportedMediaType
from vigil_ingest.gateway.parse import otlp
from vigil_ingest.gateway.parse.line import TimeBounds

NOW_NS = time.time_ns()
BOUNDS = TimeBounds.around(
    NOW_NS // 1_000_000, precision="ns", retention_ms=86_400_000, retention="1d"
)
RESERVED = (
    "is reserved (vigil_workspace, vm_account_id, vm_project_id and names starting with __ "
    "are set by Vigil)"
)


def kv(key: str, value: str) -> KeyValue:
    return KeyValue(key=key, value=AnyValue(string_value=value))


def request(*metrics: dict[str, object], resource: list[KeyValue] | None = None):
    """One resource (service.name=checkout unless given) and one scope holding ``metrics``
    (each a Metric in dict form)."""
    req = ExportMetricsServiceRequest()
    rm = req.resource_metrics.add()
    rm.resource.attributes.extend(resource if resource is not None else [kv("service.name", "c")])
    sm = rm.scope_metrics.add()
    sm.scope.name = "shop"
    for m in metrics:
        json_format.ParseDict(m, sm.metrics.add())
    return req


def gauge(name: str, *points: dict[str, object]) -> dict[str, object]:
    return {"name": name, "gauge": {"dataPoints": list(points)}}


def point(value: float = 1.0, ts: int = NOW_NS, **attrs: str) -> dict[str, object]:
    return {
        "timeUnixNano": str(ts),
        "asDouble": value,
        "attributes": [{"key": k, "value": {"stringValue": v}} for k, v in attrs.items()],
    }


@pytest.mark.parametrize(
    ("content_type", "encoding"),
    [
        ("application/x-protobuf", "protobuf"),
        ("application/protobuf", "protobuf"),
        ("application/json", "json"),
        ("application/json; charset=utf-8", "json"),
    ],
)
def test_encoding_of(content_type, encoding) -> None:
    assert otlp.encoding_of(content_type) == encoding


@pytest.mark.parametrize("content_type", [None, "", "text/plain", "application/grpc"])
def test_encoding_of_refuses(content_type) -> None:
    with pytest.raises(UnsupportedMediaType) as e:
        otlp.encoding_of(content_type)
    assert e.value.message == (
        f"unsupported Content-Type {content_type!r}: OTLP/HTTP metrics are "
        "application/x-protobuf or application/json"
    )


def test_decode_protobuf_and_json_agree() -> None:
    req = request(gauge("queue.depth", point(3, queue="orders")))
    assert otlp.decode(req.SerializeToString(), "protobuf") == req
    # OTLP JSON: lowerCamelCase keys, 64-bit integers as strings, unknown fields ignored
    doc = json_format.MessageToDict(req)
    doc["resourceMetrics"][0]["futureField"] = 1
    assert otlp.decode(json.dumps(doc).encode(), "json") == req


@pytest.mark.parametrize(
    ("body", "encoding", "message"),
    [
        (b"\xff\xff", "protobuf", "body is not an OTLP protobuf ExportMetricsServiceRequest: "),
        (b"{", "json", "body is not an OTLP JSON ExportMetricsServiceRequest: "),
        (
            b'{"resourceMetrics": 3}',
            "json",
            "body is not an OTLP JSON ExportMetricsServiceRequest: Failed to parse "
            "resourceMetrics field: repeated field resourceMetrics must be in [] which is 3 at "
            "ExportMetricsServiceRequest.",
        ),
    ],
)
def test_decode_refuses(body, encoding, message) -> None:
    with pytest.raises(BadRequest) as e:
        otlp.decode(body, encoding)
    assert e.value.message.startswith(message)


def test_check_keeps_every_kind() -> None:
    req = request(
        gauge("g", point(1), point(2, host="a")),
        {"name": "s", "sum": {"aggregationTemporality": 1, "isMonotonic": True,
                              "dataPoints": [point(5)]}},
        {"name": "h", "histogram": {"aggregationTemporality": 2, "dataPoints": [
            {"timeUnixNano": str(NOW_NS), "count": "3", "sum": 1.5,
             "bucketCounts": ["1", "2"], "explicitBounds": [1.0]}]}},
        {"name": "e", "exponentialHistogram": {"aggregationTemporality": 2, "dataPoints": [
            {"timeUnixNano": str(NOW_NS), "count": "2", "scale": 0,
             "positive": {"offset": 1, "bucketCounts": ["2"]}}]}},
        {"name": "q", "summary": {"dataPoints": [
            {"timeUnixNano": str(NOW_NS), "count": "2", "sum": 3,
             "quantileValues": [{"quantile": 0.5, "value": 1}]}]}},
    )  # fmt: skip
    before = req.SerializeToString()
    assert otlp.check(req, BOUNDS) == otlp.Checked(6, 0, "", False)
    assert req.SerializeToString() == before


@pytest.mark.parametrize(
    ("metric", "resource", "message"),
    [
        (gauge("m", point(vigil_workspace="other")), None, f"metric 'm': attribute 'vigil_workspace' {RESERVED}"),
        (gauge("m", point()), [kv("__name__", "x")], f"metric 'm': attribute '__name__' {RESERVED}"),
        (gauge("m", point(vm_account_id="1")), None, f"metric 'm': attribute 'vm_account_id' {RESERVED}"),
        (gauge("m", point(k="v" * 4097)), None, "metric 'm': value of attribute 'k' is 4097 bytes long, over the limit of 4096"),
        (gauge("m", point(**{"k" * 257: "v"})), None, f"metric 'm': attribute name '{'k' * 40}…' is 257 bytes long, over the limit of 256"),
        (gauge("m", point(**{f"a{i}": "v" for i in range(61)})), None, "metric 'm': 65 labels (attributes and the metric name) on one series, over the limit of 64"),
        (gauge("m", point(ts=NOW_NS - 2 * 86_400 * 10**9)), None, "metric 'm': timestamp "),
        (gauge("m", point(ts=NOW_NS + 3 * 86_400 * 10**9)), None, "metric 'm': timestamp "),
        (gauge("m" * 4097, point()), None, "metric 'mmmmmmmm"),
        (gauge("", point(), point()), None, "a metric has an empty name (2 data points)"),
        ({"name": "h", "histogram": {"dataPoints": [{"timeUnixNano": str(NOW_NS), "count": "1", "bucketCounts": ["1", "0"]}]}},
         None, "metric 'h': histogram data point has 2 bucket counts for 0 explicit bounds (want one more count than bounds)"),
        ({"name": "h", "histogram": {"dataPoints": [{"timeUnixNano": str(NOW_NS), "count": "1"}]}},
         None, "metric 'h': histogram data point has no bucket counts"),
    ],
)  # fmt: skip
def test_check_refuses_what_storage_would(metric, resource, message) -> None:
    req = request(metric, gauge("ok", point()), resource=resource)
    checked = otlp.check(req, BOUNDS)
    n = 2 if metric["name"] == "" else 1  # the refused metric's data points
    if resource is not None:  # the resource's reserved name spoils the good metric too
        assert (checked.accepted, checked.rejected) == (0, n + 1)
    else:
        assert (checked.accepted, checked.rejected) == (1, n)
    assert checked.first_error.startswith(message), checked.first_error
    assert checked.changed


def test_check_removes_only_the_bad_points() -> None:
    req = request(gauge("m", point(1), point(2, __x="y"), point(3)))
    assert otlp.check(req, BOUNDS) == otlp.Checked(
        2, 1, f"metric 'm': attribute '__x' {RESERVED}", True
    )
    values = [
        p.as_double for p in req.resource_metrics[0].scope_metrics[0].metrics[0].gauge.data_points
    ]
    assert values == [1, 3]


def test_check_flattens_like_the_parser() -> None:
    # nested maps become key.sub, the scope adds scope.name/scope.version/scope.attributes.*,
    # and the innermost value of a name wins (so a data point may not bring 2 more labels)
    nested = KeyValue(
        key="__k8s", value=AnyValue(kvlist_value=KeyValueList(values=[kv("pod", "p")]))
    )
    req = request(gauge("m", point()), resource=[nested])
    assert otlp.check(req, BOUNDS).first_error == f"metric 'm': attribute '__k8s.pod' {RESERVED}"
    attrs = {f"a{i}": "v" for i in range(61)}  # + scope.name + scope.version + __name__ = 64
    req = request(gauge("m", point(**attrs)), resource=[kv("a0", "r")])
    assert otlp.check(req, BOUNDS).rejected == 0


def test_response_partial_success_in_both_encodings() -> None:
    assert otlp.response("protobuf") == b""
    assert json.loads(otlp.response("json")) == {}
    resp = ExportMetricsServiceResponse.FromString(otlp.response("protobuf", 2, "why"))
    assert resp.partial_success.rejected_data_points == 2
    assert resp.partial_success.error_message == "why"
    assert json.loads(otlp.response("json", 2, "why")) == {
        "partialSuccess": {"rejectedDataPoints": "2", "errorMessage": "why"}
    }


def test_split_cuts_between_resources_and_concatenates_back() -> None:
    req = ExportMetricsServiceRequest()
    for i in range(5):
        rm = req.resource_metrics.add()
        rm.resource.attributes.append(kv("host", f"h{i}"))
        json_format.ParseDict(gauge("m", point(1), point(2)), rm.scope_metrics.add().metrics.add())
    size = req.resource_metrics[0].ByteSize() + 5
    parts = otlp.split(req, 2 * size)
    assert [p for _, p in parts] == [4, 4, 2]
    assert all(len(b) <= 2 * size for b, _ in parts)
    assert ExportMetricsServiceRequest.FromString(b"".join(b for b, _ in parts)) == req
    assert otlp.split(req, 10**6) == [(req.SerializeToString(), 10)]


VALID = request(gauge("g", point(1, host="a"))).SerializeToString()


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=200), st.integers(0, len(VALID)))
def test_any_bytes_are_a_request_or_a_400(noise: bytes, cut: int) -> None:
    for body in (noise, VALID[:cut] + noise):
        try:
            req = otlp.decode(body, "protobuf")
        except BadRequest:
            continue
        checked = otlp.check(req, BOUNDS)
        assert checked.accepted + checked.rejected >= 0
        for part, _ in otlp.split(req, 64):
            ExportMetricsServiceRequest.FromString(part)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["resourceMetrics", "scopeMetrics", "metrics", "name", "gauge",
                         "dataPoints", "asDouble", "timeUnixNano", "attributes", "x"]),
        inner, max_size=3),
    max_leaves=12,
)  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(JSON_VALUES)
def test_any_json_is_a_request_or_a_400(doc: object) -> None:
    try:
        req = otlp.decode(json.dumps(doc).encode(), "json")
    except BadRequest:
        return
    otlp.check(req, BOUNDS)
