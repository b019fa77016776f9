"""A real HTTP server on loopback that records the webhooks it receives (for tests)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Receiver:
    host: str
    port: int
    received: list[Received] = field(default_factory=list)
    # statuses to answer with, in turn (then 204); a "redirect:<url>" answers 307 to it
    answers: list[int | str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/hook"

    def bodies(self) -> list[Any]:
        with self.lock:
            return [r.json() for r in self.received]


@contextmanager
def webhook_receiver() -> Iterator[Receiver]:
    receiver = Receiver("127.0.0.1", 0)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            with receiver.lock:
                receiver.received.append(Received(self.path, dict(self.headers), body))
                answer = receiver.answers.pop(0) if receiver.answers else 204
            if isinstance(answer, str) and answer.startswith("redirect:"):
                self.send_response(307)
                self.send_header("Location", answer.removeprefix("redirect:"))
            else:
                self.send_response(int(answer))
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    receiver.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        server.shutdown()
        server.server_close()
