"""Webhooks reach public addresses only (unless allowed), and say who sent them."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from app.alerting import webhook
from app.alerting.webhook import AllowList, WebhookRefused, check_url
from tests.webhook_receiver import webhook_receiver

NOBODY = AllowList.parse("")
LOOPBACK = AllowList.parse("127.0.0.1/32")


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("http://127.0.0.1:9/hook", "127.0.0.1, a loopback, private or link-local address"),
        ("http://localhost/hook", "loopback, private or link-local"),
        ("http://[::1]/hook", "::1, a loopback"),
        ("http://10.1.2.3/hook", "10.1.2.3"),
        ("http://192.168.0.10/hook", "192.168.0.10"),
        ("http://169.254.169.254/latest/meta-data", "169.254.169.254"),
        ("http://100.64.0.1/", "100.64.0.1"),
        ("http://[::ffff:127.0.0.1]/", "::ffff:7f00:1"),
        ("http://0.0.0.0/", "0.0.0.0"),
        ("ftp://example.com/", "must start with http:// or https://"),
        ("http://user:pw@example.com/", "credentials"),
        ("http://no-such-host.invalid/", "cannot resolve no-such-host.invalid"),
        ("http://\x80/", "is not a valid host name"),
        ("http://[::1/", "the URL is invalid: Invalid IPv6 URL"),
    ],
)
def test_internal_addresses_are_refused(url: str, reason: str) -> None:
    with pytest.raises(WebhookRefused, match=reason.replace("(", r"\(").replace(".", r"\.")):
        check_url(url, NOBODY)


def test_public_addresses_pass() -> None:
    check_url("http://8.8.8.8/hook", NOBODY)
    check_url("https://[2606:4700:4700::1111]/hook", NOBODY)


def test_operators_allow_hosts_and_ranges() -> None:
    check_url("http://127.0.0.1:9/hook", LOOPBACK)
    check_url("http://localhost:9/hook", AllowList.parse("hooks.example, localhost"))
    with pytest.raises(WebhookRefused):
        check_url("http://10.0.0.1/", LOOPBACK)


def test_delivery_is_signed_and_carries_the_idempotency_key() -> None:
    with webhook_receiver() as rx:
        body = b'{"kind":"firing"}'
        d = webhook.post(
            rx.url,
            body,
            headers={"X-Vigil-Idempotency-Key": "n-1"},
            secret="s" * 20,
            allowed=LOOPBACK,
        )
        assert (d.ok, d.status, d.error) == (True, 204, None)
        (got,) = rx.received
    assert got.body == body
    assert got.headers["X-Vigil-Idempotency-Key"] == "n-1"
    sig = dict(p.split("=", 1) for p in got.headers["X-Vigil-Signature"].split(","))
    want = hmac.new(b"s" * 20, f"{sig['t']}.".encode() + body, hashlib.sha256).hexdigest()
    assert sig["v1"] == want


def test_a_refused_host_is_not_contacted() -> None:
    with webhook_receiver() as rx:
        d = webhook.post(rx.url, b"{}", headers={}, secret=None, allowed=NOBODY)
        assert rx.received == []
    assert not d.ok and not d.retryable
    assert "loopback, private or link-local" in (d.error or "")


def test_a_redirect_to_an_internal_address_is_not_followed() -> None:
    # the first receiver stands for a public one (allowed by name); it redirects to a loopback
    # address that is not allowed: the connection is refused at connect time
    with webhook_receiver() as inner, webhook_receiver() as outer:
        outer.answers.append(f"redirect:http://127.0.0.2:{inner.port}/hook")
        allowed = AllowList.parse("localhost")
        d = webhook.post(
            f"http://localhost:{outer.port}/hook", b"{}", headers={}, secret=None, allowed=allowed
        )
        assert len(outer.received) == 1
        assert inner.received == []
    assert not d.ok and not d.retryable
    assert "127.0.0.2" in (d.error or "")


@pytest.mark.parametrize(
    ("status", "retryable"),
    [(500, True), (503, True), (429, True), (408, True), (400, False), (404, False)],
)
def test_which_answers_are_retried(status: int, retryable: bool) -> None:
    with webhook_receiver() as rx:
        rx.answers.append(status)
        d = webhook.post(rx.url, b"{}", headers={}, secret=None, allowed=LOOPBACK)
    assert (d.ok, d.status, d.retryable) == (False, status, retryable)
    assert d.error == f"the receiver answered {status}"
