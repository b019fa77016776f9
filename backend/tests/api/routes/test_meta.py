"""GET /api/v1/meta: the installation facts the UI shows, such as the gateway's address."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from app.core.config import Settings, settings
from tests.factories import create_key, create_workspace, signup


def test_meta_names_the_public_gateway_url(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    user = signup(client)
    monkeypatch.setattr(settings, "PUBLIC_GATEWAY_URL", "https://ingest.example.com")
    r = client.get("/api/v1/meta", headers=user.headers)
    assert r.status_code == 200
    assert r.json() == {"gateway_url": "https://ingest.example.com"}


def test_meta_says_null_when_the_gateway_url_is_not_set(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    user = signup(client)
    monkeypatch.setattr(settings, "PUBLIC_GATEWAY_URL", None)
    r = client.get("/api/v1/meta", headers=user.headers)
    assert r.status_code == 200
    assert r.json() == {"gateway_url": None}


def test_meta_needs_a_session(client: TestClient) -> None:
    assert client.get("/api/v1/meta").status_code == 401
    user = signup(client)
    ws = create_workspace(client, user)
    key = create_key(client, user, ws["id"], "ingest")
    r = client.get("/api/v1/meta", headers={"Authorization": f"Bearer {key['key']}"})
    assert r.status_code == 401


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("http://10.0.0.5:8001", "http://10.0.0.5:8001"),
        ("https://ingest.example.com/", "https://ingest.example.com"),
        ("  https://ingest.example.com  ", "https://ingest.example.com"),
        ("", None),
    ],
)
def test_public_gateway_url_setting(
    monkeypatch: pytest.MonkeyPatch, value: str, expected: str | None
) -> None:
    monkeypatch.setenv("VIGIL_PUBLIC_GATEWAY_URL", value)
    configured = Settings().PUBLIC_GATEWAY_URL
    assert configured == expected
