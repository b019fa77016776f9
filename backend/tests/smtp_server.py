"""A real SMTP server on loopback for tests (aiosmtpd), keeping what it receives."""

from __future__ import annotations

import asyncio
import re
import socket
import threading
import time
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
    delay: float = 0.0  # seconds before accepting each message (a slow server)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def received(self) -> list[Received]:
        with self._lock:
            return list(self.messages)

    def wait_for(
        self, to: str, *, subject: str | None = None, after: int = 0, timeout: float = 10.0
    ) -> Received:
        """The newest message to ``to`` (with ``subject``) among those received after the
        first ``after`` ones; waits up to ``timeout`` seconds for it (mail leaves on a thread
        of its own)."""
        deadline = time.monotonic() + timeout
        while True:
            for got in reversed(self.received()[after:]):
                if to in got.rcpt_tos and (subject is None or got.message["Subject"] == subject):
                    return got
            if time.monotonic() > deadline:
                raise AssertionError(f"no email to {to} ({subject or 'any subject'}) arrived")
            time.sleep(0.02)

    def link_token(self, to: str, path: str, *, after: int = 0, timeout: float = 10.0) -> str:
        """The token of the newest link to ``path`` (``…/signup/complete#token=vge_…``) in
        mail to ``to``."""
        deadline = time.monotonic() + timeout
        pattern = re.compile(re.escape(path) + r"#token=(vge_[A-Za-z0-9_-]+)")
        while True:
            for got in reversed(self.received()[after:]):
                if to not in got.rcpt_tos:
                    continue
                body = got.message.get_body(preferencelist=("plain",))
                match = pattern.search(body.get_content() if body is not None else "")
                if match:
                    return match.group(1)
            if time.monotonic() > deadline:
                raise AssertionError(f"no email to {to} with a {path} link arrived")
            time.sleep(0.02)


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
        if self.server.delay:
            await asyncio.sleep(self.server.delay)
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
