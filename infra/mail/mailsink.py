"""A local SMTP server that keeps what it receives, for `make up` and `make test`.

Vigil sends email (alert notifications, account emails) to the SMTP server named by
``VIGIL_SMTP_HOST``/``VIGIL_SMTP_PORT``. On one machine nothing should leave it, so the stack
starts this sink instead: a real SMTP server (aiosmtpd) on loopback that keeps the last
messages in memory and lists them over HTTP, the way a mail catcher does:

    GET    /messages            every message kept, oldest first (JSON)
    GET    /messages?to=ADDR    only those with ADDR among the recipients
    DELETE /messages            forget them all
    GET    /health              {"status": "ok", "messages": N}

Usage: python mailsink.py --host 127.0.0.1 --smtp-port 8025 --http-port 8026
"""

from __future__ import annotations

import argparse
import json
import signal
import threading
import time
from collections import deque
from email import message_from_bytes, policy
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from aiosmtpd.controller import Controller

MAX_MESSAGES = 2000


class Mailbox:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._messages: deque[dict[str, Any]] = deque(maxlen=MAX_MESSAGES)
        self._seq = 0

    def add(self, mail_from: str, rcpt_tos: list[str], data: bytes) -> None:
        msg = message_from_bytes(data, policy=policy.default)
        assert isinstance(msg, EmailMessage)
        text = msg.get_body(preferencelist=("plain",))
        html = msg.get_body(preferencelist=("html",))
        with self._lock:
            self._seq += 1
            self._messages.append(
                {
                    "id": self._seq,
                    "received_at": time.time(),
                    "mail_from": mail_from,
                    "rcpt_tos": rcpt_tos,
                    "subject": str(msg.get("subject", "")),
                    "message_id": str(msg.get("message-id", "")),
                    "headers": {k: str(v) for k, v in msg.items()},
                    "text": text.get_content() if text is not None else "",
                    "html": html.get_content() if html is not None else None,
                }
            )

    def list(self, to: str | None) -> list[dict[str, Any]]:
        with self._lock:
            items = list(self._messages)
        if to:
            items = [
                m for m in items if to.lower() in (r.lower() for r in m["rcpt_tos"])
            ]
        return items

    def clear(self) -> None:
        with self._lock:
            self._messages.clear()


class SmtpHandler:
    def __init__(self, box: Mailbox) -> None:
        self.box = box

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.box.add(
            envelope.mail_from, list(envelope.rcpt_tos), envelope.original_content
        )
        return "250 Message accepted for delivery"


def http_handler(box: Mailbox) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def _json(self, status: int, body: Any) -> None:
            raw = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

        def do_GET(self) -> None:
            url = urlsplit(self.path)
            if url.path == "/messages":
                to = parse_qs(url.query).get("to", [None])[0]
                self._json(200, box.list(to))
            elif url.path == "/health":
                self._json(200, {"status": "ok", "messages": len(box.list(None))})
            else:
                self._json(404, {"detail": "not found"})

        def do_DELETE(self) -> None:
            if urlsplit(self.path).path == "/messages":
                box.clear()
                self._json(200, {"deleted": True})
            else:
                self._json(404, {"detail": "not found"})

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--smtp-port", type=int, default=8025)
    parser.add_argument("--http-port", type=int, default=8026)
    args = parser.parse_args()
    box = Mailbox()
    smtp = Controller(SmtpHandler(box), hostname=args.host, port=args.smtp_port)
    smtp.start()
    http = ThreadingHTTPServer((args.host, args.http_port), http_handler(box))
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    threading.Thread(target=http.serve_forever, daemon=True).start()
    print(
        f"mail sink: SMTP {args.host}:{args.smtp_port}, HTTP {args.host}:{args.http_port}",
        flush=True,
    )
    stop.wait()
    http.shutdown()
    smtp.stop()


if __name__ == "__main__":
    main()
