"""/api/health with real checks: PostgreSQL is real here; Kafka, gateway and consumer are
pointed at closed or scripted loopback ports, so their failures are real failures."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from fastapi.testclient import TestClient

from app.core.config import settings
from app.services import health
from tests.factories import signup, signup_operator
from tests.storage_mock import StorageMock

INTERNAL = {"Authorization": f"Bearer {settings.INTERNAL_TOKEN}"}


def _closed_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = int(s.getsockname()[1])
    s.close()
    return port


@pytest.fixture()
def health_server() -> Iterator[str]:
    """A loopback HTTP server answering /health like the gateway and consumer do."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            body = json.dumps({"status": "ok", "lag": 7}).encode()
            self.send_response(200 if self.path == "/health" else 404)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_health_reports_each_component(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, health_server: str
) -> None:
    monkeypatch.setattr(settings, "KAFKA_BOOTSTRAP", f"127.0.0.1:{_closed_port()}")
    monkeypatch.setattr(settings, "GATEWAY_URL", health_server)
    monkeypatch.setattr(settings, "CONSUMER_URL", f"http://127.0.0.1:{_closed_port()}")
    monkeypatch.setattr(settings, "ALERTING_URL", health_server)
    monkeypatch.setattr(settings, "HEALTH_TIMEOUT_SECONDS", 0.5)
    started = time.monotonic()
    r = client.get("/api/health", headers=INTERNAL)
    elapsed = time.monotonic() - started
    assert r.status_code == 200
    body = r.json()
    assert body["status"] == "degraded"
    components = body["components"]
    assert set(components) == {"postgres", "kafka", "storage", "gateway", "consumer", "alerting"}
    assert components["postgres"]["ok"] is True
    assert components["storage"]["ok"] is True  # the mocked storage client answers /health
    assert components["gateway"]["ok"] is True
    assert components["alerting"]["ok"] is True
    assert components["kafka"]["ok"] is False and components["kafka"]["error"]
    assert components["consumer"]["ok"] is False and components["consumer"]["error"]
    # every check is bounded (here 2 x 0.5 s + 0.5 s), so an unreachable Kafka cannot hang it
    assert elapsed < 4


def test_consumer_lag_falls_back_to_the_consumers_own_figure(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, health_server: str
) -> None:
    monkeypatch.setattr(settings, "KAFKA_BOOTSTRAP", f"127.0.0.1:{_closed_port()}")
    monkeypatch.setattr(settings, "CONSUMER_URL", health_server)
    monkeypatch.setattr(settings, "HEALTH_TIMEOUT_SECONDS", 1.0)
    consumer = client.get("/api/health", headers=INTERNAL).json()["components"]["consumer"]
    assert consumer["ok"] is True, consumer
    assert consumer["lag"] == 7
    assert consumer["lag_source"] == "consumer"
    assert consumer["lag_error"]


def _storage_health_checks(storage: StorageMock) -> int:
    return sum(1 for r in storage.requests if r.url.path == "/health")


def test_anonymous_callers_get_up_or_down_from_a_shared_run(
    client: TestClient, storage: StorageMock, monkeypatch: pytest.MonkeyPatch, health_server: str
) -> None:
    """No exception texts, topics, lag or versions for anyone without the token; and a flood
    of anonymous calls costs one run of the checks per 15 s, not one each."""
    monkeypatch.setattr(settings, "KAFKA_BOOTSTRAP", f"127.0.0.1:{_closed_port()}")
    monkeypatch.setattr(settings, "GATEWAY_URL", health_server)
    monkeypatch.setattr(settings, "CONSUMER_URL", health_server)
    monkeypatch.setattr(settings, "HEALTH_TIMEOUT_SECONDS", 0.3)
    health.forget_cached_status()
    member = signup(client)
    for headers in (
        {},
        member.headers,  # a session, not an operator's
        {"Authorization": "Bearer not-the-internal-token"},
        {"Authorization": "Token vgq_not-a-key"},
    ):
        r = client.get("/api/health", headers=headers)
        assert r.status_code == 200
        assert r.json() == {"status": "degraded"}, headers  # Kafka is down: no more than that
        assert r.headers["cache-control"] == "no-store"
    assert _storage_health_checks(storage) == 1
    # once the status is old, it is still answered at once, and one run refreshes it behind
    monkeypatch.setattr(health, "CACHE_SECONDS", 0.0)
    started = time.monotonic()
    assert client.get("/api/health").json() == {"status": "degraded"}
    assert time.monotonic() - started < 0.5  # the run takes over 0.6 s (Kafka's timeouts)
    deadline = time.monotonic() + 10
    while _storage_health_checks(storage) < 2:
        assert time.monotonic() < deadline, "the status was not refreshed"
        time.sleep(0.05)


def test_operators_and_the_internal_token_get_every_component(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, health_server: str
) -> None:
    monkeypatch.setattr(settings, "KAFKA_BOOTSTRAP", f"127.0.0.1:{_closed_port()}")
    monkeypatch.setattr(settings, "GATEWAY_URL", health_server)
    monkeypatch.setattr(settings, "CONSUMER_URL", health_server)
    monkeypatch.setattr(settings, "HEALTH_TIMEOUT_SECONDS", 0.3)
    operator = signup_operator(client)
    for headers in (operator.headers, INTERNAL):
        body = client.get("/api/health", headers=headers).json()
        assert body["status"] == "degraded"
        assert set(body["components"]) == {
            "postgres",
            "kafka",
            "storage",
            "gateway",
            "consumer",
            "alerting",
        }
        assert body["components"]["kafka"]["error"]
        assert body["components"]["storage"]["version"] == "test"
