"""The record contract: headers written by the gateway read back by the consumer."""

from __future__ import annotations

import pytest

from vigil_ingest.common.kafka import (
    HEADER_FORMAT,
    HEADER_MAX_ACTIVE_SERIES,
    HEADER_POINTS,
    HEADER_PRECISION,
    HEADER_RECEIVED_AT,
    HEADER_WORKSPACE,
    TOPIC_LINE,
    TOPIC_PROMRW,
    Batch,
    HeaderError,
)


def test_line_headers_roundtrip() -> None:
    b = Batch(
        workspace="ws-1",
        format="line",
        value=b"cpu v=1\n",
        points=1,
        received_at_ms=1700000000123,
        precision="ms",
    )
    assert b.topic == TOPIC_LINE
    assert b.key == b"ws-1"
    assert b.headers() == [
        (HEADER_WORKSPACE, b"ws-1"),
        (HEADER_FORMAT, b"line"),
        (HEADER_PRECISION, b"ms"),
        (HEADER_RECEIVED_AT, b"1700000000123"),
        (HEADER_POINTS, b"1"),
    ]
    assert Batch.from_record(b.value, b.headers()) == b


def test_promrw_has_no_precision() -> None:
    b = Batch(workspace="ws", format="promrw", value=b"\x00", points=3, received_at_ms=1)
    assert b.topic == TOPIC_PROMRW
    assert HEADER_PRECISION not in dict(b.headers())
    assert Batch.from_record(b.value, b.headers()) == b


def test_the_workspace_series_limit_travels_with_the_batch() -> None:
    b = Batch(
        workspace="ws",
        format="promrw",
        value=b"\x00",
        points=3,
        received_at_ms=1,
        max_active_series=500_000,
    )
    assert (HEADER_MAX_ACTIVE_SERIES, b"500000") in b.headers()
    assert Batch.from_record(b.value, b.headers()) == b
    # records written before the limit travelled have none: no limit
    old = [h for h in b.headers() if h[0] != HEADER_MAX_ACTIVE_SERIES]
    assert Batch.from_record(b.value, old).max_active_series == 0


def test_header_names_match_docs() -> None:
    assert [
        HEADER_WORKSPACE,
        HEADER_FORMAT,
        HEADER_PRECISION,
        HEADER_RECEIVED_AT,
        HEADER_POINTS,
        HEADER_MAX_ACTIVE_SERIES,
    ] == [
        "vigil-workspace",
        "vigil-format",
        "vigil-precision",
        "vigil-received-at",
        "vigil-points",
        "vigil-max-active-series",
    ]


@pytest.mark.parametrize(
    ("headers", "message"),
    [
        ([], "record has no vigil-workspace header"),
        ([("vigil-workspace", b"w")], "record has no vigil-format header"),
        ([("vigil-workspace", b""), ("vigil-format", b"line")], "empty vigil-workspace header"),
        ([("vigil-workspace", b"w"), ("vigil-format", b"json")], "unknown vigil-format 'json'"),
        (
            [("vigil-workspace", b"w"), ("vigil-format", b"line"), ("vigil-precision", b"h")],
            "unknown vigil-precision 'h'",
        ),
        (
            [("vigil-workspace", b"w"), ("vigil-format", b"line"), ("vigil-points", b"x")],
            "non-numeric header",
        ),
        (
            [
                ("vigil-workspace", b"w"),
                ("vigil-format", b"line"),
                ("vigil-max-active-series", b"x"),
            ],
            "non-numeric header",
        ),
        ([("vigil-workspace", b"\xff"), ("vigil-format", b"line")], "header is not UTF-8"),
    ],
)
def test_broken_headers(headers, message) -> None:
    with pytest.raises(HeaderError, match=message):
        Batch.from_record(b"x", headers)
