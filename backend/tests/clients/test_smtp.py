from __future__ import annotations

from collections.abc import Iterator

import pytest

from app.clients import smtp
from app.core.config import settings
from tests.smtp_server import SmtpServer, free_port, smtp_server


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[SmtpServer]:
    with smtp_server() as srv:
        monkeypatch.setattr(settings, "SMTP_HOST", srv.host)
        monkeypatch.setattr(settings, "SMTP_PORT", srv.port)
        monkeypatch.setattr(settings, "SMTP_SECURITY", "none")
        monkeypatch.setattr(settings, "SMTP_USERNAME", "")
        yield srv


def test_send_delivers_text_and_html_with_headers(server: SmtpServer) -> None:
    msg = smtp.build_message(
        to=["ops@example.com", "oncall@example.com"],
        subject="[FIRING] cpu high",
        text="cpu is 97",
        html="<p>cpu is <b>97</b></p>",
        headers={"X-Vigil-Event": "e-1"},
        message_id="<e-1@vigil>",
    )
    smtp.send(msg)
    (got,) = server.received()
    assert got.rcpt_tos == ["ops@example.com", "oncall@example.com"]
    assert got.message["Subject"] == "[FIRING] cpu high"
    assert got.message["Message-ID"] == "<e-1@vigil>"
    assert got.message["X-Vigil-Event"] == "e-1"
    body = got.message.get_body(preferencelist=("plain",))
    assert body is not None and body.get_content().strip() == "cpu is 97"


def test_refused_recipient_is_an_error_naming_it(server: SmtpServer) -> None:
    server.refuse.add("gone@example.com")
    msg = smtp.build_message(to=["gone@example.com"], subject="s", text="t")
    with pytest.raises(smtp.EmailError, match=r"refused every recipient: gone@example.com \(550\)"):
        smtp.send(msg)


def test_unreachable_server_is_an_error_naming_it(monkeypatch: pytest.MonkeyPatch) -> None:
    port = free_port()
    monkeypatch.setattr(settings, "SMTP_HOST", "127.0.0.1")
    monkeypatch.setattr(settings, "SMTP_PORT", port)
    with pytest.raises(smtp.EmailError, match=f"cannot deliver to 127.0.0.1:{port}"):
        smtp.send(smtp.build_message(to=["a@example.com"], subject="s", text="t"))


def test_no_server_configured(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(settings, "SMTP_HOST", None)
    assert not smtp.is_configured()
    with pytest.raises(smtp.EmailError, match="no SMTP server is configured"):
        smtp.send(smtp.build_message(to=["a@example.com"], subject="s", text="t"))
