"""Real clients against the gateway, sending exactly as they do in the field.

- vmagent, built from the pinned VictoriaMetrics module, scraping a local /metrics endpoint
  and remote-writing into the gateway (its first, zstd-compressed attempt must get a 415 so it
  falls back to Prometheus' snappy protocol; no 5xx, nothing dropped).
- Telegraf's `influxdb` output (CREATE DATABASE, Basic auth, gzip, chunked, ns timestamps),
  its `influxdb_v2` output (Token auth), and DataKit's `/v1/write/metric?token=`.
- Every protocol refuses the reserved tenant label with a 400 naming it.
- A key revoked in the backend stops working at the gateway within 10 s.
"""

from __future__ import annotations

import base64
import gzip
import os
import shutil
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest

import stack
from stack import GATEWAY, INGEST_KEY, needs_stack, poll

pytestmark = needs_stack

VM_MODULE = "github.com/VictoriaMetrics/VictoriaMetrics"
VM_VERSION = os.environ.get("VIGIL_VM_VERSION") or next(
    line.split("=", 1)[1]
    for line in (stack.ROOT / "infra" / "defaults.env").read_text().splitlines()
    if line.startswith("VIGIL_VM_VERSION=")
)


def uid() -> str:
    return uuid.uuid4().hex[:10]


def last_by(measurement: str, field_name: str, by: str) -> dict[str, float]:
    series = stack.dql_series(f"M::{measurement}:(last({field_name})) [15m] BY {by}")
    return {s["tags"][by]: s["values"][0][1] for s in series}


# --- vmagent --------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def vmagent_bin() -> Path:
    """.vigil/bin/vmagent, built from the pinned module when missing (then cached)."""
    target = stack.BIN / "vmagent"
    if target.exists():
        return target
    go = shutil.which("go")
    if go is None:
        pytest.skip(f"vmagent is not built ({target}) and the Go toolchain is missing to build it")
    with tempfile.TemporaryDirectory(prefix="vmagent-build-") as mod:
        env = {**os.environ, "GOFLAGS": "-mod=mod", "CGO_ENABLED": "0"}
        steps = [
            [go, "mod", "init", "vigil.local/vmagent"],
            [go, "mod", "edit", f"-require={VM_MODULE}@{VM_VERSION}"],
            [go, "build", "-o", str(target), f"{VM_MODULE}/app/vmagent"],
        ]
        for cmd in steps:
            p = subprocess.run(
                cmd, cwd=mod, env=env, capture_output=True, text=True, timeout=900, check=False
            )
            assert p.returncode == 0, f"{' '.join(cmd)} failed:\n{p.stdout}\n{p.stderr}"
    return target


class _Exporter(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = self.server.payload.encode()  # type: ignore[attr-defined]
        self.send_response(200)
        self.send_header("Content-Type", "text/plain; version=0.0.4")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def exporter() -> Iterator[ThreadingHTTPServer]:
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _Exporter)
    srv.payload = ""  # type: ignore[attr-defined]
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield srv
    srv.shutdown()
    srv.server_close()


def vmagent_metrics(port: int) -> dict[str, float]:
    """vmagent's own remote-write counters, keyed by their full text (name + labels)."""
    text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=5).text
    out = {}
    for line in text.splitlines():
        if line.startswith("vmagent_remotewrite_"):
            name, _, value = line.rpartition(" ")
            out[name] = float(value)
    return out


def test_vmagent_remote_write(
    vmagent_bin: Path, exporter: ThreadingHTTPServer, tmp_path: Path
) -> None:
    metric = f"vmc{uid()}:probe"
    exporter.payload = f'# TYPE {metric} gauge\n{metric}{{kind="a"}} 42.5\n{metric}{{kind="b"}} 7\n'  # type: ignore[attr-defined]
    config = tmp_path / "scrape.yml"
    config.write_text(
        "global:\n  scrape_interval: 1s\n"
        "scrape_configs:\n  - job_name: compat\n"
        f"    static_configs:\n      - targets: ['127.0.0.1:{exporter.server_address[1]}']\n"
    )
    port = stack.free_port()
    log_path = tmp_path / "vmagent.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [
                str(vmagent_bin),
                f"-httpListenAddr=127.0.0.1:{port}",
                f"-promscrape.config={config}",
                f"-remoteWrite.tmpDataPath={tmp_path / 'queue'}",
                f"-remoteWrite.url={GATEWAY}/api/v1/write",
                f"-remoteWrite.bearerToken={INGEST_KEY}",
                "-remoteWrite.flushInterval=500ms",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        measurement, field_name = metric.split(":")

        def arrived() -> dict[str, float]:
            assert proc.poll() is None, log_path.read_text()
            got = last_by(measurement, field_name, "kind")
            return got if got == {"a": 42.5, "b": 7} else {}

        poll(arrived, timeout=60, what=f"vmagent's samples of {metric} queryable through DQL")

        def prom() -> dict[str, tuple[dict[str, str], float]]:
            r = stack.prom_query(metric)
            got = {
                s["metric"]["kind"]: (s["metric"], float(s["value"][1]))
                for s in r["data"]["result"]
            }
            return got if {k: v for k, (_, v) in got.items()} == {"a": 42.5, "b": 7} else {}

        result = poll(prom, timeout=15, what=f"{metric} through the Prometheus API")
        labels = result["a"][0]
        assert labels["__name__"] == metric and labels["job"] == "compat", labels
        assert labels["instance"] == f"127.0.0.1:{exporter.server_address[1]}", labels
        assert "vigil_workspace" not in labels, labels

        counters = vmagent_metrics(port)
        by_status: dict[str, float] = {}
        for name, value in counters.items():
            if name.startswith("vmagent_remotewrite_requests_total{") and 'status_code="' in name:
                code = name.split('status_code="', 1)[1].split('"', 1)[0]
                by_status[code] = by_status.get(code, 0) + value
        assert by_status.get("415", 0) >= 1, f"vmagent's zstd attempt should get 415: {by_status}"
        assert not any(code.startswith("5") for code in by_status), by_status
        assert by_status.get("2XX", 0) >= 1, by_status
        dropped = sum(
            v
            for k, v in counters.items()
            if k.startswith("vmagent_remotewrite_packets_dropped_total")
        )
        assert dropped == 0, counters
        assert (
            "Downgrading protocol from VictoriaMetrics to Prometheus remote write"
            in log_path.read_text()
        )
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


def test_remote_write_refuses_tenant_label() -> None:
    name = f"rwc{uid()}_probe"
    now = int(time.time() * 1000)
    headers = {"Authorization": f"Bearer {INGEST_KEY}", **stack.REMOTE_WRITE_HEADERS}
    good = stack.remote_write_body([({"__name__": name, "job": "j"}, [(3.5, now)])])
    r = httpx.post(f"{GATEWAY}/api/v1/write", content=good, headers=headers, timeout=15)
    assert r.status_code == 204, r.text
    bad = stack.remote_write_body([({"__name__": name, "vigil_workspace": "other"}, [(1, now)])])
    r = httpx.post(f"{GATEWAY}/api/v1/write", content=bad, headers=headers, timeout=15)
    assert r.status_code == 400 and "vigil_workspace" in r.text, (r.status_code, r.text)
    poll(
        lambda: last_by(name.split("_", 1)[0], name.split("_", 1)[1], "job") == {"j": 3.5},
        timeout=30,
        what="the hand-made remote_write sample queryable",
    )


# --- Telegraf and DataKit -------------------------------------------------------------------------

TELEGRAF_UA = "Telegraf/1.36.1 Go/1.24.4"


def chunks(data: bytes, size: int = 1000) -> Iterator[bytes]:
    for i in range(0, len(data), size):
        yield data[i : i + size]


def test_telegraf_influxdb_v1_output() -> None:
    m = f"tg1{uid()}"
    basic = "Basic " + base64.b64encode(f"telegraf:{INGEST_KEY}".encode()).decode()
    with httpx.Client(base_url=GATEWAY, timeout=15, headers={"User-Agent": TELEGRAF_UA}) as c:
        r = c.post(
            "/query", params={"q": 'CREATE DATABASE "telegraf"'}, headers={"Authorization": basic}
        )
        assert r.status_code == 200, r.text

        now_ns = time.time_ns()
        lines = "".join(
            f"{m},cpu=cpu{i},host=tg-host usage_user={i + 0.5},usage_idle={99 - i},n={i}i "
            f"{now_ns - i * 1_000_000}\n"
            for i in range(200)
        ).encode()
        body = gzip.compress(lines)
        r = c.post(
            "/write",
            params={"db": "telegraf"},
            content=chunks(body),
            headers={
                "Authorization": basic,
                "Content-Encoding": "gzip",
                "Content-Type": "text/plain; charset=utf-8",
            },
        )
        assert (
            r.request.headers.get("Transfer-Encoding") == "chunked"
            and "Content-Length" not in r.request.headers
        )
        assert r.status_code == 204, r.text

        bad = gzip.compress(f"{m},vigil_workspace=other,host=x usage_user=1 {now_ns}\n".encode())
        r = c.post(
            "/write",
            params={"db": "telegraf"},
            content=chunks(bad),
            headers={"Authorization": basic, "Content-Encoding": "gzip"},
        )
        assert r.status_code == 400 and "vigil_workspace" in r.text, (r.status_code, r.text)

    def arrived() -> bool:
        got = stack.dql_series(
            f"M::{m}:(last(usage_user), last(usage_idle), last(n), count(usage_user)) [15m] BY cpu",
            disable_slimit=True,
        )
        vals = {s["tags"]["cpu"]: s["values"][0][1:] for s in got}
        return len(vals) == 200 and all(
            vals[f"cpu{i}"] == [i + 0.5, 99 - i, i, 1] for i in range(200)
        )

    poll(arrived, timeout=30, what="Telegraf influxdb points queryable with their values")
    # ns timestamps were read as ns: the newest point sits at the time sent, to the ms.
    rows = stack.dql_series(f"M::{m}:(usage_user) {{cpu = 'cpu0'}} [15m]")
    assert rows[0]["values"][0][0] == now_ns // 1_000_000, rows


def test_telegraf_influxdb_v2_output() -> None:
    m = f"tg2{uid()}"
    now_ns = time.time_ns()
    lines = (
        f"{m},host=tg2-a,region=eu load1=0.25,procs=12i {now_ns}\n"
        f"{m},host=tg2-b,region=eu load1=1.75,procs=3i {now_ns}\n"
    )
    headers = {
        "Authorization": f"Token {INGEST_KEY}",
        "Content-Encoding": "gzip",
        "Content-Type": "text/plain; charset=utf-8",
        "User-Agent": TELEGRAF_UA,
    }
    params = {"org": "o", "bucket": "b", "precision": "ns"}
    r = httpx.post(
        f"{GATEWAY}/api/v2/write",
        params=params,
        content=gzip.compress(lines.encode()),
        headers=headers,
        timeout=15,
    )
    assert r.status_code == 204, r.text
    bad = f"{m},host=x,vigil_workspace=other load1=1 {now_ns}\n"
    r = httpx.post(
        f"{GATEWAY}/api/v2/write",
        params=params,
        content=gzip.compress(bad.encode()),
        headers=headers,
        timeout=15,
    )
    assert r.status_code == 400 and "vigil_workspace" in r.text, (r.status_code, r.text)
    poll(
        lambda: last_by(m, "load1", "host") == {"tg2-a": 0.25, "tg2-b": 1.75},
        timeout=30,
        what="influxdb_v2 points",
    )
    assert last_by(m, "procs", "host") == {"tg2-a": 12, "tg2-b": 3}
    rows = stack.dql_series(f"M::{m}:(load1) {{host = 'tg2-a'}} [15m]")
    assert rows[0]["values"][0][0] == now_ns // 1_000_000, rows


def test_datakit_write_metric_with_token_parameter() -> None:
    m = f"dk{uid()}"
    now_s = int(time.time())
    lines = (
        f"{m},host=dk-a,service=web latency=12.5,ok=true {now_s}\n"
        f"{m},host=dk-b,service=web latency=3 {now_s}\n"
    )
    url = f"{GATEWAY}/v1/write/metric"
    r = httpx.post(url, params={"precision": "s", "token": INGEST_KEY}, content=lines, timeout=15)
    assert r.status_code == 204, r.text
    bad = f"{m},host=x latency=1 {now_s}\n{m},host=x,vigil_workspace=other latency=1 {now_s}\n"
    r = httpx.post(url, params={"precision": "s", "token": INGEST_KEY}, content=bad, timeout=15)
    assert r.status_code == 400 and "vigil_workspace" in r.text and "line 2" in r.text, (
        r.status_code,
        r.text,
    )
    poll(
        lambda: last_by(m, "latency", "host") == {"dk-a": 12.5, "dk-b": 3},
        timeout=30,
        what="DataKit points",
    )
    rows = stack.dql_series(f"M::{m}:(latency) {{host = 'dk-a'}} [15m]")
    assert rows[0]["values"][0][0] == now_s * 1000, rows


# --- key revocation -------------------------------------------------------------------------------


def test_revoked_key_stops_working_within_10s() -> None:
    backend = stack.BACKEND
    auth = stack.demo_auth()
    ws = os.environ["VIGIL_DEMO_WORKSPACE"]
    r = httpx.post(
        f"{backend}/api/v1/workspaces/{ws}/keys",
        json={"name": f"revoke-{uid()}", "scope": "ingest"},
        headers=auth,
        timeout=15,
    )
    assert r.status_code in (200, 201), r.text
    created = r.json()
    key, key_id = created["key"], created["id"]

    def write() -> int:
        line = f"revoke_probe,key={key_id[:8]} v=1\n"
        return httpx.post(
            f"{GATEWAY}/v1/write/metric",
            content=line,
            headers={"Authorization": f"Token {key}"},
            timeout=10,
        ).status_code

    assert write() == 204
    r = httpx.delete(f"{backend}/api/v1/workspaces/{ws}/keys/{key_id}", headers=auth, timeout=15)
    assert r.status_code in (200, 204), r.text
    revoked_at = time.monotonic()
    last = 204
    while time.monotonic() - revoked_at < 12:
        last = write()
        if last == 401:
            break
        assert last == 204, last
        time.sleep(0.2)
    took = time.monotonic() - revoked_at
    assert last == 401, f"the revoked key still writes after {took:.1f}s"
    assert took <= 10, f"the revoked key was refused only after {took:.1f}s"
