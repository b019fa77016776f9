"""Helpers shared by the tests (importable because pytest puts tests/ on sys.path)."""

from __future__ import annotations

import os
import secrets
import socket
import struct
import uuid
from dataclasses import dataclass

import psycopg
import pytest


def _require() -> bool:
    return os.environ.get("VIGIL_REQUIRE_SERVICES") == "1"


def missing_service(reason: str) -> None:
    if _require():
        pytest.fail(f"required service missing: {reason}")
    pytest.skip(reason)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def reachable(hostport: str, timeout: float = 1.0) -> bool:
    host, _, port = hostport.rpartition(":")
    try:
        with socket.create_connection((host, int(port)), timeout=timeout):
            return True
    except OSError:
        return False


@dataclass
class Key:
    key: str
    key_id: str
    workspace_id: str


class Keys:
    """Creates workspaces and keys in the test database, as the backend would."""

    def __init__(self, url: str) -> None:
        self.url = url

    def create(
        self,
        *,
        scope: str = "ingest",
        pps: int = 1_000_000,
        burst: int = 1_000_000,
        max_body: int = 10 * 1024 * 1024,
        retention_days: int = 3650,
        active_series: int = 500_000,
        workspace_id: str | None = None,
    ) -> Key:
        from vigil_ingest.gateway.auth import hash_key

        ws = workspace_id or str(uuid.uuid4())
        prefix = "vgi_" if scope == "ingest" else "vgq_"
        key = prefix + secrets.token_urlsafe(32)
        kid = str(uuid.uuid4())
        with psycopg.connect(self.url, autocommit=True) as conn:
            if workspace_id is None:
                conn.execute("INSERT INTO workspaces (id) VALUES (%s)", (ws,))
                conn.execute(
                    "INSERT INTO workspace_limits VALUES (%s, %s, %s, %s, %s, %s)",
                    (ws, pps, burst, max_body, retention_days, active_series),
                )
            conn.execute(
                "INSERT INTO api_keys (id, workspace_id, key_hash, key_prefix, scope) "
                "VALUES (%s, %s, %s, %s, %s)",
                (kid, ws, hash_key(key), key[:12], scope),
            )
        return Key(key, kid, ws)

    def execute(self, sql: str, *params: object) -> None:
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(sql, params)


class TopicTail:
    """Reads what arrives on a topic after it was created (a groupless consumer)."""

    def __init__(self, bootstrap: str, topic: str) -> None:
        from kafka import KafkaConsumer
        from kafka.structs import TopicPartition

        self.consumer = KafkaConsumer(
            bootstrap_servers=[bootstrap],
            enable_auto_commit=False,
            group_id=None,
            consumer_timeout_ms=500,
        )
        parts = self.consumer.partitions_for_topic(topic) or set()
        self.parts = [TopicPartition(topic, p) for p in sorted(parts)]
        self.consumer.assign(self.parts)
        self.consumer.seek_to_end(*self.parts)
        for tp in self.parts:
            self.consumer.position(tp)

    def records(self, key: str, count: int, timeout: float = 15.0) -> list[object]:
        import time

        got: list[object] = []
        deadline = time.monotonic() + timeout
        while len(got) < count and time.monotonic() < deadline:
            for recs in self.consumer.poll(timeout_ms=300).values():
                got.extend(r for r in recs if r.key == key.encode())
        return got

    def close(self) -> None:
        self.consumer.close()


def varint(n: int) -> bytes:
    """Protobuf base-128 varint."""
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def ld(field: int, payload: bytes) -> bytes:
    """Protobuf length-delimited field."""
    return varint(field << 3 | 2) + varint(len(payload)) + payload


def write_request(series: list[tuple[dict[str, str], list[tuple[float, int]]]]) -> bytes:
    """A Prometheus remote_write WriteRequest (protobuf wire format, not compressed), encoded
    independently of the code under test: ``[(labels, [(value, timestamp_ms), ...]), ...]``."""
    msg = b""
    for labels, samples in series:
        ts = b"".join(ld(1, ld(1, k.encode()) + ld(2, v.encode())) for k, v in labels.items())
        for value, t in samples:
            ts += ld(2, varint(1 << 3 | 1) + struct.pack("<d", value) + varint(2 << 3) + varint(t))
        msg += ld(1, ts)
    return msg
