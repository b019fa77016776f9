"""Real gateway processes (``python -m vigil_ingest.gateway``) on the throwaway PostgreSQL and
the real Kafka broker: the points/s limit holds across two processes, and a real gzip bomb is
a fast 413 with the process's memory flat."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import psycopg
import pytest
from support import Keys, free_port

pytestmark = pytest.mark.integration

Start = Callable[[], tuple[str, int]]


@pytest.fixture
def start_gateway(postgres_url: str, kafka_topics: str) -> Iterator[Start]:
    procs: list[subprocess.Popen[bytes]] = []
    home = Path(tempfile.mkdtemp(prefix="vigil-gw-"))

    def start() -> tuple[str, int]:
        port = free_port()
        env = {
            **os.environ,
            "VIGIL_HOME": str(home),
            "VIGIL_HOST": "127.0.0.1",
            "VIGIL_GATEWAY_PORT": str(port),
            "VIGIL_DATABASE_URL": postgres_url,
            "VIGIL_KAFKA_BOOTSTRAP": kafka_topics,
        }
        log = open(home / f"gateway-{port}.log", "wb")  # noqa: SIM115 (closed with the process)
        p = subprocess.Popen(
            [sys.executable, "-m", "vigil_ingest.gateway"], env=env, stdout=log, stderr=log
        )
        procs.append(p)
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                    return url, p.pid
            except httpx.TransportError:
                pass
            assert p.poll() is None, (home / f"gateway-{port}.log").read_text()[-2000:]
            assert time.monotonic() < deadline, "the gateway did not become healthy"
            time.sleep(0.2)

    yield start
    for p in procs:
        p.terminate()
    for p in procs:
        p.wait(15)


def test_the_limit_holds_across_two_gateway_processes(
    start_gateway: Start, keys: Keys, postgres_url: str
) -> None:
    """A workspace limited to 2,000 points/s writes at three times that through two gateway
    processes: together they admit its limit (within 10 %), not twice it."""
    # a burst of 0.1 s, so that what the bucket held at the start weighs on no second
    rate, burst = 2000, 200
    key = keys.create(pps=rate, burst=burst)
    urls = [start_gateway()[0], start_gateway()[0]]
    warm = keys.create()
    for url in urls:  # connected to Kafka and PostgreSQL before the clock starts
        r = httpx.post(
            f"{url}/v1/write/metric",
            content=b"warm v=1\n",
            headers={"Authorization": f"Token {warm.key}"},
        )
        assert r.status_code == 204, r.text
    batch_lines = 100
    seconds = 10.0
    accepted = [0]
    refused = [0]
    errors: list[str] = []
    lock = threading.Lock()

    def sender(i: int) -> None:
        url = urls[i % 2]
        body = b"".join(b"fair,host=h%d v=%di\n" % (i, n) for n in range(batch_lines))
        # 3x the limit in total over 6 senders: each sends one batch every 100 ms
        interval = batch_lines * 6 / (3 * rate)
        with httpx.Client(base_url=url, headers={"Authorization": f"Token {key.key}"}) as c:
            nxt = time.monotonic()
            while time.monotonic() < t_end:
                r = c.post("/v1/write/metric", content=body)
                with lock:
                    if r.status_code == 204:
                        accepted[0] += batch_lines
                        per_second[int(time.monotonic() - t0)] += batch_lines
                    elif r.status_code == 429:
                        refused[0] += 1
                        assert r.json()["limit"] == "ingest_points_per_second"
                        assert int(r.headers["retry-after"]) >= 1
                    else:
                        errors.append(f"{r.status_code} {r.text[:200]}")
                nxt += interval
                time.sleep(max(0.0, nxt - time.monotonic()))

    import collections

    per_second: collections.Counter[int] = collections.Counter()
    t0 = time.monotonic()
    t_end = t0 + seconds
    threads = [threading.Thread(target=sender, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - t0
    assert errors == []
    assert refused[0] > 0
    # From the third second on (the processes' first requests are slow on a loaded machine)
    # the two processes together admit the rate, second after second.
    steady = [per_second[s] for s in range(3, int(seconds))]
    achieved = sum(steady) / len(steady)
    assert abs(achieved - rate) <= 0.1 * rate, (
        f"{achieved:.0f} points/s admitted from second 2 on, limit {rate}: {sorted(per_second.items())}"
    )
    assert accepted[0] <= 1.1 * (burst + rate * elapsed)
    with psycopg.connect(postgres_url) as conn:
        row = conn.execute(
            "SELECT count(*) FROM workspace_ingest_tokens WHERE workspace_id = %s",
            (key.workspace_id,),
        ).fetchone()
    assert row == (1,)


def _rss_kib(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise AssertionError(f"no {field} for pid {pid}")


def test_a_real_gzip_bomb_is_a_fast_413_with_memory_flat(start_gateway: Start, keys: Keys) -> None:
    """1 GiB of zeros gzipped into about 1 MiB, sent to a gateway process whose workspace
    takes 4 MiB bodies: 413 in well under a second, and the process's peak memory grows by
    about the limit, not by a gigabyte."""
    limit = 4 * 1024 * 1024
    key = keys.create(max_body=limit)
    url, pid = start_gateway()
    member = gzip.compress(b"\0" * (64 * 1024 * 1024), 9)
    bomb = member * 16  # a multi-member gzip stream: 16 x 64 MiB = 1 GiB decompressed
    assert len(bomb) < 2 * 1024 * 1024
    # warm the process up with a normal gzip write, so the bomb is all that is measured
    with httpx.Client(base_url=url, headers={"Authorization": f"Token {key.key}"}) as c:
        r = c.post(
            "/v1/write/metric",
            content=gzip.compress(b"warm v=1\n"),
            headers={"Content-Encoding": "gzip"},
        )
        assert r.status_code == 204, r.text
        peak_before = _rss_kib(pid, "VmHWM")
        t0 = time.monotonic()
        r = c.post("/v1/write/metric", content=bomb, headers={"Content-Encoding": "gzip"})
        took = time.monotonic() - t0
    assert r.status_code == 413, r.text
    assert r.json()["error"] == (
        f"decompressed body is over the workspace's max_body_bytes ({limit} bytes)"
    )
    assert took < 1.0, f"the bomb took {took:.2f} s to refuse"
    grown_mib = (_rss_kib(pid, "VmHWM") - peak_before) / 1024
    assert grown_mib < 32, f"peak memory grew by {grown_mib:.0f} MiB for a 4 MiB limit"
