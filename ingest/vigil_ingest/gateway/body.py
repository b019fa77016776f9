"""Reading request bodies within the workspace's size limit, gzip included.

The limit applies to the bytes on the wire (checked as they stream in, so a chunked body
with no Content-Length is cut off too) and again to the decompressed bytes, while they are
decompressed: zlib is asked for at most the limit plus one byte, so a gzip bomb stops there
instead of filling memory (a 1 GiB bomb costs the gateway the limit, not a gigabyte).
Bodies over ``OFFLOAD_BYTES`` are decompressed on a worker thread, off the event loop.
"""

from __future__ import annotations

import asyncio
import zlib
from collections.abc import AsyncIterator, Mapping

from vigil_ingest.common.errors import BadRequest, PayloadTooLarge, UnsupportedMediaType

_GZIP = ("gzip", "x-gzip")
# bodies larger than this are decompressed (and validated, see app.py) on a worker thread
OFFLOAD_BYTES = 64 * 1024
_IDENTITY = ("", "identity")


def content_encoding(headers: Mapping[str, str], *, allowed: tuple[str, ...]) -> str:
    """The request's Content-Encoding, lowercased; 415 when not in ``allowed``."""
    enc = headers.get("content-encoding", "").strip().lower()
    if enc in _IDENTITY:
        enc = ""
    if enc not in allowed:
        shown = ", ".join(a or "identity" for a in allowed)
        raise UnsupportedMediaType(
            f"unsupported Content-Encoding {enc!r}: this endpoint reads {shown}"
        )
    return enc


def _too_large(what: str, limit: int) -> PayloadTooLarge:
    return PayloadTooLarge(f"{what} is over the workspace's max_body_bytes ({limit} bytes)")


class GzipLimitReader:
    """Incremental gzip decoding (multi-member too) that refuses more than ``limit`` bytes."""

    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        self._out: list[bytes] = []
        self._size = 0
        self._started = False

    def feed(self, data: bytes) -> None:
        while data:
            self._started = True
            try:
                out = self._d.decompress(data, self._limit - self._size + 1)
            except zlib.error as e:
                raise BadRequest(f"body is not valid gzip: {e}") from None
            self._size += len(out)
            if self._size > self._limit:
                raise _too_large("decompressed body", self._limit)
            self._out.append(out)
            if self._d.unconsumed_tail:
                data = self._d.unconsumed_tail
            elif self._d.eof and self._d.unused_data:
                data = self._d.unused_data
                self._d = zlib.decompressobj(16 + zlib.MAX_WBITS)
            else:
                data = b""

    def finish(self) -> bytes:
        if self._started and not self._d.eof:
            raise BadRequest("gzip body is truncated")
        return b"".join(self._out)


async def read_body(
    headers: Mapping[str, str], stream: AsyncIterator[bytes], *, limit: int, gzip: bool
) -> bytes:
    """The whole body, decompressed when ``gzip``; PayloadTooLarge past ``limit``."""
    declared = headers.get("content-length")
    if declared is not None:
        try:
            if int(declared) > limit:
                raise _too_large(f"body of {int(declared)} bytes", limit)
        except ValueError:
            raise BadRequest(f"invalid Content-Length {declared!r}") from None
    size = 0
    chunks: list[bytes] = []
    async for chunk in stream:
        if not chunk:
            continue
        size += len(chunk)
        if size > limit:
            raise _too_large("body", limit)
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not gzip:
        return raw
    if len(raw) > OFFLOAD_BYTES:
        return await asyncio.to_thread(gunzip, raw, limit)
    return gunzip(raw, limit)


def gunzip(raw: bytes, limit: int) -> bytes:
    """Decompress a gzip body (multi-member too); PayloadTooLarge past ``limit`` bytes."""
    reader = GzipLimitReader(limit)
    reader.feed(raw)
    return reader.finish()
