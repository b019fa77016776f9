from __future__ import annotations

from collections.abc import Iterator

from fastapi.testclient import TestClient

from app.core.config import settings


def test_large_bodies_are_refused_before_parsing(client: TestClient) -> None:
    big = b"x" * (settings.MAX_REQUEST_BYTES + 1)
    r = client.post("/api/v1/auth/login", content=big, headers={"Content-Type": "application/json"})
    assert r.status_code == 413
    assert r.json() == {
        "detail": f"request body larger than {settings.MAX_REQUEST_BYTES} bytes",
        "code": "too_large",
        "limit": "max_request_bytes",
    }


def test_streamed_bodies_are_counted(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(settings.MAX_REQUEST_BYTES // 65536 + 2):
            yield b"x" * 65536

    r = client.post("/v1/query/raw", content=chunks(), headers={"Content-Type": "application/json"})
    assert r.status_code == 413
    assert r.json()["code"] == "too_large"


def test_normal_bodies_pass(client: TestClient) -> None:
    r = client.post("/api/v1/auth/login", json={"email": "a@example.com", "password": "x"})
    assert r.status_code == 401
