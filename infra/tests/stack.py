"""Helpers shared by the system tests of the assembled stack.

The tests run against the stack infra/test.sh started (ports and VIGIL_HOME in the
environment, keys from demo.env). Services are controlled the way the infra scripts control
them: through infra/lib.sh's start_service/stop_service and the pid files in
$VIGIL_HOME/run/<service>.pid. A service is restarted with the exact command line and
environment it was first started with, read from /proc before it is stopped.
"""

from __future__ import annotations

import gzip
import os
import re
import shlex
import signal
import socket
import struct
import subprocess
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cramjam
import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
BACKEND = os.environ.get("VIGIL_BACKEND_URL", "http://127.0.0.1:8000")
GATEWAY = os.environ.get("VIGIL_GATEWAY_URL", "http://127.0.0.1:8001")
STORAGE = os.environ.get("VIGIL_STORAGE_URL", "http://127.0.0.1:8482")
CONSUMER = os.environ.get("VIGIL_CONSUMER_URL", "http://127.0.0.1:8002")
ALERTING = os.environ.get("VIGIL_ALERTING_URL", "http://127.0.0.1:8003")
MAIL = os.environ.get("VIGIL_MAIL_URL", "http://127.0.0.1:8026")
INGEST_KEY = os.environ.get("VIGIL_DEMO_INGEST_KEY", "")
QUERY_KEY = os.environ.get("VIGIL_DEMO_QUERY_KEY", "")
HOME = Path(os.environ.get("VIGIL_HOME", str(ROOT / ".vigil")))
CACHE = Path(os.environ.get("VIGIL_CACHE", str(ROOT / ".vigil")))
BIN = Path(os.environ.get("VIGIL_BIN", str(CACHE / "bin")))
RUN = HOME / "run"
LOG = HOME / "log"

needs_stack = pytest.mark.skipif(
    not (INGEST_KEY and QUERY_KEY and os.environ.get("VIGIL_HOME")),
    reason="needs the running test stack's environment and demo.env (run through `make test`)",
)


def poll(fn: Callable[[], Any], timeout: float = 30.0, every: float = 0.5, what: str = "") -> Any:
    """Call fn until it returns something truthy; fail with its last value after timeout."""
    deadline = time.monotonic() + timeout
    last: Any = None
    while True:
        last = fn()
        if last:
            return last
        if time.monotonic() >= deadline:
            pytest.fail(f"{what or 'condition'} not met within {timeout}s; last value: {last!r}")
        time.sleep(every)


def internal_token() -> str:
    """The token vigil-storage's internal API wants: the environment's, else the stack's file."""
    token = os.environ.get("VIGIL_INTERNAL_TOKEN", "")
    if not token and (HOME / "internal_token").exists():
        token = (HOME / "internal_token").read_text().strip()
    assert token, f"no VIGIL_INTERNAL_TOKEN and no {HOME / 'internal_token'}"
    return token


@dataclass
class NewWorkspace:
    """A workspace of its own, as a new customer starts: its owner's session and an ingest key."""

    id: str
    name: str
    auth: dict[str, str]
    ingest_key: str

    def write(self, lines: str, precision: str = "s") -> httpx.Response:
        """Line protocol through the gateway, with the workspace's ingest key."""
        return httpx.post(
            f"{GATEWAY}/v1/write/metric?precision={precision}",
            content=lines,
            headers={"Authorization": f"Token {self.ingest_key}"},
            timeout=15,
        )

    def remote_write(self, series: list[Series]) -> httpx.Response:
        """Prometheus remote_write through the gateway, with the workspace's ingest key."""
        return httpx.post(
            f"{GATEWAY}/api/v1/write",
            content=remote_write_body(series),
            headers={**REMOTE_WRITE_HEADERS, "Authorization": f"Bearer {self.ingest_key}"},
            timeout=30,
        )

    def series(self, query: str) -> list[dict[str, Any]]:
        """The series one DQL query answers, asked through the backend as the owner."""
        r = httpx.post(
            f"{BACKEND}/api/v1/workspaces/{self.id}/query/raw",
            json={"queries": [{"query": query}]},
            headers=self.auth,
            timeout=30,
        )
        assert r.status_code == 200, r.text
        return list(r.json()["content"][0].get("series") or [])

    def set_limits(self, **changes: int) -> None:
        """Change the workspace's limits as its owner (Settings -> Limits)."""
        r = httpx.patch(
            f"{BACKEND}/api/v1/workspaces/{self.id}/limits",
            json=changes,
            headers=self.auth,
            timeout=15,
        )
        assert r.status_code == 200, r.text

    def set_plan(self, name: str, **bounds: int) -> None:
        """Put the workspace on the plan ``name`` with these bounds, as a platform operator
        does with ``vigil-admin plan`` (a missing plan starts from the default plan's bounds)."""
        pairs = " ".join(f"{k}={v}" for k, v in bounds.items())
        plan = shlex.quote(name)
        lib_sh(
            f'load_secrets; "$VIGIL_VENV/bin/vigil-admin" plan set {plan} {pairs}'
            f' && "$VIGIL_VENV/bin/vigil-admin" plan assign {self.id} {plan}'
        )

    def usage(self) -> dict[str, Any]:
        r = httpx.get(f"{BACKEND}/api/v1/workspaces/{self.id}/usage", headers=self.auth, timeout=30)
        assert r.status_code == 200, r.text
        return dict(r.json())


def emailed_token(to: str, path: str) -> str:
    """The token of the newest link to ``path`` the stack emailed to ``to`` (its mail sink)."""

    def find() -> str:
        r = httpx.get(f"{MAIL}/messages", params={"to": to}, timeout=5)
        r.raise_for_status()
        for mail in reversed(r.json()):
            match = re.search(re.escape(path) + r"#token=(vge_[A-Za-z0-9_-]+)", mail["text"])
            if match:
                return match.group(1)
        return ""

    token: str = poll(find, timeout=20, every=0.2, what=f"a {path} link emailed to {to}")
    return token


def sign_up(email: str, password: str) -> dict[str, Any]:
    """Sign up as people do: the address gets a link, whose token sets the password; returns
    the session (access and refresh tokens)."""
    r = httpx.post(f"{BACKEND}/api/v1/auth/signup", json={"email": email}, timeout=15)
    assert r.status_code == 202, r.text
    token = emailed_token(email, "/signup/complete")
    r = httpx.post(
        f"{BACKEND}/api/v1/auth/signup/complete",
        json={"token": token, "password": password},
        timeout=15,
    )
    assert r.status_code == 201, r.text
    return dict(r.json())


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _field(number: int, payload: bytes) -> bytes:
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


Series = tuple[dict[str, str], list[tuple[float, int]]]


def remote_write_body(series: list[Series]) -> bytes:
    """A Prometheus remote_write 1.0 WriteRequest, snappy-compressed, encoded here rather than
    by the code under test: ``[(labels, [(value, timestamp_ms), ...]), ...]``."""
    request = b""
    for labels, samples in series:
        ts = b"".join(
            _field(1, _field(1, k.encode()) + _field(2, v.encode())) for k, v in labels.items()
        )
        for value, at in samples:
            ts += _field(2, b"\x09" + struct.pack("<d", value) + b"\x10" + _varint(at))
        request += _field(1, ts)
    return bytes(cramjam.snappy.compress_raw(request))


REMOTE_WRITE_HEADERS = {
    "Content-Encoding": "snappy",
    "Content-Type": "application/x-protobuf",
    "X-Prometheus-Remote-Write-Version": "0.1.0",
}


def demo_auth() -> dict[str, str]:
    """The Authorization header of a fresh session of the demo user (`make up`'s demo.env)."""
    r = httpx.post(
        f"{BACKEND}/api/v1/auth/login",
        json={
            "email": os.environ["VIGIL_DEMO_EMAIL"],
            "password": os.environ["VIGIL_DEMO_PASSWORD"],
        },
        timeout=30,
    )
    assert r.status_code == 200, r.text
    return {"Authorization": f"Bearer {r.json()['access_token']}"}


def new_workspace(kind: str) -> NewWorkspace:
    """Sign up a new user, create a workspace named after ``kind`` and an ingest key in it."""
    suffix = uuid.uuid4().hex[:10]
    session = sign_up(f"{kind}-{suffix}@example.com", f"pw-{suffix}-Secret!")
    auth = {"Authorization": f"Bearer {session['access_token']}"}
    r = httpx.post(
        f"{BACKEND}/api/v1/workspaces", json={"name": f"{kind} {suffix}"}, headers=auth, timeout=15
    )
    assert r.status_code == 201, r.text
    ws = r.json()
    r = httpx.post(
        f"{BACKEND}/api/v1/workspaces/{ws['id']}/keys",
        json={"name": "agent", "scope": "ingest"},
        headers=auth,
        timeout=15,
    )
    assert r.status_code == 201, r.text
    return NewWorkspace(ws["id"], ws["name"], auth, r.json()["key"])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- queries --------------------------------------------------------------------------------------


def dql(query: str, key: str = QUERY_KEY, **extra: Any) -> httpx.Response:
    return httpx.post(
        f"{BACKEND}/v1/query/raw",
        json={"queries": [{"query": query, **extra}]},
        headers={"Authorization": f"Bearer {key}"},
        timeout=30,
    )


def dql_series(query: str, **extra: Any) -> list[dict[str, Any]]:
    r = dql(query, **extra)
    assert r.status_code == 200, f"{query}: {r.status_code} {r.text}"
    return r.json()["content"][0]["series"]


@dataclass
class Counts:
    count: int
    distinct: int
    min: float | None
    max: float | None


def field_counts(
    measurement: str, field_name: str, start_ms: int, end_ms: int, where: str = ""
) -> Counts:
    """count, count_distinct, min and max of a field over [start_ms, end_ms), all series merged."""
    q = (
        f"M::{measurement}:(count({field_name}), count_distinct({field_name}), min({field_name}), "
        f"max({field_name})) {where} [{start_ms}:{end_ms}]"
    )
    series = dql_series(q)
    if not series:
        return Counts(0, 0, None, None)
    assert len(series) == 1, series
    values = series[0]["values"]
    assert len(values) == 1, series
    _, count, distinct, lo, hi = values[0]
    return Counts(int(count or 0), int(distinct or 0), lo, hi)


def prom_query(query: str) -> dict[str, Any]:
    r = httpx.get(
        f"{BACKEND}/prometheus/api/v1/query",
        params={"query": query},
        headers={"Authorization": f"Bearer {QUERY_KEY}"},
        timeout=30,
    )
    assert r.status_code == 200, f"{query}: {r.status_code} {r.text}"
    return r.json()


# --- services -------------------------------------------------------------------------------------


def pid_of(name: str) -> int | None:
    """The live pid recorded in $VIGIL_HOME/run/<name>.pid, or None."""
    try:
        pid = int((RUN / f"{name}.pid").read_text().strip())
    except (OSError, ValueError):
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    return pid


def lib_sh(script: str, env: dict[str, str] | None = None, timeout: float = 150) -> str:
    """Run a bash snippet with infra/lib.sh sourced; fail the test with its output if it fails."""
    cmd = f"source {shlex.quote(str(ROOT / 'infra' / 'lib.sh'))}\n{script}"
    p = subprocess.run(
        ["bash", "-c", cmd],
        env=env or dict(os.environ),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    if p.returncode != 0:
        raise AssertionError(f"bash failed ({p.returncode}): {script}\n{p.stdout}\n{p.stderr}")
    return p.stdout


@dataclass
class Service:
    """A service started by infra/up.sh, with what is needed to start it again exactly so."""

    name: str
    port_var: str
    health: str  # URL answering 2xx when up ("" = port only)
    argv: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)

    @property
    def port(self) -> str:
        return os.environ.get(self.port_var, "")

    def capture(self) -> None:
        """Record the running process's command line and environment."""
        pid = pid_of(self.name)
        if pid is None:
            raise AssertionError(
                f"{self.name} is not running (no live pid in {RUN}/{self.name}.pid)"
            )
        self.argv = Path(f"/proc/{pid}/cmdline").read_bytes().rstrip(b"\0").decode().split("\0")
        raw = Path(f"/proc/{pid}/environ").read_bytes().rstrip(b"\0").decode(errors="replace")
        self.env = dict(kv.split("=", 1) for kv in raw.split("\0") if "=" in kv)

    def running(self) -> bool:
        return pid_of(self.name) is not None

    def kill9(self) -> None:
        pid = pid_of(self.name)
        assert pid is not None, f"{self.name} is not running"
        os.killpg(pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while pid_of(self.name) is not None and time.monotonic() < deadline:
            time.sleep(0.05)

    def stop(self) -> None:
        lib_sh(f"stop_service {self.name}")

    def start(self) -> None:
        if self.name == "kafka":
            lib_sh(f"{shlex.quote(str(ROOT / 'infra/kafka/start.sh'))}")
            return
        assert self.argv, f"{self.name}: command line unknown (capture() first)"
        env = {**self.env, "VIGIL_HOME": str(HOME)}
        argv = " ".join(shlex.quote(a) for a in self.argv)
        wait = f"wait_http {self.name} {shlex.quote(self.health)} 60" if self.health else ""
        lib_sh(f"start_service {self.name} {self.port} {self.port_var} {argv}\n{wait}", env=env)


class ExtraConsumer:
    """Another vigil-consumer process of the stack's group: the stack consumer's command line
    and environment, its status on a free port, in a process group of its own."""

    def __init__(self, like: Service) -> None:
        assert like.argv, "capture() the stack's consumer first"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**like.env, "VIGIL_HOME": str(HOME), "VIGIL_CONSUMER_PORT": str(self.port)}
        self.log_path = LOG / f"consumer-{self.port}.log"
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(
                like.argv,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def health(self) -> dict[str, Any]:
        try:
            return dict(httpx.get(f"{self.url}/health", timeout=5).json())
        except (httpx.HTTPError, ValueError):
            return {}

    def kill9(self) -> None:
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.kill9()


def consumer_points(url: str) -> float:
    """Points a consumer has written to storage since it started (its own counter)."""
    try:
        text = httpx.get(f"{url}/metrics", timeout=5).text
    except httpx.TransportError:
        return 0.0
    return sum(
        float(line.rsplit(" ", 1)[1])
        for line in text.splitlines()
        if line.startswith("vigil_consumer_points_total")
    )


def services() -> dict[str, Service]:
    return {
        s.name: s
        for s in (
            Service("storage", "VIGIL_STORAGE_PORT", f"{STORAGE}/health"),
            Service("gateway", "VIGIL_GATEWAY_PORT", f"{GATEWAY}/health"),
            Service("consumer", "VIGIL_CONSUMER_PORT", f"{CONSUMER}/health"),
            Service("alerting", "VIGIL_ALERTING_PORT", f"{ALERTING}/health"),
            Service("kafka", "VIGIL_KAFKA_PORT", ""),
        )
    }


def wait_ingest_path(timeout: float = 90) -> None:
    """Until a fresh point goes gateway -> Kafka -> consumer -> storage and is queryable."""
    measurement = f"ready_{os.urandom(4).hex()}"
    t = int(time.time() * 1000)
    deadline = time.monotonic() + timeout
    sent = False
    while not sent:
        try:
            r = httpx.post(
                f"{GATEWAY}/v1/write/metric?precision=ms",
                content=f"{measurement} v=1 {t}\n",
                headers={"Authorization": f"Token {INGEST_KEY}"},
                timeout=10,
            )
            sent = r.status_code == 204
        except httpx.TransportError:
            pass
        if not sent:
            if time.monotonic() > deadline:
                pytest.fail("the gateway did not accept a write after recovery")
            time.sleep(0.5)
    poll(
        lambda: field_counts(measurement, "v", t, t + 1).count == 1,
        timeout=max(5.0, deadline - time.monotonic()),
        what="a fresh point queryable after recovery",
    )


# --- a writer behaving like an agent --------------------------------------------------------------


class SeqWriter(threading.Thread):
    """Streams points `<measurement>,host=h seq=<n> <base+n ms>` through the gateway in batches.

    Like an agent: a batch that was not answered 204 (503, 429, 5xx, connection error,
    timeout) is sent again, the same bytes with the same timestamps, until it is accepted.
    Any other answer (4xx) is a failure of the test.
    """

    def __init__(
        self, measurement: str, batch: int = 20, pause: float = 0.1, key: str = INGEST_KEY
    ) -> None:
        super().__init__(daemon=True, name=f"writer-{measurement}")
        self.measurement = measurement
        self.batch = batch
        self.pause = pause
        self.key = key
        self.base_ms = int(time.time() * 1000) - 120_000
        self.sent = 0  # points accepted with 204
        self.statuses: Counter[str] = Counter()
        self.error: str | None = None
        self._halt = threading.Event()
        self._abandon = threading.Event()

    @property
    def start_ms(self) -> int:
        return self.base_ms

    @property
    def end_ms(self) -> int:
        return self.base_ms + self.sent

    def body(self, first: int, n: int) -> bytes:
        lines = "".join(
            f"{self.measurement},host=h seq={i} {self.base_ms + i}\n"
            for i in range(first, first + n)
        )
        return gzip.compress(lines.encode())

    def run(self) -> None:
        with httpx.Client(timeout=10) as client:
            while not self._halt.is_set():
                body = self.body(self.sent, self.batch)
                while not self._abandon.is_set():  # this batch until accepted
                    try:
                        r = client.post(
                            f"{GATEWAY}/v1/write/metric?precision=ms",
                            content=body,
                            headers={
                                "Authorization": f"Token {self.key}",
                                "Content-Encoding": "gzip",
                            },
                        )
                    except httpx.TransportError as e:
                        self.statuses[type(e).__name__] += 1
                        time.sleep(0.25)
                        continue
                    self.statuses[str(r.status_code)] += 1
                    if r.status_code == 204:
                        break
                    if r.status_code in (429, 503) or r.status_code >= 500:
                        retry_after = float(r.headers.get("Retry-After", "0.5") or 0.5)
                        time.sleep(min(retry_after, 1.0))
                        continue
                    self.error = f"batch at seq {self.sent}: {r.status_code} {r.text}"
                    return
                else:
                    return
                self.sent += self.batch
                time.sleep(self.pause)

    def wait_sent(self, points: int, timeout: float = 60) -> None:
        """Until at least `points` more points than now have been accepted."""
        target = self.sent + points
        poll(
            lambda: self.sent >= target or self.error,
            timeout=timeout,
            every=0.05,
            what=f"{points} more points accepted by the gateway ({dict(self.statuses)})",
        )
        assert self.error is None, self.error

    def finish(self, timeout: float = 90) -> None:
        self._halt.set()
        self.join(timeout)
        if self.is_alive():
            self._abandon.set()
            self.join(15)
            pytest.fail(
                f"the gateway did not accept the writer's last batch within {timeout}s: "
                f"{dict(self.statuses)}"
            )
        assert self.error is None, self.error


def assert_exactly_once(w: SeqWriter, timeout: float = 90) -> Counts:
    """Poll until every point the writer sent is queryable; then none may be missing or doubled."""
    assert w.sent > 0
    last: list[Counts] = []

    def complete() -> bool:
        c = field_counts(w.measurement, "seq", w.start_ms, w.end_ms)
        last[:] = [c]
        return c.count >= w.sent

    deadline = time.monotonic() + timeout
    while not complete() and time.monotonic() < deadline:
        time.sleep(0.5)
    c = last[0]
    assert c.count == w.sent, (
        f"{w.sent} points sent, {c.count} queryable ({c}); writer saw {dict(w.statuses)}"
    )
    assert c.distinct == w.sent, f"duplicate values: {c}"
    assert (c.min, c.max) == (0, w.sent - 1), c
    assert w.sent <= 10_000, "the raw-row check below reads at most 10,000 rows: send fewer points"
    # Raw rows: one per point, each timestamp once.
    rows = dql_series(
        f"M::{w.measurement}:(seq) [{w.start_ms}:{w.end_ms}]",
        limit=10_000,
        disable_slimit=True,
    )
    values = [v for s in rows for v in s["values"]]
    times = Counter(t for t, _ in values)
    doubled = [t for t, n in times.items() if n > 1]
    assert len(values) == w.sent and not doubled, (len(values), doubled[:10])
    assert sorted(int(v) for _, v in values) == list(range(w.sent))
    return c
