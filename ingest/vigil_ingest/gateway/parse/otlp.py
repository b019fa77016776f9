"""OpenTelemetry metrics over OTLP/HTTP: decode, validate, keep what storage will take.

The request is an ``ExportMetricsServiceRequest`` in protobuf or in OTLP's JSON mapping,
read with the official message classes (``opentelemetry-proto``); what travels to Kafka is
always protobuf. vigil-storage decodes it with VictoriaMetrics' OTLP parser, so the labels
checked here are the ones that parser makes of a data point: every resource attribute, the
scope's ``scope.name``, ``scope.version`` and ``scope.attributes.<key>``, the data point's
attributes (nested maps flatten to ``key.sub``; a name given at more than one level keeps the
innermost value), plus ``le`` (histograms), ``vmrange`` (exponential histograms) or
``quantile`` (summaries). A data point is the unit of the points/s limit.

A data point storage would refuse — a reserved attribute name, a label over the series limits,
a timestamp outside retention, a malformed histogram — is taken out of the request and
counted, as OTLP's partial success asks; the caller answers 400 when nothing is left.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator, MutableSequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal

from google.protobuf import json_format
from google.protobuf.message import DecodeError
from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import (
    ExportMetricsServiceRequest,
    ExportMetricsServiceResponse,
)
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue
from opentelemetry.proto.metrics.v1.metrics_pb2 import Metric, ResourceMetrics

from vigil_ingest.common import series_limits
from vigil_ingest.common.errors import BadRequest, UnsupportedMediaType
from vigil_ingest.common.tenancy import is_reserved
from vigil_ingest.gateway.parse.line import TimeBounds

Encoding = Literal["protobuf", "json"]

PROTOBUF = "application/x-protobuf"
JSON = "application/json"

# the longest name suffix VictoriaMetrics' parser adds per kind, and the label it adds
_SUFFIX = {
    "gauge": "",
    "sum": "",
    "histogram": "_bucket",
    "exponential_histogram": "_bucket",
    "summary": "_count",
}
_EXTRA_LABEL = {"histogram": "le", "exponential_histogram": "vmrange", "summary": "quantile"}


def encoding_of(content_type: str | None) -> Encoding:
    """The body's encoding from its Content-Type; 415 for anything but OTLP's two."""
    ct = (content_type or "").split(";", 1)[0].strip().lower()
    if ct in (PROTOBUF, "application/protobuf"):
        return "protobuf"
    if ct == JSON:
        return "json"
    raise UnsupportedMediaType(
        f"unsupported Content-Type {content_type!r}: OTLP/HTTP metrics are {PROTOBUF} or {JSON}"
    )


def decode(body: bytes, encoding: Encoding) -> ExportMetricsServiceRequest:
    """Parse an ExportMetricsServiceRequest; 400 naming the problem when it is not one."""
    req = ExportMetricsServiceRequest()
    if encoding == "json":
        try:
            json_format.Parse(body, req, ignore_unknown_fields=True)
        except (json_format.ParseError, UnicodeDecodeError, RecursionError) as e:
            raise BadRequest(f"body is not an OTLP JSON ExportMetricsServiceRequest: {e}") from None
        return req
    try:
        req.ParseFromString(body)
    except (DecodeError, RecursionError) as e:
        raise BadRequest(
            f"body is not an OTLP protobuf ExportMetricsServiceRequest: {e or 'cannot decode'}"
        ) from None
    return req


def response(encoding: Encoding, rejected: int = 0, message: str = "") -> bytes:
    """The success answer, with ``partial_success`` when data points were rejected."""
    resp = ExportMetricsServiceResponse()
    if rejected:
        resp.partial_success.rejected_data_points = rejected
        resp.partial_success.error_message = message
    if encoding == "json":
        return json.dumps(json_format.MessageToDict(resp)).encode()
    return bytes(resp.SerializeToString())


@dataclass(frozen=True, slots=True)
class Checked:
    """What is left of a request after validation."""

    accepted: int  # data points kept
    rejected: int  # data points taken out
    first_error: str  # why the first rejected one was, "" when none
    changed: bool  # whether the request lost anything (serialize it again)


def _format_float(v: float) -> str:
    """The text VictoriaMetrics' parser makes of a double (Go's 'f', -1)."""
    if v != v:
        return "NaN"
    if v in (float("inf"), float("-inf")):
        return "+Inf" if v > 0 else "-Inf"
    text = format(Decimal(repr(v)), "f")
    return text[:-2] if text.endswith(".0") else text


def _any_text(v: AnyValue) -> str | None:
    kind = v.WhichOneof("value")
    if kind == "string_value":
        return v.string_value
    if kind == "bool_value":
        return "true" if v.bool_value else "false"
    if kind == "int_value":
        return str(v.int_value)
    if kind == "double_value":
        return _format_float(v.double_value)
    if kind == "bytes_value":
        return base64.b64encode(v.bytes_value).decode()
    if kind == "array_value":
        return json.dumps(_any_json(v), separators=(",", ":"))
    return None


def _any_json(v: AnyValue) -> Any:
    kind = v.WhichOneof("value")
    if kind == "array_value":
        return [_any_json(x) for x in v.array_value.values]
    if kind == "kvlist_value":
        return {kv.key: _any_json(kv.value) for kv in v.kvlist_value.values}
    if kind == "bytes_value":
        return base64.b64encode(v.bytes_value).decode()
    return getattr(v, kind) if kind else None


def _labels(
    kvs: Iterator[KeyValue] | MutableSequence[KeyValue], prefix: str
) -> Iterator[tuple[str, str]]:
    """(name, value) of attributes as the parser flattens them; keyless or valueless ones
    are skipped, as it does."""
    for kv in kvs:
        if not kv.key or not kv.HasField("value"):
            continue
        name = f"{prefix}.{kv.key}" if prefix else kv.key
        if kv.value.WhichOneof("value") == "kvlist_value":
            yield from _labels(kv.value.kvlist_value.values, name)
            continue
        text = _any_text(kv.value)
        if text is not None:
            yield name, text


def _check_labels(labels: dict[str, str], extra: str | None) -> str | None:
    for name, value in labels.items():
        raw = name.encode()
        if is_reserved(name):
            return (
                f"attribute {name!r} is reserved (vigil_workspace, vm_account_id, "
                "vm_project_id and names starting with __ are set by Vigil)"
            )
        why = series_limits.name_too_long("attribute", raw) or series_limits.value_too_long(
            f"value of attribute {series_limits.quote_head(raw)}", value.encode()
        )
        if why is not None:
            return why
    n = len(labels) + 1 + (1 if extra is not None and extra not in labels else 0)
    return series_limits.too_many("labels (attributes and the metric name)", n)


def _point_problem(kind: str, dp: Any) -> str | None:
    """Why the parser would drop or mangle a data point of a (exponential) histogram."""
    if kind == "histogram":
        if not dp.bucket_counts:
            return "histogram data point has no bucket counts"
        if len(dp.bucket_counts) != len(dp.explicit_bounds) + 1:
            return (
                f"histogram data point has {len(dp.bucket_counts)} bucket counts for "
                f"{len(dp.explicit_bounds)} explicit bounds (want one more count than bounds)"
            )
    return None


def check(req: ExportMetricsServiceRequest, bounds: TimeBounds) -> Checked:
    """Validate every data point (``bounds`` in nanoseconds) and take out the ones storage
    would refuse, in place."""
    accepted = rejected = 0
    first = ""
    for rm in req.resource_metrics:
        resource = dict(_labels(rm.resource.attributes, ""))
        for sm in rm.scope_metrics:
            scope = dict(resource)
            if sm.HasField("scope"):
                scope["scope.name"] = sm.scope.name or "unknown"
                scope["scope.version"] = sm.scope.version or "unknown"
                scope.update(_labels(sm.scope.attributes, "scope.attributes"))
            for metric in sm.metrics:
                kind = metric.WhichOneof("data")
                if kind is None:
                    continue
                points = getattr(metric, kind).data_points
                n = len(points)
                ok, why = _check_metric(metric, kind, points, scope, bounds)
                accepted += ok
                if ok < n:
                    rejected += n - ok
                    if not first and why:
                        first = f"metric {metric.name[:80]!r}: {why}" if metric.name else why
    return Checked(accepted, rejected, first, rejected > 0)


def _check_metric(
    metric: Metric, kind: str, points: Any, scope: dict[str, str], bounds: TimeBounds
) -> tuple[int, str | None]:
    """Validate a metric's data points, delete the bad ones; (points kept, first problem)."""
    if not metric.name:
        n = len(points)
        del points[:]
        return 0, f"a metric has an empty name ({n} data points)"
    name = (metric.name + _SUFFIX[kind]).encode()
    why = series_limits.value_too_long("metric name", name)
    if why is not None:
        n = len(points)
        del points[:]
        return 0, why
    extra = _EXTRA_LABEL.get(kind)
    first: str | None = None
    bad: list[int] = []
    for i, dp in enumerate(points):
        labels = dict(scope)
        labels.update(_labels(dp.attributes, ""))
        problem = (
            _check_labels(labels, extra)
            or bounds.why(dp.time_unix_nano, precision_hint=False)
            or _point_problem(kind, dp)
        )
        if problem is not None:
            bad.append(i)
            first = first or problem
    for i in reversed(bad):
        del points[i]
    return len(points), first


def split(req: ExportMetricsServiceRequest, max_bytes: int) -> list[tuple[bytes, int]]:
    """Serialize ``req`` into records of at most ``max_bytes`` where possible, cut between
    resource_metrics (their concatenation is the request again); each with its data points."""
    whole = req.SerializeToString()
    if len(whole) <= max_bytes or len(req.resource_metrics) < 2:
        return [(whole, sum(_points(rm) for rm in req.resource_metrics))]
    parts: list[tuple[bytes, int]] = []
    current, size, points = ExportMetricsServiceRequest(), 0, 0
    for rm in req.resource_metrics:
        n = rm.ByteSize() + 5  # field tag and length
        if size and size + n > max_bytes:
            parts.append((current.SerializeToString(), points))
            current, size, points = ExportMetricsServiceRequest(), 0, 0
        current.resource_metrics.append(rm)
        size += n
        points += _points(rm)
    parts.append((current.SerializeToString(), points))
    return parts


def _points(rm: ResourceMetrics) -> int:
    n = 0
    for sm in rm.scope_metrics:
        for metric in sm.metrics:
            kind = metric.WhichOneof("data")
            if kind is not None:
                n += len(getattr(metric, kind).data_points)
    return n
