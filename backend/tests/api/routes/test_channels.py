from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.core.config import settings
from tests.factories import add_member, create_workspace, signup
from tests.smtp_server import SmtpServer
from tests.webhook_receiver import Receiver, webhook_receiver


def url(ws: dict[str, Any], path: str = "") -> str:
    return f"/api/v1/workspaces/{ws['id']}/channels{path}"


@pytest.fixture
def receiver(monkeypatch: pytest.MonkeyPatch) -> Iterator[Receiver]:
    monkeypatch.setattr(settings, "ALERTING_WEBHOOK_ALLOW_HOSTS", "127.0.0.1/32")
    with webhook_receiver() as rx:
        yield rx


def test_loopback_webhooks_are_refused_unless_allowed(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the test stack's environment allows loopback for its receivers: refuse it here first
    monkeypatch.setattr(settings, "ALERTING_WEBHOOK_ALLOW_HOSTS", "")
    user = signup(client)
    ws = create_workspace(client, user)
    body = {"name": "hook", "config": {"type": "webhook", "url": "http://127.0.0.1:9/hook"}}
    r = client.post(url(ws), json=body, headers=user.headers)
    assert r.status_code == 422
    assert r.json()["detail"] == (
        "config.url: 127.0.0.1 resolves to 127.0.0.1, a loopback, private or link-local address; "
        "webhooks may only reach public addresses unless an operator allows the host"
    )
    r = client.post(
        url(ws),
        json={**body, "config": {"type": "webhook", "url": "http://169.254.169.254/x"}},
        headers=user.headers,
    )
    assert r.status_code == 422
    monkeypatch.setattr(settings, "ALERTING_WEBHOOK_ALLOW_HOSTS", "127.0.0.1/32")
    assert client.post(url(ws), json=body, headers=user.headers).status_code == 201


def test_test_notification_reaches_a_real_receiver_signed(
    client: TestClient, receiver: Receiver
) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    secret = "a-long-shared-secret"
    body = {
        "name": "ops hook",
        "config": {"type": "webhook", "url": receiver.url},
        "secret": secret,
    }
    ch = client.post(url(ws), json=body, headers=user.headers).json()
    assert ch["has_secret"] is True and "secret" not in ch and secret not in str(ch)
    r = client.post(url(ws, f"/{ch['id']}/test"), headers=user.headers)
    assert r.json() == {"ok": True, "status_code": 204, "error": None}
    (got,) = receiver.received
    payload = got.json()
    assert payload["kind"] == "test" and payload["workspace"]["id"] == ws["id"]
    assert got.headers["X-Vigil-Idempotency-Key"] == payload["id"]
    assert got.headers["X-Vigil-Signature"].startswith("t=")
    listed = client.get(url(ws), headers=user.headers).json()["data"][0]
    assert (listed["last_status"], listed["last_error"]) == ("sent", None)
    # a receiver that fails: the test says why, and the channel shows it
    receiver.answers.append(500)
    r = client.post(url(ws, f"/{ch['id']}/test"), headers=user.headers)
    assert r.json() == {"ok": False, "status_code": 500, "error": "the receiver answered 500"}
    listed = client.get(url(ws), headers=user.headers).json()["data"][0]
    assert (listed["last_status"], listed["last_error"]) == ("failed", "the receiver answered 500")


def test_email_channel_test_goes_through_a_real_smtp_server(
    client: TestClient, mailbox: SmtpServer
) -> None:
    # the test run's SMTP server (tests/conftest.py), which the sign-up's email reached too
    user = signup(client)
    ws = create_workspace(client, user)
    body = {"name": "oncall", "config": {"type": "email", "addresses": ["oncall@example.com"]}}
    ch = client.post(url(ws), json=body, headers=user.headers).json()
    assert ch["config"] == {"type": "email", "addresses": ["oncall@example.com"]}
    before = len(mailbox.received())
    r = client.post(url(ws, f"/{ch['id']}/test"), headers=user.headers)
    assert r.json()["ok"] is True
    (got,) = [m for m in mailbox.received()[before:] if "oncall@example.com" in m.rcpt_tos]
    assert got.rcpt_tos == ["oncall@example.com"]
    assert got.message["Subject"] == "Test notification from Vigil (oncall)"
    assert "Nothing is wrong." in got.message.get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]


def test_secrets_only_sign_webhooks_and_types_stay(client: TestClient, receiver: Receiver) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    email = {
        "name": "m",
        "config": {"type": "email", "addresses": ["a@example.com"]},
        "secret": "x" * 20,
    }
    r = client.post(url(ws), json=email, headers=user.headers)
    assert (r.status_code, r.json()["detail"]) == (422, "secret: only webhooks are signed")
    ch = client.post(
        url(ws),
        json={"name": "h", "config": {"type": "webhook", "url": receiver.url}},
        headers=user.headers,
    ).json()
    r = client.patch(
        url(ws, f"/{ch['id']}"), json={"config": email["config"]}, headers=user.headers
    )
    assert (r.status_code, r.json()["detail"]) == (
        422,
        "config.type: a webhook channel stays one; create a new channel",
    )
    r = client.patch(url(ws, f"/{ch['id']}"), json={"secret": "y" * 16}, headers=user.headers)
    assert r.json()["has_secret"] is True
    r = client.patch(url(ws, f"/{ch['id']}"), json={"secret": ""}, headers=user.headers)
    assert r.json()["has_secret"] is False


def test_editors_read_admins_manage(client: TestClient, receiver: Receiver) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    ch = client.post(
        url(ws),
        json={"name": "h", "config": {"type": "webhook", "url": receiver.url}},
        headers=owner.headers,
    ).json()
    editor = add_member(client, owner, ws["id"], "editor")
    assert client.get(url(ws), headers=editor.headers).status_code == 200
    r = client.post(url(ws, f"/{ch['id']}/test"), headers=editor.headers)
    assert r.status_code == 403
    viewer = add_member(client, owner, ws["id"], "viewer")
    assert client.get(url(ws), headers=viewer.headers).status_code == 403
