"""Monitors on the real stack: points pushed through the gateway cross a threshold, and a real
webhook receiver and the stack's real SMTP server (the mail sink) each get exactly one firing
and one resolved message; a silence holds back the next; killing an evaluator with SIGKILL
mid-way loses and doubles nothing, while a second evaluator runs beside it the whole time.
"""

from __future__ import annotations

import json
import os
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest

import stack
from stack import BACKEND, MAIL, NewWorkspace, lib_sh, needs_stack, new_workspace, poll

pytestmark = needs_stack

INTERVAL = 2  # seconds between evaluations in this test


@dataclass
class Receiver:
    """A real HTTP server on loopback keeping every webhook it gets."""

    port: int = 0
    bodies: list[dict[str, Any]] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def got(self) -> list[tuple[str, str]]:
        with self.lock:
            return [(b["kind"], b["group"]["tags"].get("host", "")) for b in self.bodies]


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    rx = Receiver()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            with rx.lock:
                rx.bodies.append(json.loads(body))
                rx.keys.append(self.headers.get("X-Vigil-Idempotency-Key", ""))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    rx.port = server.server_address[1]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield rx
    server.shutdown()


class Agent(threading.Thread):
    """Writes `<measurement>,host=web-1 v=<value>` every 0.5 s through the gateway."""

    def __init__(self, ws: NewWorkspace, measurement: str) -> None:
        super().__init__(daemon=True)
        self.ws, self.measurement, self.value = ws, measurement, 50.0
        self.halt = threading.Event()

    def run(self) -> None:
        while not self.halt.is_set():
            now = int(time.time() * 1000)
            r = self.ws.write(f"{self.measurement},host=web-1 v={self.value} {now}", precision="ms")
            assert r.status_code == 204, r.text
            self.halt.wait(0.5)


def mail_to(address: str) -> list[dict[str, Any]]:
    r = httpx.get(f"{MAIL}/messages", params={"to": address}, timeout=10)
    assert r.status_code == 200, r.text
    return list(r.json())


def api(ws: NewWorkspace, method: str, path: str, **kw: Any) -> Any:
    r = httpx.request(
        method, f"{BACKEND}/api/v1/workspaces/{ws.id}{path}", headers=ws.auth, timeout=30, **kw
    )
    assert r.status_code < 300, f"{method} {path}: {r.status_code} {r.text}"
    return r.json()


def events(ws: NewWorkspace, monitor_id: str) -> list[dict[str, Any]]:
    data = api(ws, "GET", "/alerts/events", params={"monitor_id": monitor_id, "limit": 1000})[
        "data"
    ]
    return list(reversed(data))  # oldest first


@pytest.fixture
def second_evaluator() -> Iterator[None]:
    """A second vigil-alerting beside the stack's, on a port of its own."""
    port = stack.free_port()
    env = {**os.environ, "VIGIL_ALERTING_URL": f"http://127.0.0.1:{port}"}
    vigil_bin = (
        os.environ.get("VIGIL_VENV", str(stack.ROOT / ".vigil" / "venv")) + "/bin/vigil-alerting"
    )
    lib_sh(
        f"start_service alerting2 {port} VIGIL_ALERTING_PORT {vigil_bin} --port {port}\n"
        f"wait_http alerting2 http://127.0.0.1:{port}/health 60",
        env=env,
    )
    yield
    lib_sh("stop_service alerting2")


def test_threshold_to_one_webhook_and_one_email_each_way(
    receiver: Receiver, second_evaluator: None, stack_services: dict[str, stack.Service]
) -> None:
    ws = new_workspace("alerting")
    ws.set_plan("Stack tests: 1 s monitors", min_monitor_interval_seconds=1)
    ws.set_limits(min_monitor_interval_seconds=1)
    address = f"oncall-{uuid.uuid4().hex[:8]}@example.com"
    hook = api(
        ws,
        "POST",
        "/channels",
        json={
            "name": "hook",
            "config": {"type": "webhook", "url": f"http://127.0.0.1:{receiver.port}/hook"},
            "secret": "s" * 24,
        },
    )
    mail = api(
        ws,
        "POST",
        "/channels",
        json={"name": "mail", "config": {"type": "email", "addresses": [address]}},
    )
    measurement = f"alert_{uuid.uuid4().hex[:10]}"
    # another workspace writes the same measurement far above the threshold: a monitor only
    # ever reads its own workspace
    other = new_workspace("alerting-other")
    assert other.write(f"{measurement},host=web-1 v=1000").status_code == 204
    agent = Agent(ws, measurement)
    agent.start()
    try:
        poll(
            lambda: ws.series(f"M::{measurement}:(last(v))"),
            timeout=60,
            what="the agent's points queryable",
        )
        monitor = api(
            ws,
            "POST",
            "/monitors",
            json={
                "name": "Too hot",
                "query": f"M::{measurement}:(last(v)) BY host",
                "interval_seconds": INTERVAL,
                "window_seconds": 5,
                "conditions": [{"severity": "critical", "op": ">", "threshold": 90}],
                "routes": {"critical": [hook["id"], mail["id"]]},
                "group_grace_seconds": 600,
            },
        )
        mid = monitor["id"]
        time.sleep(2 * INTERVAL)
        assert events(ws, mid) == []

        # 1. the value crosses the threshold: one firing message to each channel
        agent.value = 97.0
        poll(lambda: receiver.got() == [("firing", "web-1")], timeout=60, what="a firing webhook")
        poll(lambda: len(mail_to(address)) == 1, timeout=30, what="a firing email")
        assert mail_to(address)[0]["subject"] == "[critical] Too hot is firing"
        fired = receiver.bodies[0]
        assert fired["value"] == 97.0 and fired["workspace"]["id"] == ws.id
        summary = api(ws, "GET", "/alerts/summary")
        assert summary["firing"] == 1 and summary["by_severity"] == {"critical": 1}

        # 2. back below: one resolved message to each
        agent.value = 20.0
        poll(
            lambda: receiver.got() == [("firing", "web-1"), ("resolved", "web-1")],
            timeout=60,
            what="a resolved webhook",
        )
        poll(lambda: len(mail_to(address)) == 2, timeout=30, what="a resolved email")
        time.sleep(3 * INTERVAL)
        assert receiver.got() == [("firing", "web-1"), ("resolved", "web-1")]
        assert [m["subject"] for m in mail_to(address)] == [
            "[critical] Too hot is firing",
            "[critical] Too hot is resolved",
        ]

        # 3. a silence: the next firing is recorded, muted, and not sent
        until = (datetime.now(UTC) + timedelta(minutes=10)).isoformat()
        silence = api(
            ws,
            "POST",
            "/silences",
            json={"comment": "maintenance", "monitor_id": mid, "ends_at": until},
        )
        agent.value = 99.0
        poll(
            lambda: [e["kind"] for e in events(ws, mid)][-1:] == ["firing"],
            timeout=60,
            what="the muted firing event",
        )
        last = events(ws, mid)[-1]
        assert (last["muted"], last["silence_id"]) == (True, silence["id"])
        time.sleep(3 * INTERVAL)
        assert len(receiver.got()) == 2 and len(mail_to(address)) == 2
        agent.value = 10.0
        poll(
            lambda: [e["kind"] for e in events(ws, mid)][-1:] == ["resolved"],
            timeout=60,
            what="the muted resolution",
        )
        api(ws, "DELETE", f"/silences/{silence['id']}")

        # 4. SIGKILL the stack's evaluator while the value crosses again; the second evaluator
        #    and the restarted one together tell it exactly once
        alerting = stack_services["alerting"]
        agent.value = 98.0
        time.sleep(INTERVAL * 0.7)
        alerting.kill9()
        poll(
            lambda: receiver.got()[-1:] == [("firing", "web-1")],
            timeout=60,
            what="firing after the kill",
        )
        alerting.start()
        agent.value = 15.0
        poll(
            lambda: receiver.got()[-1:] == [("resolved", "web-1")],
            timeout=60,
            what="resolved after the restart",
        )
        time.sleep(3 * INTERVAL)
    finally:
        agent.halt.set()
        agent.join(5)

    kinds = [(e["kind"], e["muted"]) for e in events(ws, mid)]
    assert kinds == [
        ("firing", False),
        ("resolved", False),
        ("firing", True),
        ("resolved", True),
        ("firing", False),
        ("resolved", False),
    ]
    assert receiver.got() == [("firing", "web-1"), ("resolved", "web-1")] * 2
    assert Counter(receiver.keys).most_common(1)[0][1] == 1, "a webhook was delivered twice"
    assert len(mail_to(address)) == 4
    notes = api(ws, "GET", "/alerts/notifications", params={"limit": 100})["data"]
    assert Counter(n["status"] for n in notes) == {"sent": 8}


def test_a_recording_rule_writes_through_the_gateway_into_its_workspace() -> None:
    ws = new_workspace("recording")
    ws.set_plan("Stack tests: 1 s monitors", min_monitor_interval_seconds=1)
    ws.set_limits(min_monitor_interval_seconds=1)
    source = f"rec_{uuid.uuid4().hex[:10]}"
    now = int(time.time())
    lines = "\n".join(f"{source},host=web-{i} v={10 * (i + 1)} {now}" for i in range(3))
    assert ws.write(lines).status_code == 204
    poll(
        lambda: len(ws.series(f"M::{source}:(last(v)) BY host")) == 3,
        timeout=60,
        what="source data",
    )
    before = ws.usage()["points_today"]
    rule = api(
        ws,
        "POST",
        "/recording-rules",
        json={
            "name": "per host",
            "query": f"M::{source}:(max(v)) BY host",
            "interval_seconds": 2,
            "window_seconds": 600,
            "measurement": f"{source}_max",
        },
    )
    series = poll(
        lambda: ws.series(f"M::{source}_max:(last(max_v)) BY host"),
        timeout=60,
        what="the recording rule's points",
    )
    assert sorted((s["tags"]["host"], s["values"][0][1]) for s in series) == [
        ("web-0", 10),
        ("web-1", 20),
        ("web-2", 30),
    ]
    got = api(ws, "GET", f"/recording-rules/{rule['id']}")
    assert got["last_error"] is None and got["last_points"] == 3
    # written through the gateway: counted as the workspace's ingest, under a key it holds
    poll(lambda: ws.usage()["points_today"] >= before + 3, timeout=90, what="counted as ingest")
    keys = api(ws, "GET", "/keys")["data"]
    assert [k["name"] for k in keys if k["created_by"] is None] == ["Recording rules"]
