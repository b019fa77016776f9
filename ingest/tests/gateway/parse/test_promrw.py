"""remote_write validation: snappy decoding within the limit, sample counting, reserved labels."""

from __future__ import annotations

import struct

import cramjam
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import ld, varint
from support import write_request as encode_write_request

from vigil_ingest.common.errors import BadRequest, PayloadTooLarge
from vigil_ingest.gateway.parse.line import TimeBounds
from vigil_ingest.gateway.parse.promrw import count_samples, decompress


def write_request(*series: tuple[dict[str, str], int]) -> bytes:
    """``n`` samples of value 1.0 per series, at 1000, 1001, … ms."""
    return encode_write_request(
        [(labels, [(1.0, 1000 + i) for i in range(n)]) for labels, n in series]
    )


@pytest.mark.parametrize(
    ("series", "samples"),
    [
        ((), 0),
        ((({"__name__": "up"}, 1),), 1),
        ((({"__name__": "up", "job": "a"}, 3), ({"__name__": "x", "__meta_ok": "no"}, 0)), None),
        ((({"__name__": "up", "job": "a"}, 3), ({"__name__": "load1"}, 2)), 5),
    ],
)
def test_count(series, samples) -> None:
    data = write_request(*series)
    if samples is None:
        with pytest.raises(BadRequest, match="series 2: label '__meta_ok' is reserved"):
            count_samples(data)
    else:
        assert count_samples(data) == samples


def test_series_limits_boundaries_pass() -> None:
    """Exactly at storage's limits (storage/app/ingest, -ingest.maxLabel*) is accepted."""
    labels = {"__name__": "u" * 4096, "k" * 256: "v" * 4096}
    labels.update({f"l{i}": "v" for i in range(62)})
    assert len(labels) == 64
    assert count_samples(write_request((labels, 2))) == 2


def _label(name: bytes, value: bytes) -> bytes:
    return ld(1, ld(1, name) + ld(2, value))


@pytest.mark.parametrize(
    ("labels", "message"),
    [
        ([(b"__name__", b"up"), (b"job", b"a"), (b"job", b"b")], "label 'job' appears twice"),
        ([(b"__name__", b"up"), (b"__name__", b"")], "no __name__ label"),
    ],
)
def test_repeated_labels(labels, message) -> None:
    """Storage refuses a label named twice, and keeps the last __name__."""
    data = ld(1, b"".join(_label(k, v) for k, v in labels))
    with pytest.raises(BadRequest) as e:
        count_samples(data)
    assert e.value.message == f"series 1: {message}"


def test_last_name_wins() -> None:
    data = ld(1, _label(b"__name__", b"a") + _label(b"__name__", b"b") + ld(2, b""))
    assert count_samples(data) == 1


def test_metadata_field_is_skipped() -> None:
    data = write_request(({"__name__": "up"}, 2)) + ld(3, ld(2, b"up") + ld(4, b"help"))
    assert count_samples(data) == 2


@pytest.mark.parametrize(
    ("labels", "message"),
    [
        (
            {"__name__": "up", "vigil_workspace": "b"},
            "series 1: label 'vigil_workspace' is reserved",
        ),
        ({"__name__": "up", "vm_account_id": "1"}, "series 1: label 'vm_account_id' is reserved"),
        ({"job": "x"}, "series 1: no __name__ label"),
        ({"__name__": "up", "": "x"}, "series 1: empty label name"),
        ({"__name__": ""}, "series 1: no __name__ label"),
        (
            {"__name__": "up", "k" * 257: "x"},
            "series 1: label name 'kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk…' is 257 bytes long, "
            "over the limit of 256",
        ),
        (
            {"__name__": "up", "k": "v" * 4097},
            "series 1: value of label 'k' is 4097 bytes long, over the limit of 4096",
        ),
        (
            {"__name__": "u" * 4097},
            "series 1: value of label '__name__' is 4097 bytes long, over the limit of 4096",
        ),
        (
            {"__name__": "up", **{f"l{i}": "v" for i in range(64)}},
            "series 1 (up): 65 labels on one series, over the limit of 64",
        ),
    ],
)
def test_refused_labels(labels, message) -> None:
    with pytest.raises(BadRequest) as e:
        count_samples(write_request((labels, 1)))
    assert e.value.message.startswith(message)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\x0a\x05ab", "truncated protobuf message"),
        (b"\x0a", "truncated protobuf varint"),
        (b"\x0f", "unsupported protobuf wire type 7"),
        (b"\x00", "invalid protobuf field number 0"),
    ],
)
def test_malformed_protobuf(data, message) -> None:
    with pytest.raises(BadRequest, match=message):
        count_samples(data)


def test_decompress_roundtrip_and_limits() -> None:
    raw = write_request(({"__name__": "up"}, 100))
    body = bytes(cramjam.snappy.compress_raw(raw))
    assert decompress(body, len(raw)) == raw
    with pytest.raises(PayloadTooLarge, match="over the workspace's max_body_bytes"):
        decompress(body, len(raw) - 1)
    with pytest.raises(BadRequest, match="snappy"):
        decompress(b"\xff\xff\xff\xff\xff\xff", 10_000)


NOW_MS = 1_790_000_000_000
DAY_MS = 86_400_000


def _series_at(ts: int, name: str = "up") -> bytes:
    sample = varint(1 << 3 | 1) + struct.pack("<d", 1.0) + varint(2 << 3) + varint(ts & (2**64 - 1))
    return ld(1, ld(1, ld(1, b"__name__") + ld(2, name.encode())) + ld(2, sample))


@pytest.mark.parametrize(
    ("ts", "message"),
    [
        (NOW_MS, None),
        (NOW_MS - 399 * DAY_MS, None),
        (
            NOW_MS + 3 * DAY_MS,
            "series 1 (up): timestamp 2026-09-24T14:13:20Z is more than 2 days in the future",
        ),
        (
            NOW_MS - 401 * DAY_MS,
            "series 1 (up): timestamp 2025-08-16T14:13:20Z is older than the retention period (400d)",
        ),
        (-5, "series 1 (up): timestamp -5 is before 1970"),
    ],
)
def test_sample_timestamps_within_bounds(ts, message) -> None:
    bounds = TimeBounds.around(NOW_MS, precision="ms", retention_ms=400 * DAY_MS, retention="400d")
    data = _series_at(ts)
    if message is None:
        assert count_samples(data, bounds) == 1
        return
    with pytest.raises(BadRequest) as e:
        count_samples(data, bounds)
    assert e.value.message == message


def test_sample_timestamp_check_is_cheap() -> None:
    import time

    bounds = TimeBounds.around(NOW_MS, precision="ms", retention_ms=400 * DAY_MS, retention="400d")
    data = b"".join(_series_at(NOW_MS + i, f"metric_{i % 50}") for i in range(10_000))
    t0 = time.perf_counter()
    assert count_samples(data, bounds) == 10_000
    assert time.perf_counter() - t0 < 2.0  # ~40 ms on an idle core; generous for shared CI


@settings(max_examples=300, deadline=None, database=None)
@given(
    count=st.sampled_from([1, 2, 63, 64, 65, 80]),
    name_len=st.sampled_from([1, 255, 256, 257]),
    value_len=st.sampled_from([0, 4095, 4096, 4097]),
    metric_len=st.sampled_from([2, 4096, 4097]),
    position=st.integers(min_value=0, max_value=100),
)
def test_fuzz_series_limits(count, name_len, value_len, metric_len, position) -> None:
    """Series around storage's limits: refused exactly when storage would refuse them, naming
    the series."""
    labels = [(b"l%d" % i, b"v") for i in range(count - 1)]
    labels.insert(position % count, (b"__name__", b"m" * metric_len))
    if count > 1:
        labels[-1 if labels[-1][0] != b"__name__" else 0] = (b"k" * name_len, b"v" * value_len)
    ok_series = ld(1, _label(b"__name__", b"up") + ld(2, b""))
    data = ok_series + ld(1, b"".join(_label(k, v) for k, v in labels) + ld(2, b""))
    refused = (
        count > 64 or metric_len > 4096 or (count > 1 and (name_len > 256 or value_len > 4096))
    )
    if not refused:
        assert count_samples(data) == 2
        return
    with pytest.raises(BadRequest) as e:
        count_samples(data)
    assert e.value.message.startswith("series 2"), e.value.message
    assert "over the limit of" in e.value.message, e.value.message
