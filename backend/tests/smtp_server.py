"""A real SMTP server on loopback for tests (aiosmtpd), keeping what it receives."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP


@dataclass
class Received:
    mail_from: str
    rcpt_tos: list[str]
    message: EmailMessage


@dataclass
class SmtpServer:
    host: str
    port: int
    messages: list[Received] = field(default_factory=list)
    refuse: set[str] = field(default_factory=set)  # recipients answered with 550
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def received(self) -> list[Received]:
        with self._lock:
            return list(self.messages)


class _Handler:
    def __init__(self, server: SmtpServer) -> None:
        self.server = server

    async def handle_RCPT(
        self, smtp: SMTP, session: Any, envelope: Any, address: str, options: list[str]
    ) -> str:
        if address in self.server.refuse:
            return "550 5.1.1 mailbox unavailable"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, smtp: SMTP, session: Any, envelope: Any) -> str:
        msg = message_from_bytes(envelope.original_content, policy=policy.default)
        assert isinstance(msg, EmailMessage)
        with self.server._lock:
            self.server.messages.append(Received(envelope.mail_from, list(envelope.rcpt_tos), msg))
        return "250 Message accepted for delivery"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def smtp_server() -> Iterator[SmtpServer]:
    server = SmtpServer(host="127.0.0.1", port=free_port())
    controller = Controller(_Handler(server), hostname=server.host, port=server.port)
    controller.start()
    try:
        yield server
    finally:
        controller.stop()
