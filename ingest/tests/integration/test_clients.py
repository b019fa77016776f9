"""Real clients against the gateway served by uvicorn: vmagent's remote_write negotiation
(zstd first, 415, then snappy). Needs ``$VIGIL_BIN/vmagent`` (default ``.vigil/bin``), built
from the pinned VictoriaMetrics module; skipped with the reason when absent."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn
from support import Keys, TopicTail, missing_service

from vigil_ingest.common.config import Settings
from vigil_ingest.common.kafka import HEADER_FORMAT, HEADER_POINTS
from vigil_ingest.gateway.app import create_app

pytestmark = pytest.mark.integration
INTERNAL_TOKEN = "internal-token-of-the-client-tests"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def gateway_url(postgres_url: str, kafka_topics: str) -> Iterator[str]:
    """The gateway on a real loopback port, as agents reach it."""
    port = _free_port()
    settings = Settings(
        database_url=postgres_url, kafka_bootstrap=kafka_topics, internal_token=INTERNAL_TOKEN
    )
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(settings), host="127.0.0.1", port=port, log_level="warning", access_log=False
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                break
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline, "gateway did not become healthy"
        time.sleep(0.1)
    yield url
    server.should_exit = True
    thread.join(10)


def test_vmagent_falls_back_from_zstd_to_snappy(
    gateway_url: str, keys: Keys, tail_promrw: TopicTail
) -> None:
    bindir = os.environ.get("VIGIL_BIN") or str(
        Path(__file__).resolve().parents[3] / ".vigil" / "bin"
    )
    binary = Path(bindir) / "vmagent"
    if not binary.exists():
        missing_service(f"vmagent is not built at {binary}")
    k = keys.create()
    tmp = Path(tempfile.mkdtemp(prefix="vigil-ingest-vmagent-"))
    port = _free_port()
    log = open(tmp / "log", "wb")  # noqa: SIM115  (closed after the process ends)
    proc = subprocess.Popen(
        [
            str(binary),
            f"-httpListenAddr=127.0.0.1:{port}",
            f"-remoteWrite.url={gateway_url}/api/v1/write",
            f"-remoteWrite.bearerToken={k.key}",
            f"-remoteWrite.tmpDataPath={tmp / 'data'}",
            "-remoteWrite.flushInterval=200ms",
            "-loggerLevel=INFO",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                r = httpx.post(
                    f"http://127.0.0.1:{port}/api/v1/import/prometheus",
                    content=b'vigil_probe{job="vmagent"} 42\n',
                    timeout=2,
                )
                if r.status_code == 204:
                    break
            except httpx.TransportError:
                pass
            assert proc.poll() is None, (tmp / "log").read_text()[-2000:]
            assert time.monotonic() < deadline, "vmagent did not start"
            time.sleep(0.2)
        [rec] = tail_promrw.records(k.workspace_id, 1, timeout=30)
        h = dict(rec.headers)
        assert h[HEADER_FORMAT] == b"promrw"
        assert int(h[HEADER_POINTS]) >= 1
        metrics = httpx.get(
            f"{gateway_url}/metrics", headers={"Authorization": f"Bearer {INTERNAL_TOKEN}"}
        ).text
        assert 'vigil_gateway_requests_total{code="415",endpoint="/api/v1/write"}' in metrics
        assert 'vigil_gateway_requests_total{code="204",endpoint="/api/v1/write"}' in metrics
        assert 'code="5' not in metrics
    finally:
        proc.terminate()
        proc.wait(30)
        log.close()
        shutil.rmtree(tmp, ignore_errors=True)


def _post_chunked(
    url: str, path: str, chunks: list[bytes], headers: dict[str, str]
) -> tuple[int, bytes]:
    """POST with Transfer-Encoding: chunked and no Content-Length, as Telegraf does."""
    import http.client

    u = httpx.URL(url)
    conn = http.client.HTTPConnection(u.host, u.port, timeout=30)
    try:
        conn.request("POST", path, body=iter(chunks), headers=headers, encode_chunked=True)
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


def test_telegraf_style_gzip_chunked_over_http(
    gateway_url: str, keys: Keys, tail_line: TopicTail
) -> None:
    import base64
    import gzip

    k = keys.create()
    body = b"".join(b"net,interface=eth%d bytes_recv=%di\n" % (i % 4, i) for i in range(2000))
    packed = gzip.compress(body)
    auth = "Basic " + base64.b64encode(f"telegraf:{k.key}".encode()).decode()
    status, _ = _post_chunked(
        gateway_url,
        "/write?db=telegraf",
        [packed[i : i + 4096] for i in range(0, len(packed), 4096)],
        {
            "Authorization": auth,
            "Content-Encoding": "gzip",
            "Content-Type": "text/plain; charset=utf-8",
            "User-Agent": "Telegraf/1.36",
        },
    )
    assert status == 204
    [rec] = tail_line.records(k.workspace_id, 1)
    assert rec.value == body


def test_chunked_body_over_the_limit_gets_413_over_http(gateway_url: str, keys: Keys) -> None:
    import json

    k = keys.create(max_body=64 * 1024)
    chunk = b"cpu,host=a v=1\n" * 1000  # 15 KB
    status, raw = _post_chunked(
        gateway_url, "/v1/write/metric", [chunk] * 8, {"Authorization": f"Token {k.key}"}
    )
    assert status == 413
    assert "max_body_bytes (65536 bytes)" in json.loads(raw)["error"]
