"""Prometheus remote_write 1.0 validation: snappy block decoding plus a minimal protobuf walk.

The body travels to Kafka exactly as received; here we only prove that it decodes, count the
samples (the unit of the points/s limit) and refuse what vigil-storage would: reserved, empty
or repeated label names, and labels over the series limits (``common/series_limits.py``).
Messages::

    WriteRequest { repeated TimeSeries timeseries = 1; ...; repeated MetricMetadata metadata = 3; }
    TimeSeries   { repeated Label labels = 1; repeated Sample samples = 2; repeated Exemplar = 3;
                   repeated Histogram histograms = 4; }
    Label        { string name = 1; string value = 2; }
"""

from __future__ import annotations

import cramjam

from vigil_ingest.common import series_limits
from vigil_ingest.common.errors import BadRequest, PayloadTooLarge
from vigil_ingest.common.tenancy import METRIC_NAME_LABEL, is_reserved
from vigil_ingest.gateway.parse.line import TimeBounds

_VARINT, _I64, _LEN, _I32 = 0, 1, 2, 5


def decompress(body: bytes, max_bytes: int) -> bytes:
    """Decode a snappy block body, refusing it when it would exceed ``max_bytes``."""
    try:
        size = int(cramjam.snappy.decompress_raw_len(body))
    except Exception as e:  # cramjam raises its own DecompressionError for malformed input
        raise BadRequest(f"body is not snappy-compressed (block format): {e}") from None
    if size > max_bytes:
        raise PayloadTooLarge(
            f"decompressed remote_write body is {size} bytes, over the workspace's "
            f"max_body_bytes ({max_bytes})"
        )
    try:
        return bytes(cramjam.snappy.decompress_raw(body))
    except Exception as e:
        raise BadRequest(f"body is not valid snappy (block format): {e}") from None


def _varint(buf: bytes, i: int, end: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        if i >= end:
            raise BadRequest("truncated protobuf varint")
        b = buf[i]
        i += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, i
        shift += 7
        if shift > 63:
            raise BadRequest("protobuf varint too long")


def _skip(buf: bytes, i: int, end: int, wire: int) -> int:
    if wire == _VARINT:
        return _varint(buf, i, end)[1]
    if wire == _I64:
        i += 8
    elif wire == _I32:
        i += 4
    elif wire == _LEN:
        n, i = _varint(buf, i, end)
        i += n
    else:
        raise BadRequest(f"unsupported protobuf wire type {wire}")
    if i > end:
        raise BadRequest("truncated protobuf field")
    return i


def _fields(buf: bytes, i: int, end: int):  # type: ignore[no-untyped-def]
    """Yield (field number, wire type, start, stop) of each field; stop is the value's end."""
    while i < end:
        tag, i = _varint(buf, i, end)
        field, wire = tag >> 3, tag & 7
        if field == 0:
            raise BadRequest("invalid protobuf field number 0")
        if wire == _LEN:
            n, i = _varint(buf, i, end)
            if i + n > end:
                raise BadRequest("truncated protobuf message")
            yield field, wire, i, i + n
            i += n
        else:
            j = _skip(buf, i, end, wire)
            yield field, wire, i, j
            i = j


def _int64(v: int) -> int:
    return v - (1 << 64) if v >= 1 << 63 else v


def _timestamp(data: bytes, start: int, stop: int, field: int) -> int | None:
    for f, w, s, _ in _fields(data, start, stop):
        if f == field and w == _VARINT:
            return _int64(_varint(data, s, stop)[0])
    return None


def count_samples(data: bytes, bounds: TimeBounds | None = None) -> int:
    """Validate a decoded WriteRequest and return its number of samples (histogram samples
    count one each); with ``bounds`` (milliseconds), timestamps storage would refuse are
    refused here. Raises BadRequest naming the series and the problem."""
    samples = 0
    series = 0
    for field, wire, start, stop in _fields(data, 0, len(data)):
        if field != 1:
            continue
        if wire != _LEN:
            raise BadRequest("WriteRequest.timeseries has the wrong wire type")
        series += 1
        metric = ""
        names: set[bytes] = set()
        labels = 0
        for f2, w2, s2, e2 in _fields(data, start, stop):
            if f2 == 1 and w2 == _LEN:
                name = value = b""
                for f3, w3, s3, e3 in _fields(data, s2, e2):
                    if f3 == 1 and w3 == _LEN:
                        name = data[s3:e3]
                    elif f3 == 2 and w3 == _LEN:
                        value = data[s3:e3]
                try:
                    text = name.decode()
                except UnicodeDecodeError:
                    raise BadRequest(f"series {series}: label name is not UTF-8") from None
                if not text:
                    raise BadRequest(f"series {series}: empty label name")
                why = (
                    series_limits.name_too_long("label", name)
                    or series_limits.value_too_long(
                        f"value of label {series_limits.quote_head(name)}", value
                    )
                    or (f"label {text!r} appears twice" if name in names else None)
                )
                if why is not None:
                    raise BadRequest(f"series {series}: {why}")
                labels += 1
                if text == METRIC_NAME_LABEL:
                    metric = value.decode(errors="replace")
                    continue  # storage keeps the last __name__ of a series
                if is_reserved(text):
                    raise BadRequest(
                        f"series {series}: label {text!r} is reserved (vigil_workspace, "
                        "vm_account_id, vm_project_id and names starting with __ other than "
                        "__name__ are set by Vigil)"
                    )
                names.add(name)
            elif f2 in (2, 4) and w2 == _LEN:
                samples += 1
                if bounds is not None:
                    # Sample.timestamp is field 2, Histogram.timestamp field 15.
                    ts = _timestamp(data, s2, e2, 2 if f2 == 2 else 15)
                    why = bounds.why(ts or 0, precision_hint=False)
                    if why is not None:
                        raise BadRequest(f"series {series} ({metric or 'no name yet'}): {why}")
        if not metric:
            raise BadRequest(f"series {series}: no __name__ label")
        why = series_limits.too_many("labels", labels)
        if why is not None:
            raise BadRequest(f"series {series} ({metric}): {why}")
    return samples
