"""Body reading within limits: Content-Length, streamed (chunked) bodies, gzip and bombs."""

from __future__ import annotations

import asyncio
import functools
import gzip
from collections.abc import AsyncIterator

import pytest

from vigil_ingest.common.errors import BadRequest, PayloadTooLarge, UnsupportedMediaType
from vigil_ingest.gateway.body import content_encoding, read_body


async def _stream(data: bytes, size: int = 1000) -> AsyncIterator[bytes]:
    for i in range(0, len(data), size):
        yield data[i : i + size]


def read(data: bytes, *, limit: int, gzip_: bool = False, headers=None, size: int = 1000) -> bytes:
    return asyncio.run(read_body(headers or {}, _stream(data, size), limit=limit, gzip=gzip_))


@pytest.mark.parametrize(
    ("header", "allowed", "result"),
    [
        (None, ("", "gzip"), ""),
        ("identity", ("", "gzip"), ""),
        ("GZIP", ("", "gzip"), "gzip"),
        ("snappy", ("", "snappy"), "snappy"),
        ("zstd", ("", "snappy"), UnsupportedMediaType),
        ("br", ("", "gzip"), UnsupportedMediaType),
        ("snappy", ("", "gzip"), UnsupportedMediaType),
    ],
)
def test_content_encoding(header, allowed, result) -> None:
    headers = {"content-encoding": header} if header else {}
    if result is UnsupportedMediaType:
        with pytest.raises(UnsupportedMediaType) as e:
            content_encoding(headers, allowed=allowed)
        assert e.value.status == 415
    else:
        assert content_encoding(headers, allowed=allowed) == result


def test_plain_and_chunked_within_limit() -> None:
    data = b"cpu v=1\n" * 1000
    assert read(data, limit=len(data)) == data
    assert read(data, limit=len(data), size=7) == data


@pytest.mark.parametrize("declared", [True, False])
def test_over_limit(declared: bool) -> None:
    data = b"x" * 5000
    headers = {"content-length": str(len(data))} if declared else {}
    with pytest.raises(
        PayloadTooLarge, match="over the workspace's max_body_bytes \\(4999 bytes\\)"
    ):
        read(data, limit=4999, headers=headers)


def test_gzip_single_and_multi_member() -> None:
    data = b"cpu v=1\n" * 5000
    assert read(gzip.compress(data), limit=len(data), gzip_=True) == data
    two = gzip.compress(data[:100]) + gzip.compress(data[100:])
    assert read(two, limit=len(data), gzip_=True, size=13) == data


@functools.cache
def _bomb() -> bytes:
    return gzip.compress(b"\0" * (64 * 1024 * 1024), 1)  # 64 MiB in ~280 KiB


@pytest.mark.parametrize("chunk", [64, 4096, 1 << 20])
def test_gzip_bomb_stops_at_the_limit(chunk: int) -> None:
    bomb = _bomb()
    assert len(bomb) < 1024 * 1024
    with pytest.raises(PayloadTooLarge, match="decompressed body"):
        read(bomb, limit=1024 * 1024, gzip_=True, size=chunk)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"not gzip at all", "body is not valid gzip"),
        (gzip.compress(b"cpu v=1\n" * 100)[:-12], "gzip body is truncated"),
    ],
)
def test_bad_gzip(data: bytes, message: str) -> None:
    with pytest.raises(BadRequest, match=message):
        read(data, limit=1 << 20, gzip_=True)
