"""Gateway behaviour that needs no running service: helpers, and what happens when
PostgreSQL and Kafka are both unreachable (503, never a hang or a 5xx other than 503)."""

from __future__ import annotations

import socket
import time

import pytest
from starlette.testclient import TestClient

from vigil_ingest.common.config import Settings
from vigil_ingest.common.errors import BadRequest
from vigil_ingest.gateway.app import create_app, parse_precision, split_lines


@pytest.mark.parametrize(
    ("value", "precision"),
    [
        (None, "ns"),
        ("", "ns"),
        ("n", "ns"),
        ("ns", "ns"),
        ("u", "us"),
        ("us", "us"),
        ("ms", "ms"),
        ("s", "s"),
    ],
)
def test_parse_precision(value, precision) -> None:
    assert parse_precision(value) == precision


@pytest.mark.parametrize("value", ["h", "m", "sec", "NS"])
def test_parse_precision_refuses(value) -> None:
    with pytest.raises(BadRequest, match="use ns, us, ms or s"):
        parse_precision(value)


@pytest.mark.parametrize(
    ("body", "limit", "parts"),
    [
        (b"a v=1\nb v=2\n", 100, [b"a v=1\nb v=2\n"]),
        (b"a v=1\nb v=2\nc v=3\n", 12, [b"a v=1\nb v=2\n", b"c v=3\n"]),
        (b"a v=1\nb v=2\nc v=3", 6, [b"a v=1\n", b"b v=2\n", b"c v=3"]),
        (
            b"aaaaaaaaaa v=1\nb v=2\n",
            6,
            [b"aaaaaaaaaa v=1\n", b"b v=2\n"],
        ),  # a long line stays whole
    ],
)
def test_split_lines(body, limit, parts) -> None:
    assert split_lines(body, limit) == parts
    assert b"".join(parts) == body


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_database_down_is_503_not_401() -> None:
    settings = Settings(
        database_url=f"postgresql://vigil@127.0.0.1:{_closed_port()}/vigil",
        kafka_bootstrap=f"127.0.0.1:{_closed_port()}",
        kafka_ack_timeout_seconds=1.0,
    )
    with TestClient(create_app(settings)) as c:
        t0 = time.monotonic()
        r = c.post(
            "/v1/write/metric", content=b"cpu v=1\n", headers={"Authorization": "Token vgi_x"}
        )
        assert r.status_code == 503
        assert r.json()["error"] == "cannot verify the ingest key right now (database unavailable)"
        assert r.headers["Retry-After"] == "5"
        assert time.monotonic() - t0 < 5
        assert c.get("/ping").status_code == 204
        assert c.get("/health").status_code == 503


def test_health_and_metrics_say_more_only_to_the_internal_token() -> None:
    """Anyone may ask whether the gateway is up; its Kafka address, version and metrics are
    for the internal token (the backend's health check, the stack's scripts)."""
    token = "internal-token-for-this-test"
    settings = Settings(
        database_url=f"postgresql://vigil@127.0.0.1:{_closed_port()}/vigil",
        kafka_bootstrap=f"127.0.0.1:{_closed_port()}",
        internal_token=token,
    )
    internal = {"Authorization": f"Bearer {token}"}
    with TestClient(create_app(settings)) as c:
        r = c.get("/health")
        assert (r.status_code, r.json()) == (503, {"status": "degraded"})
        r = c.get("/health", headers={"Authorization": "Bearer not-the-token"})
        assert r.json() == {"status": "degraded"}
        r = c.get("/health", headers=internal)
        assert r.status_code == 503
        assert r.json()["kafka"] == {"ok": False, "bootstrap": settings.kafka_bootstrap}
        assert r.json()["version"]
        for headers in ({}, {"Authorization": "Bearer not-the-token"}, {"Authorization": token}):
            r = c.get("/metrics", headers=headers)
            assert r.status_code == 401, headers
            assert "internal token" in r.json()["error"]
        r = c.get("/metrics", headers=internal)
        assert r.status_code == 200
        assert "vigil_gateway_requests" in r.text
